package io.loadlab.data;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Reads the interval lines of an HdrHistogram log ({@code [Tag=T,]start,length,max,payload}),
 * from the bytes of the line. {@code HistogramLogReader} parses with {@link java.util.Scanner}
 * and regular expressions and makes a histogram of every interval; splitting the line by hand
 * and reading the payload's buckets ({@link BucketCounts}) is several times faster, which matters
 * when an analysis loads hundreds of thousands of intervals. Thread-safe: each thread decodes
 * into a buffer of its own.
 */
final class HlogLines {

    /**
     * One interval: its tag (empty when none), start and length in seconds, and its histogram's
     * buckets, which are the decoding thread's buffer: valid until that thread parses another line.
     */
    record Interval(String tag, double startSeconds, double lengthSeconds, BucketCounts counts) {}

    private static final byte[] TAG = "Tag=".getBytes(StandardCharsets.US_ASCII);
    private static final ThreadLocal<BucketCounts> BUFFERS = ThreadLocal.withInitial(BucketCounts::new);

    private HlogLines() {
    }

    /**
     * The tag of the line {@code bytes[from..to)}: empty for an interval without one, {@code null}
     * for what is not an interval (comments, the header, the legend, an empty line).
     *
     * @throws IllegalArgumentException for a tag without the fields that follow it
     */
    static String tag(byte[] bytes, int from, int to) {
        if (to <= from || bytes[from] == '#' || bytes[from] == '"') {
            return null;
        }
        if (!startsWith(bytes, from, to, TAG)) {
            return "";
        }
        int comma = indexOf(bytes, from + TAG.length, to, (byte) ',');
        if (comma < 0) {
            throw new IllegalArgumentException("a tag without the fields that follow it");
        }
        return new String(bytes, from + TAG.length, comma - from - TAG.length, StandardCharsets.ISO_8859_1);
    }

    /**
     * Parses the line {@code bytes[from..to)}; {@code null} for what is not an interval.
     *
     * @throws IllegalArgumentException when an interval line is malformed
     */
    static Interval parse(byte[] bytes, int from, int to) {
        String tag = tag(bytes, from, to);
        if (tag == null) {
            return null;
        }
        int pos = tag.isEmpty() ? from : from + TAG.length + tag.length() + 1;
        int c1 = indexOf(bytes, pos, to, (byte) ',');
        int c2 = c1 < 0 ? -1 : indexOf(bytes, c1 + 1, to, (byte) ',');
        int c3 = c2 < 0 ? -1 : indexOf(bytes, c2 + 1, to, (byte) ',');
        if (c3 < 0) {
            throw new IllegalArgumentException("expected start,length,max,histogram");
        }
        double start = Double.parseDouble(text(bytes, pos, c1));
        double length = Double.parseDouble(text(bytes, c1 + 1, c2));
        int payloadFrom = c3 + 1;
        int payloadTo = to;
        while (payloadFrom < payloadTo && bytes[payloadFrom] <= ' ') {
            payloadFrom++;
        }
        while (payloadTo > payloadFrom && bytes[payloadTo - 1] <= ' ') {
            payloadTo--;
        }
        ByteBuffer payload = Base64.getDecoder().decode(ByteBuffer.wrap(bytes, payloadFrom, payloadTo - payloadFrom));
        BucketCounts counts = BUFFERS.get();
        counts.decode(payload);
        return new Interval(tag, start, length, counts);
    }

    private static String text(byte[] bytes, int from, int to) {
        return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private static boolean startsWith(byte[] bytes, int from, int to, byte[] prefix) {
        if (to - from < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[from + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] bytes, int from, int to, byte b) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
