package io.loadlab.stats;

import org.apache.commons.math3.stat.inference.TTest;

/** Two-sided p-values of the t-tests the comparisons use. Stateless. */
final class TTests {

    private TTests() {
    }

    /**
     * Welch's t-test of two independent samples (at least 2 values each); scipy's
     * {@code ttest_ind(a, b, equal_var=False)}. commons-math3 cannot handle two samples without
     * variance, so those are decided here: p = 1 for equal means, 0 otherwise.
     */
    static double welch(double[] a, double[] b) {
        if (Summary.variance(a, Summary.mean(a)) == 0 && Summary.variance(b, Summary.mean(b)) == 0) {
            return Summary.mean(a) == Summary.mean(b) ? 1 : 0;
        }
        return new TTest().tTest(a, b);
    }

    /**
     * The paired t-test on the per-round log ratios: a one-sample t-test of ln(a[i] / b[i])
     * against 0 with n-1 degrees of freedom, scipy's {@code ttest_1samp(np.log(a / b), 0)} or
     * equally {@code ttest_rel(np.log(a), np.log(b))}. When every log ratio is the same, p is 1
     * if it is 0 and 0 otherwise (the t statistic is infinite).
     *
     * @param a values of one group, one per round, all positive
     * @param b the other group's values in the same rounds, in the same order, all positive
     */
    static double pairedLogRatio(double[] a, double[] b) {
        double[] d = logRatios(a, b);
        double mean = Summary.mean(d);
        if (Summary.variance(d, mean) == 0) {
            return mean == 0 ? 1 : 0;
        }
        return new TTest().tTest(0, d);
    }

    /** ln(a[i] / b[i]) for each i. */
    static double[] logRatios(double[] a, double[] b) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = Math.log(a[i] / b[i]);
        }
        return d;
    }
}
