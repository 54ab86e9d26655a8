package io.loadlab.data;

import org.HdrHistogram.Histogram;

/**
 * Several percentiles of one interval in one pass over its non-zero buckets: no histogram is
 * filled, reset or walked bucket by bucket over its whole range for it.
 */
final class Percentiles {

    private Percentiles() {
    }

    /**
     * @param buckets     the interval, at least one count
     * @param layout      any histogram of the interval's layout (digits, lowest value), for the
     *                    highest value each bucket stands for
     * @param percentiles ascending, each in (0, 100]
     * @return the value at each percentile, then the maximum: what {@link Histogram#getValueAtPercentile}
     *         and {@link Histogram#getMaxValue} give for the interval decoded on its own
     */
    static long[] of(BucketCounts buckets, Histogram layout, double[] percentiles) {
        long[] out = new long[percentiles.length + 1];
        long total = buckets.total();
        int next = 0;
        long seen = 0;
        for (int b = 0; b < buckets.size() && next < percentiles.length; b++) {
            seen += buckets.count(b);
            while (next < percentiles.length && seen >= countAt(percentiles[next], total)) {
                out[next++] = layout.highestEquivalentValue(buckets.value(b));
            }
        }
        out[percentiles.length] = layout.highestEquivalentValue(buckets.value(buckets.size() - 1));
        return out;
    }

    /** The count a percentile needs, computed as HdrHistogram 2.2.2's getValueAtPercentile does. */
    private static long countAt(double percentile, long total) {
        double p = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0.0), 100.0);
        return Math.max((long) Math.ceil(p * total / 100.0), 1);
    }
}
