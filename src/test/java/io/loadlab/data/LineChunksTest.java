package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class LineChunksTest {

    private static final Path FILE = Path.of("data", "x", "latency.hlog");

    /** Every line of a reader as text with its number and file offset, chunk after chunk. */
    private static List<String> read(byte[] file, int chunkBytes) throws IOException {
        LineChunks lines = new LineChunks(FILE, new ByteArrayInputStream(file), chunkBytes, LineChunks.MAX_LINE_BYTES);
        List<String> out = new ArrayList<>();
        for (LineChunks.Chunk c = lines.next(); c != null; c = lines.next()) {
            for (int i = 0; i < c.count(); i++) {
                String text = new String(c.bytes(), c.start(i), c.end(i) - c.start(i), StandardCharsets.UTF_8);
                long offset = c.offset() + c.start(i);
                // The offset must point at the line in the file itself, for reads by position.
                String atOffset = new String(Arrays.copyOfRange(file, (int) offset, (int) offset + c.end(i) - c.start(i)),
                        StandardCharsets.UTF_8);
                assertEquals(text, atOffset, "line " + c.lineNumber(i));
                out.add(c.lineNumber(i) + ":" + text);
            }
        }
        return out;
    }

    @Test
    void linesNumbersAndOffsetsAreThoseOfASplitWhateverTheChunkSize() throws IOException {
        String text = "first\n\nthird, with a comma\r\nfourth line is longer than the smallest chunks\n5\n\u00e9t\u00e9\n";
        byte[] file = text.getBytes(StandardCharsets.UTF_8);
        List<String> expected = new ArrayList<>();
        String[] split = text.split("\n", -1);
        for (int i = 0; i < split.length - 1; i++) {
            expected.add((i + 1) + ":" + split[i].replaceAll("\r$", ""));
        }
        for (int chunk = 1; chunk <= file.length + 1; chunk++) {
            assertEquals(expected, read(file, chunk), "chunks of " + chunk + " bytes");
        }
    }

    @Test
    void whatFollowsTheLastLineFeedIsACutOffLineAndIsNeverReturned() throws IOException {
        byte[] file = "a,1\nb,2\nc,".getBytes(StandardCharsets.UTF_8);
        for (int chunk : new int[] {1, 3, 64}) {
            assertEquals(List.of("1:a,1", "2:b,2"), read(file, chunk), "chunks of " + chunk);
        }
        byte[] noFeed = "no line feed".getBytes(StandardCharsets.UTF_8);
        assertNull(new LineChunks(FILE, new ByteArrayInputStream(noFeed), 4, LineChunks.MAX_LINE_BYTES).next());
        assertEquals(List.of(), read(new byte[0], 8));
    }

    @Test
    void aFileOfManyLinesIsReadWithABufferOfOneChunk() throws IOException {
        // 64 MiB of 100-byte lines made as they are read: the reader must never hold more than
        // about a chunk, however long the file (the old load read latency.hlog as one String).
        long lines = (64L << 20) / 100;
        int chunk = 64 << 10;
        LineChunks reader = new LineChunks(FILE, new Lines(lines, 100), chunk, LineChunks.MAX_LINE_BYTES);
        long seen = 0;
        int largest = 0;
        for (LineChunks.Chunk c = reader.next(); c != null; c = reader.next()) {
            assertEquals(seen + 1, c.lineNumber(0));
            seen += c.count();
            largest = Math.max(largest, Math.max(c.bytes().length, reader.bufferBytes()));
        }
        assertEquals(lines, seen);
        assertEquals(chunk, largest, "no buffer grew beyond one chunk");
    }

    @Test
    void aLineLongerThanAChunkGrowsTheBufferToFitIt() throws IOException {
        String longLine = "x".repeat(10_000);
        byte[] file = ("short\n" + longLine + "\nend\n").getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of("1:short", "2:" + longLine, "3:end"), read(file, 256));
        LineChunks reader = new LineChunks(FILE, new ByteArrayInputStream(file), 256, LineChunks.MAX_LINE_BYTES);
        int largest = 0;
        for (LineChunks.Chunk c = reader.next(); c != null; c = reader.next()) {
            largest = Math.max(largest, c.bytes().length);
        }
        assertTrue(largest >= 10_001 && largest <= 2 * 10_001 + 256, "grown to fit the line: " + largest);
    }

    @Test
    @Timeout(30) // a hang guard: before the cap the buffer doubled until the heap ran out
    void aLineThatNeverEndsFailsAtTheCapNamingTheFileAndLine() throws IOException {
        // Two lines, then bytes without a line feed for ever: a damaged or hostile file.
        InputStream endless = new java.io.SequenceInputStream(new ByteArrayInputStream("a\nb\n".getBytes(
                StandardCharsets.US_ASCII)), new InputStream() {
                    @Override
                    public int read() {
                        return 'x';
                    }
                });
        LineChunks reader = LineChunks.of(FILE, endless);
        assertEquals(2, reader.next().count());
        DataException e = assertThrows(DataException.class, reader::next);
        assertEquals(FILE + ": line 3 is longer than 1048576 bytes without a line feed: the file is damaged or not"
                + " written by Loadlab", e.getMessage());
        assertTrue(reader.bufferBytes() <= LineChunks.MAX_LINE_BYTES + 1, "buffer " + reader.bufferBytes());
    }

    @Test
    void aLineOfExactlyTheCapIsRead() throws IOException {
        byte[] file = ("y".repeat(300) + "\nz\n").getBytes(StandardCharsets.US_ASCII);
        LineChunks reader = new LineChunks(FILE, new ByteArrayInputStream(file), 16, 300);
        assertEquals(300, reader.next().end(0), "the line of 300 bytes, whole");
        assertEquals(1, reader.next().count());
        assertNull(reader.next());
        byte[] longer = ("y".repeat(301) + "\n").getBytes(StandardCharsets.US_ASCII);
        LineChunks tooLong = new LineChunks(FILE, new ByteArrayInputStream(longer), 16, 300);
        assertThrows(DataException.class, tooLong::next);
    }

    @Test
    void theFirstLineFeedIsFoundAtEveryPlaceOfAWordAndAfterOtherBytes() {
        // Bytes that a borrow in the word-at-a-time test could mistake for a feed: 0x0b, 0x09, 0x8a, 0x00.
        byte[] noise = {'a', 0x0b, 0x09, (byte) 0x8a, 0x00, (byte) 0xff, '\r', ','};
        for (int length = 0; length <= 40; length++) {
            for (int feed = -1; feed < length; feed++) {
                byte[] b = new byte[length];
                for (int i = 0; i < length; i++) {
                    b[i] = noise[(i * 5 + length) % noise.length];
                }
                if (feed >= 0) {
                    b[feed] = '\n';
                    if (feed + 1 < length) {
                        b[feed + 1] = '\n';
                    }
                }
                for (int from = 0; from <= length; from++) {
                    int expected = -1;
                    for (int i = from; i < length && expected < 0; i++) {
                        expected = b[i] == '\n' ? i : -1;
                    }
                    assertEquals(expected, io.loadlab.bytes.Bytes.indexOf(b, from, length, (byte) '\n'), length + " bytes, from " + from);
                }
            }
        }
    }

    /** {@code count} lines of {@code width} bytes (line feed included), made as they are read. */
    private static final class Lines extends InputStream {
        private final long size;
        private final int width;
        private long pos;

        Lines(long count, int width) {
            this.size = count * width;
            this.width = width;
        }

        @Override
        public int read() {
            if (pos == size) {
                return -1;
            }
            return pos++ % width == width - 1 ? '\n' : 'a';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int n = (int) Math.min(len, size - pos);
            if (n == 0) {
                return -1;
            }
            for (int i = 0; i < n; i++) {
                b[off + i] = (byte) read();
            }
            return n;
        }
    }
}
