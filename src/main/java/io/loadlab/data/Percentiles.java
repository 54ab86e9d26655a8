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

    /** The count a percentile needs, computed as HdrHistogram 2.2.2's getValueAtPercentile does. */
    private static long countAt(double percentile, long total) {
        double p = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0.0), 100.0);
        return Math.max((long) Math.ceil(p * total / 100.0), 1);
    }
}
