package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class GroupCountsTest {

    @Test
    void intervalsOfSeveralLayoutsMergeAsAddingTheirDecodedHistogramsDoes() throws DataFormatException {
        SplittableRandom random = new SplittableRandom(3);
        List<Histogram> intervals = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            // Mostly the log's own layout, some of another (digits, lowest), one shifted (read by HdrHistogram).
            Histogram h = i % 7 == 3 ? new Histogram(1000, 1L << 36, 2) : i == 11 ? new Histogram(1, 1L << 40, 3)
                    : new Histogram(3);
            for (int k = 0; k < 300; k++) {
                h.recordValueWithCount(1000 + (long) (Math.pow(random.nextDouble(), 3) * 5_000_000), 1 + random.nextInt(9));
            }
            if (i == 11) {
                h.shiftValuesLeft(1);
            }
            intervals.add(h);
        }
        Histogram expected = new Histogram(3);
        GroupCounts merged = new GroupCounts();
        BucketCounts buckets = new BucketCounts();
        for (Histogram h : intervals) {
            ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
            int n = h.encodeIntoCompressedByteBuffer(b);
            expected.add(Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Arrays.copyOf(b.array(), n)), 0));
            buckets.decode(ByteBuffer.wrap(Arrays.copyOf(b.array(), n)));
            merged.add(buckets);
        }
        Histogram actual = merged.histogram();
        assertEquals(expected, actual);
        assertEquals(expected.getMaxValue(), actual.getMaxValue());
        assertEquals(expected.getMinNonZeroValue(), actual.getMinNonZeroValue());
        assertEquals(expected.getValueAtPercentile(99.99), actual.getValueAtPercentile(99.99));
        assertEquals(new Histogram(3), new GroupCounts().histogram(), "nothing added: empty");
    }
}
