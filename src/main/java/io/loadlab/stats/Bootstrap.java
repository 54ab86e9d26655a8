package io.loadlab.stats;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Percentile bootstrap of the ratio of two means, of independent samples or of rounds. */
final class Bootstrap {

    private Bootstrap() {
    }

    /**
     * The 95% percentile-bootstrap interval of mean(a) / mean(b): both samples are resampled with
     * replacement, independently, {@code resamples} times.
     *
     * @return {low, high}; the same for the same arguments, since the random numbers come from
     *         {@code new SplittableRandom(seed)} alone
     */
    static double[] ratioInterval(double[] a, double[] b, int resamples, long seed) {
        return interval(ratios(a, b, false, resamples, new SplittableRandom(seed)));
    }

    /**
     * The 95% percentile-bootstrap interval of mean(a) / mean(b) for paired samples: the rounds
     * are resampled with replacement, each drawn round bringing both its values, so that what a
     * round did to both groups (a busy machine, say) stays in the ratio as it was measured.
     *
     * @param a values of one group, one per round
     * @param b the other group's values of the same rounds, in the same order
     * @return {low, high}; the same for the same arguments
     */
    static double[] pairedRatioInterval(double[] a, double[] b, int resamples, long seed) {
        return interval(ratios(a, b, true, resamples, new SplittableRandom(seed)));
    }

    /**
     * {@code resamples} bootstrap replicates of mean(a) / mean(b), in the order drawn: of the
     * rounds ({@code paired}: a and b hold the values of the same rounds in the same order, and a
     * drawn round brings both), or of each sample on its own.
     */
    static double[] ratios(double[] a, double[] b, boolean paired, int resamples, SplittableRandom random) {
        double[] ratios = new double[resamples];
        for (int i = 0; i < resamples; i++) {
            if (!paired) {
                double ma = resampledMean(a, random);
                ratios[i] = ma / resampledMean(b, random);
                continue;
            }
            double sa = 0;
            double sb = 0;
            for (int k = 0; k < a.length; k++) {
                int r = random.nextInt(a.length);
                sa += a[r];
                sb += b[r];
            }
            ratios[i] = sa / sb;
        }
        return ratios;
    }

    /** The 2.5% and 97.5% quantiles of resampled ratios (sorts them in place). */
    static double[] interval(double[] ratios) {
        Arrays.sort(ratios);
        return new double[] {quantile(ratios, 0.025), quantile(ratios, 0.975)};
    }

    private static double resampledMean(double[] x, SplittableRandom random) {
        double sum = 0;
        for (int i = 0; i < x.length; i++) {
            sum += x[random.nextInt(x.length)];
        }
        return sum / x.length;
    }

    /** Quantile of an ascending array by linear interpolation (numpy's default, Hyndman–Fan type 7). */
    static double quantile(double[] sorted, double p) {
        double h = (sorted.length - 1) * p;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }
}
