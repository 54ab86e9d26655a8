package io.loadlab.data;

import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * One group's latency counts while its intervals are added, from several threads. Intervals of
 * one layout (significant digits and lowest value: in practice all of a log's) are summed by
 * bucket index, a plain addition per bucket; recording every bucket of every interval into an
 * HdrHistogram costs some 8 ns a bucket, and a second's interval has hundreds. Intervals of any
 * other layout are recorded into a histogram as they come. {@link #histogram()} then gives what
 * adding every interval's decoded histogram to a {@code new Histogram(3)} gives: a histogram's
 * counts, total, minimum and maximum do not depend on the order values are recorded in.
 */
final class GroupCounts {

    private int digits = -1;
    private long lowest;
    /** By counts index of the layout: the summed count and the bucket's lowest value. */
    private long[] counts = new long[0];
    private long[] values = new long[0];
    private Histogram others;

    /** Adds an interval's buckets. */
    synchronized void add(BucketCounts buckets) {
        if (digits < 0 && buckets.size() > 0 && buckets.index(0) >= 0) {
            digits = buckets.digits();
            lowest = buckets.lowest();
        }
        if (buckets.digits() != digits || buckets.lowest() != lowest) {
            others = others == null ? new Histogram(3) : others;
            buckets.addTo(others);
            return;
        }
        for (int b = 0; b < buckets.size(); b++) {
            int index = buckets.index(b);
            if (index < 0) {
                others = others == null ? new Histogram(3) : others;
                others.recordValueWithCount(buckets.value(b), buckets.count(b));
                continue;
            }
            if (index >= counts.length) {
                int length = Math.max(index + 1, 2 * counts.length);
                counts = Arrays.copyOf(counts, length);
                values = Arrays.copyOf(values, length);
            }
            counts[index] += buckets.count(b);
            values[index] = buckets.value(b);
        }
    }

    /** The merged histogram (µs) of what was added. */
    synchronized Histogram histogram() {
        Histogram h = new Histogram(3);
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                h.recordValueWithCount(values[i], counts[i]);
            }
        }
        if (others != null) {
            h.add(others);
        }
        return h;
    }
}
