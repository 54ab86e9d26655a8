package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class BucketCountsTest {

    private static ByteBuffer compressed(Histogram h) {
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity() + 64);
        int n = h.encodeIntoCompressedByteBuffer(b);
        return ByteBuffer.wrap(Arrays.copyOf(b.array(), n));
    }

    /** Oracle: what HdrHistogram's own decoding, added to a merged histogram, gives. */
    private static void assertSameAsDecodedAndAdded(Histogram source, String what) throws DataFormatException {
        Histogram expected = new Histogram(3);
        expected.add(Histogram.decodeFromCompressedByteBuffer(compressed(source), 0));
        BucketCounts counts = new BucketCounts();
        counts.decode(compressed(source));
        Histogram actual = new Histogram(3);
        counts.addTo(actual);
        assertEquals(expected, actual, what);
        assertEquals(expected.getTotalCount(), counts.total(), what);
        assertEquals(expected.getMaxValue(), actual.getMaxValue(), what);
        assertEquals(expected.getMinNonZeroValue(), actual.getMinNonZeroValue(), what);
        for (double p : new double[] {0, 50, 90, 99, 99.9, 99.99, 100}) {
            assertEquals(expected.getValueAtPercentile(p), actual.getValueAtPercentile(p), what + " p" + p);
        }
        assertEquals(source.getNumberOfSignificantValueDigits(), counts.digits(), what);
        assertEquals(source.getLowestDiscernibleValue(), counts.lowest(), what);
    }

    @Test
    void bucketsAddUpToWhatHdrHistogramsDecodingAdds() throws DataFormatException {
        SplittableRandom random = new SplittableRandom(7);
        for (int digits = 0; digits <= 5; digits++) {
            for (long lowest : new long[] {1, 2, 1000, 1 << 20}) {
                for (long highest : new long[] {0, 3_600_000_000L}) {
                    Histogram h = highest == 0 ? new Histogram(lowest, 2 * lowest, digits) : new Histogram(lowest, highest,
                            digits);
                    h.setAutoResize(highest == 0);
                    long top = highest == 0 ? 50_000_000 : highest;
                    for (int k = 0; k < 500; k++) {
                        long v = (long) (Math.pow(random.nextDouble(), 4) * top);
                        h.recordValueWithCount(v, 1 + random.nextInt(1000));
                    }
                    assertSameAsDecodedAndAdded(h, digits + " digits, lowest " + lowest + ", highest " + highest);
                }
            }
        }
    }

    @Test
    void anEmptyIntervalAndOneAtZeroAreReadToo() throws DataFormatException {
        assertSameAsDecodedAndAdded(new Histogram(3), "empty");
        Histogram zero = new Histogram(3);
        zero.recordValueWithCount(0, 5);
        zero.recordValue(Long.MAX_VALUE / 4);
        assertSameAsDecodedAndAdded(zero, "zero and a huge value");
    }

    @Test
    void aShiftedHistogramIsLeftToHdrHistogramAndStillAddsTheSame() throws DataFormatException {
        // Shifting sets the normalizing index offset, which the direct reading does not handle.
        Histogram h = new Histogram(1, 1L << 40, 3);
        for (long v = 1; v < 1_000_000; v = v * 3 + 1) {
            h.recordValue(v);
        }
        h.shiftValuesLeft(3);
        assertSameAsDecodedAndAdded(h, "shifted");
    }

    @Test
    void aDamagedPayloadIsAnErrorNotAWrongHistogram() {
        Histogram h = new Histogram(3);
        for (int v = 1; v < 5000; v += 7) {
            h.recordValue(v);
        }
        byte[] whole = compressed(h).array();
        BucketCounts counts = new BucketCounts();
        assertThrows(IllegalArgumentException.class, () -> counts.decode(ByteBuffer.wrap(Arrays.copyOf(whole,
                whole.length / 2))), "cut in half");
        byte[] garbled = whole.clone();
        for (int i = 8; i < garbled.length; i++) {
            garbled[i] ^= 0x5a;
        }
        assertThrows(IllegalArgumentException.class, () -> counts.decode(ByteBuffer.wrap(garbled)), "garbled");
    }
}
