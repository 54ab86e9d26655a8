package io.loadlab.stats;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.correlation.PearsonsCorrelation;

/**
 * Spearman's rank correlation and its two-sided p-value. Stateless.
 *
 * <p>For up to {@value #EXACT_MAX} pairs the p-value is exact: every one of the n! pairings of
 * the values is enumerated, and p is twice the smaller of P(rho* &ge; rho) and P(rho* &le; rho),
 * at most 1, which is what scipy's {@code permutation_test(..., permutation_type='pairings',
 * n_resamples=np.inf)} gives. A perfect order of 4 rounds thus has p = 2/24 &asymp; 0.083, not
 * the 0 of the t approximation. Above that, the t approximation t = rho sqrt((n-2)/(1-rho^2))
 * with n-2 degrees of freedom (scipy's {@code spearmanr}) is used; 9! = 362,880 pairings take a
 * few milliseconds, 10! would take ten times as long for a p-value the approximation already
 * gives to two digits.
 */
final class Spearman {

    /** Largest n with an exact p-value. */
    static final int EXACT_MAX = 9;

    private Spearman() {
    }

    /** Rho, NaN when either side has no spread. */
    static double rho(double[] x, double[] y) {
        double[] rx = MannWhitney.ranks(x);
        double[] ry = MannWhitney.ranks(y);
        if (spread(rx) == 0 || spread(ry) == 0) {
            return Double.NaN;
        }
        return new PearsonsCorrelation().correlation(rx, ry);
    }

    /**
     * The two-sided p-value of rho for paired samples of equal length n &ge; 3; NaN when rho is.
     */
    static double p(double[] x, double[] y) {
        double rho = rho(x, y);
        if (Double.isNaN(rho)) {
            return Double.NaN;
        }
        int n = x.length;
        return n <= EXACT_MAX ? exactP(x, y) : tApproximation(rho, n);
    }

    /** Two-sided p of rho by the t approximation, t = rho sqrt((n-2)/(1-rho^2)), n-2 df; 0 for |rho| = 1. */
    static double tApproximation(double rho, int n) {
        if (Math.abs(rho) >= 1) {
            return 0;
        }
        double t = rho * Math.sqrt((n - 2) / (1 - rho * rho));
        return 2 * new TDistribution(null, n - 2).cumulativeProbability(-Math.abs(t));
    }

    /**
     * Exact permutation p. Rho is an increasing function of S = sum of rank(x) * rank(y) over the
     * pairs (the ranks' means and spreads do not change under permutation), and doubled average
     * ranks are whole numbers, so the pairings are compared by an exact integer S. Heap's
     * algorithm visits every permutation by one swap, which changes S by a known amount.
     */
    static double exactP(double[] x, double[] y) {
        int n = x.length;
        long[] a = doubled(MannWhitney.ranks(x));
        long[] b = doubled(MannWhitney.ranks(y));
        long observed = 0;
        for (int i = 0; i < n; i++) {
            observed += a[i] * b[i];
        }
        long s = observed;
        long atLeast = 1;
        long atMost = 1;
        long total = 1;
        int[] c = new int[n];
        for (int i = 1; i < n;) {
            if (c[i] < i) {
                int j = i % 2 == 0 ? 0 : c[i];
                s += (a[i] - a[j]) * (b[j] - b[i]);
                long t = b[i];
                b[i] = b[j];
                b[j] = t;
                total++;
                atLeast += s >= observed ? 1 : 0;
                atMost += s <= observed ? 1 : 0;
                c[i]++;
                i = 1;
            } else {
                c[i] = 0;
                i++;
            }
        }
        return Math.min(1, 2.0 * Math.min(atLeast, atMost) / total);
    }

    private static long[] doubled(double[] ranks) {
        long[] out = new long[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = Math.round(2 * ranks[i]);
        }
        return out;
    }

    private static double spread(double[] v) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double d : v) {
            min = Math.min(min, d);
            max = Math.max(max, d);
        }
        return max - min;
    }
}
