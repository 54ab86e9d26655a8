package io.loadlab.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;

/**
 * Streams the latency intervals of one {@code latency.hlog}: the file is read in chunks of whole
 * lines ({@link LineChunks}, so memory stays bounded whatever its size), a {@link Visitor} picks
 * the lines it wants by their tag, in file order, and the picked lines of a chunk are decoded in
 * parallel. Decoding is what costs (inflating and reading an interval's buckets, some 7 µs a
 * line), and it is what runs on every core. A damaged line is a {@link DataException} naming the
 * file and line.
 */
final class HlogReader {

    /** What is done with each decoded line. */
    interface Decoder {

        /**
         * Called from several threads at once for each decoded line of a chunk, in no order.
         *
         * @param k  the line's place among the chunk's decoded lines, from 0
         * @param id what the line was picked as
         */
        void decoded(int k, int id, HlogLines.Interval interval);
    }

    /** What a reader does with the lines of a log: picks them, then takes them decoded. */
    interface Visitor extends Decoder {

        /**
         * Called in file order, on the reading thread, for each interval line.
         *
         * @return an id (0 or more) to decode the line under, or -1 to skip it
         */
        int pick(String tag, LineChunks.Chunk chunk, int line);

        /** Called on the reading thread once every picked line of a chunk is decoded. */
        default void chunkDone(int picked) {
        }
    }

    private HlogReader() {
    }

    /** Reads a whole log, a chunk at a time. */
    static void read(Path hlog, Visitor visitor) {
        try (InputStream in = Files.newInputStream(hlog)) {
            LineChunks lines = LineChunks.of(hlog, in);
            for (LineChunks.Chunk c = lines.next(); c != null; c = lines.next()) {
                int[] picked = new int[c.count()];
                int[] ids = new int[c.count()];
                int n = 0;
                for (int i = 0; i < c.count(); i++) {
                    String tag = tag(hlog, c, i);
                    int id = tag == null ? -1 : visitor.pick(tag, c, i);
                    if (id >= 0) {
                        picked[n] = i;
                        ids[n++] = id;
                    }
                }
                decode(hlog, c, picked, ids, n, visitor);
                visitor.chunkDone(n);
            }
        } catch (IOException e) {
            throw new DataException("cannot read " + hlog + ": " + e.getMessage(), e);
        }
    }

    /** Decodes lines {@code lines[0..count)} of a chunk in parallel, handing each on under its id. */
    static void decode(Path hlog, LineChunks.Chunk chunk, int[] lines, int[] ids, int count, Decoder visitor) {
        IntStream.range(0, count).parallel().forEach(k -> {
            int line = lines[k];
            HlogLines.Interval interval;
            try {
                interval = HlogLines.parse(chunk.bytes(), chunk.start(line), chunk.end(line));
            } catch (RuntimeException e) {
                throw damaged(hlog, chunk.lineNumber(line), e);
            }
            visitor.decoded(k, ids[k], interval);
        });
    }

    /** How many bytes of lines known by position are read and decoded at a time. */
    static final int BATCH_BYTES = 256 << 10;

    /**
     * Reads lines {@code [from, to)} of a list of lines known by position (file offset, length
     * without the line end, and line number) as one chunk.
     */
    static LineChunks.Chunk read(Path hlog, FileChannel file, long[] offsets, int[] lengths, long[] numbers, int from,
                                 int to) {
        int count = to - from;
        int[] starts = new int[count];
        int[] ends = new int[count];
        long[] lineNumbers = new long[count];
        int size = 0;
        for (int i = 0; i < count; i++) {
            starts[i] = size;
            size += lengths[from + i];
            ends[i] = size;
            lineNumbers[i] = numbers[from + i];
        }
        byte[] bytes = new byte[size];
        try {
            for (int i = 0; i < count; i++) {
                ByteBuffer into = ByteBuffer.wrap(bytes, starts[i], ends[i] - starts[i]);
                long at = offsets[from + i];
                while (into.hasRemaining()) {
                    if (file.read(into, at + into.position() - starts[i]) < 0) {
                        throw new DataException(hlog + ":" + lineNumbers[i] + ": the file is shorter than when it"
                                + " was first read; load the experiment again");
                    }
                }
            }
        } catch (IOException e) {
            throw new DataException("cannot read " + hlog + ": " + e.getMessage(), e);
        }
        return new LineChunks.Chunk(bytes, starts, ends, lineNumbers, count, -1);
    }

    private static String tag(Path hlog, LineChunks.Chunk c, int line) {
        try {
            return HlogLines.tag(c.bytes(), c.start(line), c.end(line));
        } catch (RuntimeException e) {
            throw damaged(hlog, c.lineNumber(line), e);
        }
    }

    private static DataException damaged(Path hlog, long line, RuntimeException e) {
        return new DataException(hlog + ":" + line + ": damaged interval line (" + e.getMessage() + ")", e);
    }
}
