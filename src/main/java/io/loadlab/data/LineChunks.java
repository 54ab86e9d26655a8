package io.loadlab.data;

import io.loadlab.bytes.Bytes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Reads a text file as chunks of whole lines, so that a file of any size is read with a buffer of
 * about {@code chunkBytes} (more only when one line is longer, up to {@code maxLineBytes}). A line ends at {@code \n}; a
 * {@code \r} before it is dropped. What follows the last {@code \n} is a line cut off by a kill
 * while it was appended (the runner appends and flushes whole lines): it is not data, and it is
 * never returned. A line longer than {@code maxLineBytes} is a damaged (or foreign) file, not a line:
 * the buffer stops growing there and the read fails with a {@link DataException} naming the file and
 * line, rather than doubling until the heap is gone. Not thread-safe; a returned chunk stays valid
 * after the next call.
 */
final class LineChunks {

    /** The default chunk size (bytes): large enough to amortise the reads, small enough to stay in cache. */
    static final int CHUNK_BYTES = 1 << 20;

    /**
     * The longest line read by default (bytes, without its line feed): 1 MiB. The longest line
     * Loadlab writes is one hlog histogram, whose compressed, base64 form is bounded by the
     * histogram's bucket count (1 µs to 1 h at 3 digits; measured: 143 KiB with a random 48-bit
     * count in every bucket); a runs.csv row is a few hundred bytes.
     */
    static final int MAX_LINE_BYTES = 1 << 20;

    /**
     * Whole lines of a file, in file order.
     *
     * @param bytes  the chunk's bytes; line {@code i} is {@code bytes[start(i)..end(i))}
     * @param starts where each line starts
     * @param ends   where each line ends, without its {@code \r\n} or {@code \n}
     * @param lines  each line's 1-based number in the file
     * @param count  how many lines the arrays hold
     * @param offset where {@code bytes[0]} is in the file (bytes)
     */
    record Chunk(byte[] bytes, int[] starts, int[] ends, long[] lines, int count, long offset) {

        int start(int line) {
            return starts[line];
        }

        int end(int line) {
            return ends[line];
        }

        /** The 1-based line number in the file. */
        long lineNumber(int line) {
            return lines[line];
        }
    }


    private final Path file;
    private final InputStream in;
    private final int chunkBytes;
    private final int maxLineBytes;
    private byte[] buffer;
    /** Bytes of {@link #buffer} read but not yet returned: the start of a line. */
    private int pending;
    private long offset;
    private long nextLine = 1;
    private boolean eof;

    /**
     * @param file         the file {@code in} reads, named in the error about a line too long
     * @param in           its bytes, from the start
     * @param chunkBytes   the size of a chunk (bytes), at least 1
     * @param maxLineBytes the longest line accepted (bytes, without its line feed), at least 1
     */
    LineChunks(Path file, InputStream in, int chunkBytes, int maxLineBytes) {
        if (chunkBytes < 1 || maxLineBytes < 1) {
            throw new IllegalArgumentException("chunkBytes and maxLineBytes must be at least 1, got " + chunkBytes
                    + " and " + maxLineBytes);
        }
        this.file = file;
        this.in = in;
        this.chunkBytes = chunkBytes;
        this.maxLineBytes = maxLineBytes;
        this.buffer = new byte[chunkBytes];
    }

    /** A file's lines in chunks of {@link #CHUNK_BYTES}, lines up to {@link #MAX_LINE_BYTES}. */
    static LineChunks of(Path file, InputStream in) {
        return new LineChunks(file, in, CHUNK_BYTES, MAX_LINE_BYTES);
    }

    /**
     * The next chunk of whole lines, or {@code null} at the end of the file.
     *
     * @throws DataException when a line is longer than {@code maxLineBytes}
     */
    Chunk next() throws IOException {
        int lastFeed = fill();
        if (lastFeed < 0) {
            return null;
        }
        byte[] bytes = buffer;
        int used = lastFeed + 1;
        // The rest starts the next chunk, in a fresh buffer: the returned one belongs to the caller now.
        buffer = new byte[Math.max(chunkBytes, pending - used)];
        System.arraycopy(bytes, used, buffer, 0, pending - used);
        pending -= used;
        Chunk chunk = split(bytes, used, nextLine, offset);
        offset += used;
        nextLine += chunk.count();
        return chunk;
    }

    /** The capacity of the read buffer now (bytes): what one chunk costs. */
    int bufferBytes() {
        return buffer.length;
    }

    /** Reads until the buffer is full or the file ends; the index of the last line feed, -1 when there is none. */
    private int fill() throws IOException {
        while (true) {
            while (!eof && pending < buffer.length) {
                int n = in.read(buffer, pending, buffer.length - pending);
                if (n < 0) {
                    eof = true;
                } else {
                    pending += n;
                }
            }
            int lastFeed = lastIndexOf(buffer, pending, (byte) '\n');
            if (lastFeed >= 0 || eof) {
                return lastFeed;
            }
            // The whole buffer is the start of line nextLine: it held only the tail after the last feed.
            if (pending > maxLineBytes) {
                throw new DataException(String.format(Locale.ROOT, "%s: line %d is longer than %d bytes without a"
                        + " line feed: the file is damaged or not written by Loadlab", file, nextLine, maxLineBytes));
            }
            // Room for the longest line and its feed, no more: a line that never ends stops here.
            buffer = Arrays.copyOf(buffer, (int) Math.min(2L * buffer.length, maxLineBytes + 1L));
        }
    }

    private static int lastIndexOf(byte[] bytes, int length, byte b) {
        for (int i = length - 1; i >= 0; i--) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static Chunk split(byte[] bytes, int length, long first, long offset) {
        int[] ends = new int[Math.max(16, length / 64)];
        int lines = 0;
        for (int i = Bytes.indexOf(bytes, 0, length, (byte) '\n'); i >= 0;
                i = Bytes.indexOf(bytes, i + 1, length, (byte) '\n')) {
            if (lines == ends.length) {
                ends = Arrays.copyOf(ends, 2 * lines);
            }
            ends[lines++] = i;
        }
        int[] starts = new int[lines];
        long[] numbers = new long[lines];
        for (int line = 0; line < lines; line++) {
            int start = line == 0 ? 0 : ends[line - 1] + 1;
            starts[line] = start;
            numbers[line] = first + line;
        }
        for (int line = lines - 1; line >= 0; line--) {
            ends[line] = ends[line] > starts[line] && bytes[ends[line] - 1] == '\r' ? ends[line] - 1 : ends[line];
        }
        return new Chunk(bytes, starts, ends, numbers, lines, offset);
    }
}
