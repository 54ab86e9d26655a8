package io.loadlab.stats;

/**
 * Settings of {@link Comparison#compare}.
 *
 * @param alpha      significance level of the tests, in (0, 1); default 0.05. A difference needs
 *                   the (adjusted) two-sided p below it; equivalence needs both one-sided p below it
 * @param noise      smallest relative difference worth calling, as a fraction (0.01 = 1%), 0 or
 *                   more: the band 1 &plusmn; noise that a difference must clear and that
 *                   equivalence must stay inside
 * @param bootstrap  resamples for the confidence interval of the ratio, at least 100; default 10000
 * @param seed       seed of the bootstrap's random numbers, so that a comparison is repeatable
 * @param adjustment multiplicity adjustment within each family (one workload and metric); default
 *                   {@link Adjustment#HOLM}
 * @throws StatsException from the constructor when a value is out of range
 */
public record CompareOptions(double alpha, double noise, int bootstrap, long seed, Adjustment adjustment) {

    public CompareOptions {
        if (!(alpha > 0 && alpha < 0.5)) {
            throw new StatsException("compare options: alpha must be between 0 and 0.5 (exclusive), got " + alpha);
        }
        if (!(noise >= 0 && Double.isFinite(noise))) {
            throw new StatsException("compare options: noise must be a fraction of 0 or more (0.01 = 1%), got " + noise);
        }
        if (bootstrap < 100) {
            throw new StatsException("compare options: bootstrap needs at least 100 resamples, got " + bootstrap);
        }
        if (adjustment == null) {
            throw new StatsException("compare options: no adjustment given; use Adjustment.HOLM or Adjustment.NONE");
        }
    }

    /** The options with Holm's adjustment, the default. */
    public CompareOptions(double alpha, double noise, int bootstrap, long seed) {
        this(alpha, noise, bootstrap, seed, Adjustment.HOLM);
    }

    /** alpha 0.05, noise 1%, 10000 bootstrap resamples, seed 1, Holm's adjustment. */
    public static CompareOptions defaults() {
        return new CompareOptions(0.05, 0.01, 10_000, 1, Adjustment.HOLM);
    }

    /** These options with another noise band. */
    public CompareOptions withNoise(double fraction) {
        return new CompareOptions(alpha, fraction, bootstrap, seed, adjustment);
    }

    /** These options with another number of bootstrap resamples. */
    public CompareOptions withBootstrap(int resamples) {
        return new CompareOptions(alpha, noise, resamples, seed, adjustment);
    }

    /** These options with another multiplicity adjustment. */
    public CompareOptions withAdjustment(Adjustment a) {
        return new CompareOptions(alpha, noise, bootstrap, seed, a);
    }
}
