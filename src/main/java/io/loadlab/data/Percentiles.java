package io.loadlab.data;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/** Several percentiles of a histogram in one pass over its recorded values. */
final class Percentiles {

    private Percentiles() {
    }

    /**
     * @param percentiles ascending, each in (0, 100]
     * @return the value at each percentile, as {@link Histogram#getValueAtPercentile} gives it
     */
    static long[] of(Histogram h, double[] percentiles) {
        long[] out = new long[percentiles.length];
        long total = h.getTotalCount();
        int next = 0;
        long seen = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            seen += v.getCountAtValueIteratedTo();
            while (next < percentiles.length && seen >= countAt(percentiles[next], total)) {
                out[next++] = h.highestEquivalentValue(v.getValueIteratedTo());
            }
            if (next == percentiles.length) {
                break;
            }
        }
        return out;
    }

    /** The count a percentile needs, rounded as HdrHistogram rounds it. */
    private static long countAt(double percentile, long total) {
        long c = (long) (Math.min(percentile, 100.0) / 100.0 * total + 0.5);
        return Math.max(c, 1);
    }
}
