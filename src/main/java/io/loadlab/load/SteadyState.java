package io.loadlab.load;

import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The rule that ends a steady-state warm-up. The throughput is steady when either of two tests
 * holds on the last intervals of {@value #INTERVAL_MS} ms:
 * <ol>
 *   <li><b>Quiet</b>, on the last {@value #WINDOW} intervals (2 s):
 *     <ul>
 *       <li>their coefficient of variation is at most {@value #MAX_CV} (3%), as DaCapo's
 *           {@code -converge} asks of its last 3 iterations, and</li>
 *       <li>they show no trend: the mean of the last two differs from the mean of the first two by
 *           at most {@value #MAX_TREND} (2%) of their mean. A JIT that is still compiling raises the
 *           throughput a little in every interval, which a CV alone lets through.</li>
 *     </ul>
 *     Both limits are raised to the counting noise, {@code 2 / sqrt(answers per interval)}, so that
 *     a slow server (a few hundred answers per interval) is not held back by the noise of small
 *     counts.</li>
 *   <li><b>Flat within its own noise</b>, on the last {@value #NOISY_WINDOW} intervals (4 s), for a
 *       server whose half-second throughput jumps by 5-10% with its garbage collector or the
 *       machine (go-nethttp, node-http here), which the quiet test would hold to its maximum:
 *     <ul>
 *       <li>their CV is at most {@value #MAX_NOISY_CV} (10%);</li>
 *       <li>the mean of the last half differs from the mean of the first half by at most
 *           {@value #MAX_NOISY_SHIFT} (5%), and</li>
 *       <li>by at most {@value #SHIFT_SE} standard errors of that difference (or 2%), the noise
 *           estimated from successive differences (the mean square successive difference, which a
 *           slow trend barely raises, unlike the plain variance).</li>
 *     </ul>
 *     This is the sense of Barrett et al.'s "flat" segment: no change of level larger than the
 *     series' own noise. On simulated flat series with 5% noise it passes 82% of checks; a rise of
 *     20% over the 4 s is caught 96% of the time (the figures are in {@code SteadyWarmupTest}'s
 *     comments). The run's noise is reported apart, by its CV across rounds ({@code high_cv}).</li>
 * </ol>
 * A run whose warm-up reaches its maximum without meeting the rule is not steady, and is measured
 * and reported as such (Barrett et al. 2017 found that many VM benchmarks never reach a steady
 * state: that is a result, not a failure).
 *
 * <p>Half-second intervals: the per-second throughput, sampled twice a second, so that the rule
 * can say "steady" after 2 s instead of 3-4 s, which matters when an experiment has hundreds of runs.
 * No rule that looks at the last seconds can tell a final level from a plateau before a later JIT
 * step (the JDK's HTTP server holds one for 3-4 s at half its final throughput): {@link WarmupEnd}
 * therefore also waits for the JIT compilers to be quiet ({@link #MAX_COMPILER_SHARE}), and a subject
 * whose plateau its compilers do not show sets a minimum in its manifest
 * ({@code warmup: {min: 8s, max: 30s}}).
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
    /** Intervals the flat-within-noise test looks at. */
    public static final int NOISY_WINDOW = 8;
    /** Largest CV the flat-within-noise test accepts. */
    public static final double MAX_NOISY_CV = 0.10;
    /** Largest relative change between the halves that the flat-within-noise test accepts. */
    public static final double MAX_NOISY_SHIFT = 0.05;
    /** Largest change between the halves, in standard errors, that the flat-within-noise test accepts. */
    public static final double SHIFT_SE = 2.0;
    /**
     * Largest share of one CPU that a JIT's compiler threads may use over the quiet test's last
     * {@link #WINDOW} intervals for a warm-up to end (issue 31): 5%, 100 ms in 2 s. The server's
     * compilers, where {@link LoadListener#serverCompilerSeconds} knows them, and this engine's own.
     * java-netty's used 40-60% of its core over its first 3-5 s, then 0-6% an interval, with a
     * rare late compilation of 0.1 s.
     */
    public static final double MAX_COMPILER_SHARE = 0.05;

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
     * @param steady    whether the quiet test or the flat-within-noise test holds
     * @param cv        coefficient of variation of the quiet test's {@link #WINDOW} intervals (NaN with too few)
     * @param trend     (mean of their last half − mean of their first half) / mean
     * @param tolerance the limit on the CV actually used (at least {@link #MAX_CV})
     */
    public record Check(boolean steady, double cv, double trend, double tolerance) {}

    /**
     * Applies the rule: the quiet test on the last {@link #WINDOW} intervals, else the
     * flat-within-noise test on the last {@link #NOISY_WINDOW}. Not steady with fewer than
     * {@link #WINDOW} intervals, or no answers. The figures returned are the quiet test's.
     */
    public static Check check(List<Interval> intervals) {
        Check quiet = quiet(intervals);
        if (quiet.steady() || intervals.size() < NOISY_WINDOW) {
            return quiet;
        }
        return new Check(flatWithinNoise(rates(intervals, NOISY_WINDOW)), quiet.cv(), quiet.trend(), quiet.tolerance());
    }

    private static Check quiet(List<Interval> intervals) {
        if (intervals.size() < WINDOW) {
            return new Check(false, Double.NaN, Double.NaN, MAX_CV);
        }
        List<Interval> w = intervals.subList(intervals.size() - WINDOW, intervals.size());
        double[] r = rates(intervals, WINDOW);
        double mean = mean(r);
        if (!(mean > 0)) {
            return new Check(false, Double.NaN, Double.NaN, MAX_CV);
        }
        long answers = w.stream().mapToLong(Interval::answers).sum();
        double cv = cv(r, mean);
        double trend = halvesShift(r) / mean;
        double countingNoise = countingNoise(answers, r.length);
        double cvLimit = Math.max(MAX_CV, countingNoise);
        double trendLimit = Math.max(MAX_TREND, countingNoise);
        return new Check(cv <= cvLimit && Math.abs(trend) <= trendLimit, cv, trend, cvLimit);
    }

    /**
     * The relative noise of counting alone, {@code 2 / sqrt(answers per interval)}: the least variation
     * a limit on {@code intervals} intervals of {@code answers} in all may demand.
     */
    static double countingNoise(long answers, int intervals) {
        return 2 / Math.sqrt(Math.max(1.0, (double) answers / intervals));
    }

    /** The second test: CV, shift between the halves, and that shift against the successive-difference noise. */
    static boolean flatWithinNoise(double[] r) {
        double mean = mean(r);
        if (!(mean > 0) || cv(r, mean) > MAX_NOISY_CV) {
            return false;
        }
        double shift = Math.abs(halvesShift(r));
        if (shift > MAX_NOISY_SHIFT * mean) {
            return false;
        }
        double mssd = 0;
        for (int i = 1; i < r.length; i++) {
            mssd += (r[i] - r[i - 1]) * (r[i] - r[i - 1]);
        }
        double sigma = Math.sqrt(mssd / (2.0 * (r.length - 1)));
        int half = r.length / 2;
        double standardError = sigma * Math.sqrt(2.0 / half);
        return shift <= MAX_TREND * mean || shift <= SHIFT_SE * standardError;
    }

    /**
     * Whether compilers whose CPU time so far read {@code from} and then {@code to}, {@code spanSeconds}
     * of wall time apart, are done: they used at most {@link #MAX_COMPILER_SHARE} of one CPU. Compilers
     * not known at either end (not a JVM, another host) hold nothing back.
     */
    public static boolean compilersQuiet(OptionalDouble from, OptionalDouble to, double spanSeconds) {
        return from.isEmpty() || to.isEmpty() || to.getAsDouble() - from.getAsDouble() <= MAX_COMPILER_SHARE * spanSeconds;
    }

    private static double[] rates(List<Interval> intervals, int last) {
        return intervals.subList(intervals.size() - last, intervals.size()).stream().mapToDouble(Interval::rate).toArray();
    }

    private static double mean(double[] r) {
        double m = 0;
        for (double x : r) {
            m += x / r.length;
        }
        return m;
    }

    private static double cv(double[] r, double mean) {
        double ss = 0;
        for (double x : r) {
            ss += (x - mean) * (x - mean);
        }
        return Math.sqrt(ss / (r.length - 1)) / mean;
    }

    /** Mean of the last half less the mean of the first half. */
    private static double halvesShift(double[] r) {
        int half = r.length / 2;
        double first = 0;
        double last = 0;
        for (int i = 0; i < half; i++) {
            first += r[i] / half;
            last += r[r.length - 1 - i] / half;
        }
        return last - first;
    }
}
