package io.loadlab.stats;

/**
 * Thresholds of {@link Warnings#find}.
 *
 * @param maxCv         largest coefficient of variation (sd / mean, a fraction) that is not
 *                      {@code high_cv}; default 0.05 = 5%
 * @param alpha         significance level of the drift test, in (0, 1); default 0.05
 * @param noise         relative difference (a fraction) a first round must exceed to be
 *                      {@code slow_first_round}; default 0.01 = 1%
 * @param outlierScore  modified Z-score above which a round is an {@code outlier}; default 3.5
 *                      (Iglewicz and Hoaglin, as hyperfine uses)
 * @param maxNoiseCpu   CPU-seconds per second that other processes (neither the subject nor the
 *                      load generator) may use on average during a window ({@code noise_cpu_s /
 *                      duration_s}) before the run is {@code noisy_machine}; default 0.10, a tenth
 *                      of a CPU
 * @param maxSteal      CPU-seconds per second the hypervisor may steal ({@code steal_s /
 *                      duration_s}) before the run is {@code noisy_machine}; default 0.02
 * @param rateShortfall fraction by which a fixed-rate run's {@code rps} may fall short of its
 *                      {@code target_rps} before it is {@code rate_not_reached}; default 0.01 = 1%
 * @throws StatsException from the constructor when a value is out of range
 */
public record WarningOptions(double maxCv, double alpha, double noise, double outlierScore, double maxNoiseCpu,
                             double maxSteal, double rateShortfall) {

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
        if (!(maxNoiseCpu >= 0 && Double.isFinite(maxNoiseCpu))) {
            throw new StatsException("warning options: maxNoiseCpu must be CPU-seconds per second, 0 or more (0.1 = a"
                    + " tenth of a CPU), got " + maxNoiseCpu);
        }
        if (!(maxSteal >= 0 && Double.isFinite(maxSteal))) {
            throw new StatsException("warning options: maxSteal must be CPU-seconds per second, 0 or more (0.02), got "
                    + maxSteal);
        }
        if (!(rateShortfall >= 0 && rateShortfall < 1)) {
            throw new StatsException("warning options: rateShortfall must be a fraction in [0, 1) (0.01 = 1%), got "
                    + rateShortfall);
        }
    }

    /** maxCv 5%, alpha 0.05, noise 1%, outlier score 3.5, noise CPU 0.10, steal 0.02, rate shortfall 1%. */
    public static WarningOptions defaults() {
        return new WarningOptions(0.05, 0.05, 0.01, 3.5, 0.10, 0.02, 0.01);
    }
}
