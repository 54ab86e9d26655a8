package io.loadlab.stats;

/**
 * Thresholds of {@link Warnings#find}.
 *
 * @param maxCv        largest coefficient of variation (sd / mean, a fraction) that is not
 *                     {@code high_cv}; default 0.05 = 5%
 * @param alpha        significance level of the drift test, in (0, 1); default 0.05
 * @param noise        relative difference (a fraction) a first round must exceed to be
 *                     {@code slow_first_round}; default 0.01 = 1%
 * @param outlierScore modified Z-score above which a round is an {@code outlier}; default 3.5
 *                     (Iglewicz and Hoaglin, as hyperfine uses)
 * @throws StatsException from the constructor when a value is out of range
 */
public record WarningOptions(double maxCv, double alpha, double noise, double outlierScore) {

    public WarningOptions {
        if (!(maxCv >= 0 && Double.isFinite(maxCv))) {
            throw new StatsException("warning options: maxCv must be a fraction of 0 or more (0.05 = 5%), got " + maxCv);
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new StatsException("warning options: alpha must be between 0 and 1 (exclusive), got " + alpha);
        }
        if (!(noise >= 0 && Double.isFinite(noise))) {
            throw new StatsException("warning options: noise must be a fraction of 0 or more (0.01 = 1%), got " + noise);
        }
        if (!(outlierScore > 0 && Double.isFinite(outlierScore))) {
            throw new StatsException("warning options: outlierScore must be positive, got " + outlierScore);
        }
    }

    /** maxCv 5%, alpha 0.05, noise 1%, outlier score 3.5. */
    public static WarningOptions defaults() {
        return new WarningOptions(0.05, 0.05, 0.01, 3.5);
    }
}
