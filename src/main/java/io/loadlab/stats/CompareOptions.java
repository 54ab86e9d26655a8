package io.loadlab.stats;

/**
 * Settings of {@link Comparison#compare}.
 *
 * @param alpha     significance level of Welch's t-test, in (0, 1); default 0.05
 * @param noise     smallest relative difference worth calling, as a fraction (0.01 = 1%), 0 or
 *                  more; a significant difference of at most this much is "no clear difference"
 * @param bootstrap resamples for the confidence interval of the ratio, at least 100; default 10000
 * @param seed      seed of the bootstrap's random numbers, so that a comparison is repeatable
 * @throws StatsException from the constructor when a value is out of range
 */
public record CompareOptions(double alpha, double noise, int bootstrap, long seed) {

    public CompareOptions {
        if (!(alpha > 0 && alpha < 1)) {
            throw new StatsException("compare options: alpha must be between 0 and 1 (exclusive), got " + alpha);
        }
        if (!(noise >= 0 && Double.isFinite(noise))) {
            throw new StatsException("compare options: noise must be a fraction of 0 or more (0.01 = 1%), got " + noise);
        }
        if (bootstrap < 100) {
            throw new StatsException("compare options: bootstrap needs at least 100 resamples, got " + bootstrap);
        }
    }

    /** alpha 0.05, noise 1%, 10000 bootstrap resamples, seed 1. */
    public static CompareOptions defaults() {
        return new CompareOptions(0.05, 0.01, 10_000, 1);
    }
}
