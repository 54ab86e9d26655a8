package io.loadlab.stats;

import io.loadlab.format.Units;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Descriptive statistics of one sample (e.g. the per-round values of one metric for one group),
 * in the unit of the metric. Immutable and thread-safe.
 *
 * @param n      number of values, 1 or more
 * @param mean   arithmetic mean
 * @param sd     sample standard deviation (divisor n-1); NaN when n = 1
 * @param cv     coefficient of variation, sd / |mean| as a fraction (0.02 = 2%); NaN when n = 1
 *               or the mean is 0
 * @param median middle value (mean of the two middle values when n is even)
 * @param min    smallest value
 * @param max    largest value
 * @param ciLow  lower end of the 95% confidence interval of the mean (Student t, n-1 degrees of
 *               freedom); NaN when n &lt; 2
 * @param ciHigh upper end of that interval; NaN when n &lt; 2
 * @throws StatsException from the constructor when n &lt; 1, a location is NaN, or the order
 *                        min &le; median &le; max does not hold
 */
public record Summary(int n, double mean, double sd, double cv, double median, double min, double max,
                      double ciLow, double ciHigh) {

    /** Confidence level of {@link #ciLow()} / {@link #ciHigh()}. */
    public static final double CONFIDENCE = 0.95;

    public Summary {
        if (n < 1) {
            throw new StatsException("summary: n must be at least 1, got " + n);
        }
        if (Double.isNaN(mean) || Double.isNaN(median) || Double.isNaN(min) || Double.isNaN(max)) {
            throw new StatsException("summary: mean, median, min and max must be numbers, got mean " + mean
                    + ", median " + median + ", min " + min + ", max " + max);
        }
        if (!(min <= median && median <= max)) {
            throw new StatsException("summary: need min <= median <= max, got " + min + ", " + median + ", " + max);
        }
        if (sd < 0) {
            throw new StatsException("summary: sd must not be negative, got " + sd);
        }
    }

    /**
     * Summarizes a sample.
     *
     * @param values the sample, in any order; not modified
     * @return its summary
     * @throws StatsException when values is null or empty, or holds NaN or an infinite value
     */
    public static Summary of(double[] values) {
        if (values == null || values.length == 0) {
            throw new StatsException("cannot summarize an empty sample: need at least one value");
        }
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new StatsException("cannot summarize a sample holding " + values[i] + " (at index " + i
                        + "); leave out values that were not measured");
            }
        }
        int n = values.length;
        double mean = mean(values);
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double median = median(sorted);
        if (n == 1) {
            return new Summary(1, mean, Double.NaN, Double.NaN, median, sorted[0], sorted[0], Double.NaN, Double.NaN);
        }
        double sd = Math.sqrt(variance(values, mean));
        double cv = mean == 0 ? Double.NaN : sd / Math.abs(mean);
        double half = tCritical(n - 1) * sd / Math.sqrt(n);
        return new Summary(n, mean, sd, cv, median, sorted[0], sorted[n - 1], mean - half, mean + half);
    }

    /** Arithmetic mean with one correction pass, which keeps the rounding error of large sums small. */
    static double mean(double[] x) {
        double sum = 0;
        for (double v : x) {
            sum += v;
        }
        double m = sum / x.length;
        double correction = 0;
        for (double v : x) {
            correction += v - m;
        }
        return m + correction / x.length;
    }

    /** Sample variance (divisor n-1) by the corrected two-pass formula; x needs 2 or more values. */
    static double variance(double[] x, double mean) {
        double squares = 0;
        double sum = 0;
        for (double v : x) {
            double d = v - mean;
            squares += d * d;
            sum += d;
        }
        return (squares - sum * sum / x.length) / (x.length - 1);
    }

    /** Median of an ascending, non-empty array. */
    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** Two-sided 95% critical value of Student's t. */
    private static double tCritical(int degreesOfFreedom) {
        // The default solver accuracy (1e-9 absolute) is coarser than the CI needs to match other tools.
        TDistribution t = new TDistribution(null, degreesOfFreedom, 1e-14);
        return t.inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
    }

    /**
     * One line with the figures rounded for reading (3 significant digits, whole numbers with
     * separators from 1,000 on): {@code Summary[n=5: mean 43,408 ± 6,548 (95% CI), sd 5,274 (cv
     * 12.1%), median 43,812, range 36,860 to 49,956]}.
     */
    @Override
    public String toString() {
        if (n == 1) {
            return "Summary[n=1: value " + Units.decimal(mean) + "]";
        }
        return String.format(Locale.ROOT, "Summary[n=%d: mean %s ± %s (95%% CI), sd %s (cv %s), median %s, range %s to %s]",
                n, Units.decimal(mean), Units.decimal((ciHigh - ciLow) / 2), Units.decimal(sd), Units.percent(cv),
                Units.decimal(median), Units.decimal(min), Units.decimal(max));
    }
}
