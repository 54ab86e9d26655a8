package io.loadlab.load;

import java.time.Duration;
import java.util.List;

/**
 * The rule that ends a steady-state warm-up: the throughput of the last {@value #WINDOW}
 * intervals of {@value #INTERVAL_MS} ms (2 s) is steady when
 * <ul>
 *   <li>their coefficient of variation is at most {@value #MAX_CV} (3%), as DaCapo's
 *       {@code -converge} asks of its last 3 iterations, and</li>
 *   <li>they show no trend: the mean of the last two differs from the mean of the first two by at
 *       most {@value #MAX_TREND} (2%) of their mean. A JIT that is still compiling raises the
 *       throughput a little in every interval, which a CV alone lets through.</li>
 * </ul>
 * Both limits are raised to the counting noise, {@code 2 / sqrt(answers per interval)}, so that a
 * slow server (a few hundred answers per interval) is not held back by the noise of small counts.
 * A run whose warm-up reaches its maximum without meeting the rule is not steady, and is measured
 * and reported as such (Barrett et al. 2017 found that many VM benchmarks never reach a steady
 * state: that is a result, not a failure).
 *
 * <p>Half-second intervals: the per-second throughput, sampled twice a second, so that the rule
 * can say "steady" after 2 s instead of 3-4 s, which matters when an experiment has hundreds of runs.
 * No rule that looks at the last seconds can tell a final level from a plateau before a later JIT
 * step (the JDK's HTTP server holds one for 3-4 s at half its final throughput): a subject like that
 * sets a minimum in its manifest ({@code warmup: {min: 8s, max: 30s}}).
 */
public final class SteadyState {

    /** Length of one warm-up interval, ms. */
    public static final long INTERVAL_MS = 500;
    /** Intervals the rule looks at. */
    public static final int WINDOW = 4;
    /** Largest coefficient of variation of the window's throughput. */
    public static final double MAX_CV = 0.03;
    /** Largest relative change between the window's two halves. */
    public static final double MAX_TREND = 0.02;

    private SteadyState() {
    }

    /** Time the rule needs at least: {@link #WINDOW} intervals. */
    public static Duration windowLength() {
        return Duration.ofMillis(INTERVAL_MS * WINDOW);
    }

    /**
     * One interval of the warm-up.
     *
     * @param answers complete answers in the interval
     * @param seconds length of the interval, s
     */
    public record Interval(long answers, double seconds) {
        /** Answers per second. */
        public double rate() {
            return seconds > 0 ? answers / seconds : 0;
        }
    }

    /**
     * What the rule found over the last intervals.
     *
     * @param steady    whether both limits hold
     * @param cv        coefficient of variation of the window's throughput (NaN with too few intervals)
     * @param trend     (mean of the last half − mean of the first half) / mean
     * @param tolerance the limit on the CV actually used (at least {@link #MAX_CV})
     */
    public record Check(boolean steady, double cv, double trend, double tolerance) {}

    /** Applies the rule to the last {@link #WINDOW} intervals; not steady with fewer, or no answers. */
    public static Check check(List<Interval> intervals) {
        if (intervals.size() < WINDOW) {
            return new Check(false, Double.NaN, Double.NaN, MAX_CV);
        }
        List<Interval> w = intervals.subList(intervals.size() - WINDOW, intervals.size());
        double[] r = w.stream().mapToDouble(Interval::rate).toArray();
        double mean = 0;
        long answers = 0;
        for (int i = 0; i < r.length; i++) {
            mean += r[i] / r.length;
            answers += w.get(i).answers();
        }
        if (!(mean > 0)) {
            return new Check(false, Double.NaN, Double.NaN, MAX_CV);
        }
        double ss = 0;
        for (double x : r) {
            ss += (x - mean) * (x - mean);
        }
        double cv = Math.sqrt(ss / (r.length - 1)) / mean;
        int half = r.length / 2;
        double first = 0;
        double last = 0;
        for (int i = 0; i < half; i++) {
            first += r[i] / half;
            last += r[r.length - 1 - i] / half;
        }
        double trend = (last - first) / mean;
        double countingNoise = 2 / Math.sqrt(Math.max(1.0, (double) answers / r.length));
        double cvLimit = Math.max(MAX_CV, countingNoise);
        double trendLimit = Math.max(MAX_TREND, countingNoise);
        return new Check(cv <= cvLimit && Math.abs(trend) <= trendLimit, cv, trend, cvLimit);
    }
}
