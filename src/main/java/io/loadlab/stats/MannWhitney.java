package io.loadlab.stats;

import java.util.Arrays;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * Two-sided p-value of the Mann–Whitney U test, as scipy's {@code mannwhitneyu(x, y,
 * use_continuity=False)} computes it with its default {@code method='auto'}: the exact
 * distribution of U when one sample has at most {@value #EXACT_MAX} values and no value occurs
 * twice in the pooled samples, the normal approximation otherwise, with the variance corrected
 * for ties and without continuity correction. Without ties the approximation equals
 * commons-math3's {@code MannWhitneyUTest} (which ignores ties). Stateless.
 */
final class MannWhitney {

    /** Largest size of the smaller sample for which the exact distribution is used (scipy's rule). */
    static final int EXACT_MAX = 8;

    private static final NormalDistribution NORMAL = new NormalDistribution(null, 0, 1);

    private MannWhitney() {
    }

    /**
     * The two-sided p-value, in [0, 1]; 1 when every value is the same (nothing to rank).
     *
     * @param x one sample, at least one value
     * @param y the other, at least one value
     */
    static double p(double[] x, double[] y) {
        int n1 = x.length;
        int n2 = y.length;
        double[] pooled = new double[n1 + n2];
        System.arraycopy(x, 0, pooled, 0, n1);
        System.arraycopy(y, 0, pooled, n1, n2);
        double[] ranks = ranks(pooled);
        double r1 = 0;
        for (int i = 0; i < n1; i++) {
            r1 += ranks[i];
        }
        double u1 = r1 - n1 * (n1 + 1) / 2.0;
        double u = Math.max(u1, (double) n1 * n2 - u1);
        double tieTerm = tieTerm(pooled);
        if (Math.min(n1, n2) <= EXACT_MAX && tieTerm == 0) {
            return Math.min(1, 2 * exactSurvival((long) u, Math.min(n1, n2), Math.max(n1, n2)));
        }
        int n = n1 + n2;
        double variance = n1 * (double) n2 / 12 * ((n + 1) - tieTerm / ((double) n * (n - 1)));
        if (!(variance > 0)) {
            return 1;
        }
        double z = (u - n1 * (double) n2 / 2) / Math.sqrt(variance);
        return Math.min(1, 2 * NORMAL.cumulativeProbability(-z));
    }

    /** Ranks 1..n with ties given their average rank (scipy's rankdata 'average'). */
    static double[] ranks(double[] values) {
        Integer[] order = new Integer[values.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
        double[] ranks = new double[values.length];
        for (int i = 0; i < order.length;) {
            int j = i;
            while (j + 1 < order.length && values[order[j + 1]] == values[order[i]]) {
                j++;
            }
            double average = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                ranks[order[k]] = average;
            }
            i = j + 1;
        }
        return ranks;
    }

    /** Sum of t³ - t over the groups of t equal values; 0 when all values differ. */
    private static double tieTerm(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (int i = 0; i < sorted.length;) {
            int j = i;
            while (j + 1 < sorted.length && sorted[j + 1] == sorted[i]) {
                j++;
            }
            double t = j - i + 1;
            sum += t * t * t - t;
            i = j + 1;
        }
        return sum;
    }

    /**
     * P(U &ge; u) under the null hypothesis for samples of m and n values without ties: the
     * coefficients of the Gaussian binomial [m+n choose m] in q count the arrangements by U.
     */
    static double exactSurvival(long u, int m, int n) {
        double[] counts = arrangementsByU(m, n);
        double total = 0;
        double above = 0;
        for (int v = 0; v < counts.length; v++) {
            total += counts[v];
            if (v >= u) {
                above += counts[v];
            }
        }
        return above / total;
    }

    /**
     * Number of orderings of m x's and n y's for each U = 0..mn (U counts the (x, y) pairs with
     * the y first). Built with [N, k] = [N-1, k] + q^(N-k) [N-1, k-1], which only adds, so the
     * counts are exact integers up to 2^53 and otherwise correct to double precision.
     */
    private static double[] arrangementsByU(int m, int n) {
        double[][] c = new double[m + 1][];
        c[0] = new double[] {1};
        for (int k = 1; k <= m; k++) {
            c[k] = new double[] {0};
        }
        for (int total = 1; total <= m + n; total++) {
            for (int k = Math.min(m, total); k >= 1; k--) {
                int shift = total - k;
                double[] prev = c[k - 1];
                double[] next = Arrays.copyOf(c[k], Math.max(c[k].length, prev.length + shift));
                for (int v = 0; v < prev.length; v++) {
                    next[v + shift] += prev[v];
                }
                c[k] = next;
            }
        }
        return Arrays.copyOf(c[m], m * n + 1);
    }
}
