package io.loadlab.data;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Reads the interval lines of an HdrHistogram log ({@code [Tag=T,]start,length,max,payload}).
 * {@code HistogramLogReader} parses with {@link java.util.Scanner} and regular expressions;
 * splitting the line by hand and decoding the payload directly is several times faster, which
 * matters when an analysis loads tens of thousands of intervals.
 */
final class HlogLines {

    /** One interval: its tag (empty when none), start and length in seconds, and its histogram. */
    record Interval(String tag, double startSeconds, double lengthSeconds, Histogram histogram) {}

    private HlogLines() {
    }

    /**
     * Parses one line; {@code null} for comments, headers and the legend.
     *
     * @throws IllegalArgumentException when an interval line is malformed
     */
    static Interval parse(String line) {
        if (line.isEmpty() || line.charAt(0) == '#' || line.charAt(0) == '"') {
            return null;
        }
        int pos = 0;
        String tag = "";
        if (line.startsWith("Tag=")) {
            int comma = line.indexOf(',');
            if (comma < 0) {
                throw new IllegalArgumentException("a tag without the fields that follow it");
            }
            tag = line.substring(4, comma);
            pos = comma + 1;
        }
        int c1 = line.indexOf(',', pos);
        int c2 = c1 < 0 ? -1 : line.indexOf(',', c1 + 1);
        int c3 = c2 < 0 ? -1 : line.indexOf(',', c2 + 1);
        if (c3 < 0) {
            throw new IllegalArgumentException("expected start,length,max,histogram");
        }
        double start = Double.parseDouble(line.substring(pos, c1));
        double length = Double.parseDouble(line.substring(c1 + 1, c2));
        byte[] payload = Base64.getDecoder().decode(line.substring(c3 + 1).trim());
        try {
            Histogram h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(payload), 0);
            return new Interval(tag, start, length, h);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("the histogram does not decode: " + e.getMessage(), e);
        }
    }
}
