package io.loadlab.data;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The non-zero buckets of one compressed HdrHistogram (an interval of {@code latency.hlog}):
 * each bucket's lowest value and its count, in value order. Decoding an interval into a
 * {@link Histogram} allocates and scans its whole counts array (~33 KiB for a few ms of range,
 * ~170 KiB for the engine's), and adding it to another scans it again; an interval of a second
 * has a few hundred non-zero buckets. So the V2 encoding that {@code HistogramLogWriter} writes
 * is read here directly, the ZigZag LEB128 counts of HdrHistogram 2.x, and anything else is
 * decoded by HdrHistogram itself. Either way {@link #addTo} adds what {@code Histogram.add} of the
 * decoded histogram would. A buffer to reuse on one thread: not thread-safe.
 */
final class BucketCounts {

    private static final int COMPRESSED_V2 = 0x1c849304;
    private static final int ENCODED_V2 = 0x1c849303;
    private static final int HEADER_BYTES = 40;

    private final Inflater inflater = new Inflater();
    private final byte[] header = new byte[HEADER_BYTES];
    private byte[] payload = new byte[4096];
    private long[] values = new long[256];
    private long[] counts = new long[256];
    /** Each bucket's counts index in its histogram; -1 for buckets read by HdrHistogram. */
    private int[] indexes = new int[256];
    private int size;
    private long total;
    private int digits;
    private long lowest;
    /** The layout of the last histogram read: the next one almost always has the same. */
    private Shape shape;

    /**
     * Reads a compressed histogram (its bytes from the buffer's position).
     *
     * @throws IllegalArgumentException when it is damaged
     */
    void decode(ByteBuffer compressed) {
        size = 0;
        total = 0;
        try {
            if (!decodeV2(compressed.duplicate())) {
                decodeByLibrary(compressed);
            }
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("the histogram does not decode: " + e.getMessage(), e);
        }
    }

    /** Adds the counts to a histogram: what {@code into.add(decoded)} does. Not synchronised. */
    void addTo(Histogram into) {
        for (int i = 0; i < size; i++) {
            into.recordValueWithCount(values[i], counts[i]);
        }
    }

    /** How many non-zero buckets there are. */
    int size() {
        return size;
    }

    /** A bucket's lowest value. */
    long value(int bucket) {
        return values[bucket];
    }

    /** A bucket's count. */
    long count(int bucket) {
        return counts[bucket];
    }

    /**
     * A bucket's index in the counts array of its layout ({@link #digits()}, {@link #lowest()}):
     * buckets of the same index and layout have the same value. -1 when not known.
     */
    int index(int bucket) {
        return indexes[bucket];
    }

    /** The histogram's total count. */
    long total() {
        return total;
    }

    /** Its number of significant value digits. */
    int digits() {
        return digits;
    }

    /** Its lowest discernible value. */
    long lowest() {
        return lowest;
    }

    /** The V2 encoding read directly; false (nothing read) for another encoding. */
    private boolean decodeV2(ByteBuffer in) throws DataFormatException {
        if (in.remaining() < 8 || (in.getInt() & ~0xf0) != COMPRESSED_V2) {
            return false;
        }
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("the histogram is cut short");
        }
        inflater.reset();
        inflater.setInput(in.array(), in.arrayOffset() + in.position(), length);
        ByteBuffer h = ByteBuffer.wrap(header);
        if (inflate(header, HEADER_BYTES) < HEADER_BYTES) {
            throw new IllegalArgumentException("the histogram's header is cut short");
        }
        int cookie = h.getInt();
        int payloadBytes = h.getInt();
        int normalizingOffset = h.getInt();
        int digits = h.getInt();
        long lowest = h.getLong();
        long highest = h.getLong();
        if (shape == null || !shape.fits(digits, lowest, highest)) {
            shape = Shape.of(digits, lowest, highest);
        }
        if ((cookie & ~0xf0) != ENCODED_V2 || normalizingOffset != 0 || shape == null) {
            return false;
        }
        if (payloadBytes < 0 || payloadBytes > 9L * shape.countsLength()) {
            throw new IllegalArgumentException("the histogram's payload length " + payloadBytes + " does not fit it");
        }
        if (payload.length < payloadBytes) {
            payload = new byte[Math.max(payloadBytes, 2 * payload.length)];
        }
        if (inflate(payload, payloadBytes) < payloadBytes) {
            throw new IllegalArgumentException("the histogram's payload is cut short");
        }
        readCounts(shape, payloadBytes);
        this.digits = digits;
        this.lowest = lowest;
        return true;
    }

    /** Inflates up to {@code length} bytes into {@code into}; how many there were. */
    private int inflate(byte[] into, int length) throws DataFormatException {
        int done = 0;
        while (done < length) {
            int n = inflater.inflate(into, done, length - done);
            if (n == 0 && (inflater.finished() || inflater.needsInput() || inflater.needsDictionary())) {
                break;
            }
            done += n;
        }
        return done;
    }

    /** The ZigZag LEB128 counts: a positive value is a count, a negative one a run of zero counts. */
    private void readCounts(Shape shape, int bytes) {
        int pos = 0;
        int index = 0;
        while (pos < bytes) {
            long raw = 0;
            int shift = 0;
            byte b;
            do {
                if (pos == bytes) {
                    throw new IllegalArgumentException("the histogram's counts are cut short");
                }
                b = payload[pos++];
                raw |= shift == 56 ? (long) (b & 0xff) << 56 : (long) (b & 0x7f) << shift;
                shift += 7;
            } while (b < 0 && shift <= 56);
            long count = (raw >>> 1) ^ -(raw & 1);
            if (count < 0) {
                long zeros = -count; // Long.MIN_VALUE stays negative: as many zeros as there can be
                index = zeros < 0 || zeros > Integer.MAX_VALUE - index ? Integer.MAX_VALUE : index + (int) zeros;
            } else {
                if (count > 0) {
                    if (index >= shape.countsLength()) {
                        throw new IllegalArgumentException("a count beyond the histogram's range");
                    }
                    add(shape.valueAt(index), count, index);
                }
                index++;
            }
        }
    }

    /** Any other encoding (V0, V1, a shifted one): decoded by HdrHistogram, then read bucket by bucket. */
    private void decodeByLibrary(ByteBuffer compressed) throws DataFormatException {
        Histogram h = Histogram.decodeFromCompressedByteBuffer(compressed, 0);
        for (HistogramIterationValue v : h.recordedValues()) {
            add(h.lowestEquivalentValue(v.getValueIteratedTo()), v.getCountAtValueIteratedTo(), -1);
        }
        digits = h.getNumberOfSignificantValueDigits();
        lowest = h.getLowestDiscernibleValue();
    }

    private void add(long value, long count, int index) {
        if (size == values.length) {
            values = Arrays.copyOf(values, 2 * size);
            counts = Arrays.copyOf(counts, 2 * size);
            indexes = Arrays.copyOf(indexes, 2 * size);
        }
        indexes[size] = index;
        values[size] = value;
        counts[size++] = count;
        total += count;
    }

    /**
     * How an HdrHistogram of these settings lays out its buckets (its {@code init} and
     * {@code establishSize}), to turn a counts index into the value HdrHistogram gives it.
     */
    private record Shape(int digits, long lowest, long highest, int unitMagnitude, int halfCountMagnitude,
                         int halfCount, int countsLength) {

        boolean fits(int digits, long lowest, long highest) {
            return this.digits == digits && this.lowest == lowest && this.highest == highest;
        }

        /** The layout, or null for settings HdrHistogram would refuse (then it decodes and says why). */
        static Shape of(int digits, long lowest, long highest) {
            if (digits < 0 || digits > 5 || lowest < 1 || highest < 2 * lowest) {
                return null;
            }
            int unitMagnitude = (int) (Math.log(lowest) / Math.log(2));
            long largestWithUnitResolution = 2 * (long) Math.pow(10, digits);
            int countMagnitude = (int) Math.ceil(Math.log(largestWithUnitResolution) / Math.log(2));
            if (countMagnitude + unitMagnitude > 62) {
                return null;
            }
            int halfCount = (1 << countMagnitude) / 2;
            long smallestUntrackable = (1L << countMagnitude) << unitMagnitude;
            int buckets = 1;
            while (smallestUntrackable <= highest) {
                if (smallestUntrackable > Long.MAX_VALUE / 2) {
                    buckets++;
                    break;
                }
                smallestUntrackable <<= 1;
                buckets++;
            }
            return new Shape(digits, lowest, highest, unitMagnitude, countMagnitude - 1, halfCount,
                    (buckets + 1) * halfCount);
        }

        /** The lowest value of a counts index (HdrHistogram's {@code valueFromIndex}). */
        long valueAt(int index) {
            int bucket = (index >> halfCountMagnitude) - 1;
            int subBucket = (index & (halfCount - 1)) + halfCount;
            if (bucket < 0) {
                subBucket -= halfCount;
                bucket = 0;
            }
            return (long) subBucket << (bucket + unitMagnitude);
        }
    }
}
