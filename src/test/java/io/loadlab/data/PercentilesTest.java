package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PercentilesTest {

    private static final double[] PERCENTILES = {1, 50, 90, 99, 99.9, 100};

    /**
     * Oracle: HdrHistogram's getValueAtPercentile and getMaxValue of the interval decoded by
     * HdrHistogram, as the intervals table had them before (a decoded histogram's maximum is the
     * top of its highest bucket, even for a bucket of zeros).
     */
    private static void assertAsHdrHistogram(Histogram recorded, String what) throws DataFormatException {
        ByteBuffer b = ByteBuffer.allocate(recorded.getNeededByteBufferCapacity());
        int n = recorded.encodeIntoCompressedByteBuffer(b);
        Histogram h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Arrays.copyOf(b.array(), n)), 0);
        BucketCounts buckets = new BucketCounts();
        buckets.decode(ByteBuffer.wrap(Arrays.copyOf(b.array(), n)));
        long[] expected = new long[PERCENTILES.length + 1];
        for (int i = 0; i < PERCENTILES.length; i++) {
            expected[i] = h.getValueAtPercentile(PERCENTILES[i]);
        }
        expected[PERCENTILES.length] = h.getMaxValue();
        Histogram layout = new Histogram(h.getLowestDiscernibleValue(), 2 * h.getLowestDiscernibleValue(),
                h.getNumberOfSignificantValueDigits());
        assertArrayEquals(expected, Percentiles.of(buckets, layout, PERCENTILES), what);
    }

    @Test
    void theyAreHdrHistogramsOwnForEveryLayoutAndShape() throws DataFormatException {
        SplittableRandom random = new SplittableRandom(11);
        for (int digits = 1; digits <= 4; digits++) {
            for (long lowest : new long[] {1, 4, 1000}) {
                Histogram h = new Histogram(lowest, 2 * lowest, digits);
                h.setAutoResize(true);
                for (int k = 0; k < 1 + random.nextInt(400); k++) {
                    h.recordValueWithCount((long) (Math.pow(random.nextDouble(), 5) * 1e8), 1 + random.nextInt(50));
                }
                assertAsHdrHistogram(h, digits + " digits, lowest " + lowest);
                Histogram one = new Histogram(lowest, 2 * lowest, digits);
                one.setAutoResize(true);
                one.recordValueWithCount(12_345, 7);
                assertAsHdrHistogram(one, "one bucket, " + digits + " digits, lowest " + lowest);
                Histogram zeros = new Histogram(lowest, 2 * lowest, digits);
                zeros.recordValueWithCount(0, 3);
                assertAsHdrHistogram(zeros, "only zeros, " + digits + " digits, lowest " + lowest);
            }
        }
    }
}
