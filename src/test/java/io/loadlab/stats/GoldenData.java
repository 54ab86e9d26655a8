package io.loadlab.stats;

/**
 * Fixed samples and their statistics computed independently with scipy 1.10.1 / numpy 1.24.2
 * (Debian's python3-scipy, run with /usr/bin/python3):
 *
 * <pre>
 * import numpy as np
 * from scipy import stats
 * A = np.array([10234.5, 10412.8, 10198.3, 10377.1, 10290.6, 10455.2, 10321.9, 10263.4])
 * B = np.array([10102.7, 10245.1, 10057.3, 10188.6, 10311.2, 10139.8, 10220.5, 10084.9])
 * for x in (A, B):
 *     m, s = x.mean(), x.std(ddof=1)
 *     lo, hi = stats.t.interval(0.95, len(x) - 1, loc=m, scale=stats.sem(x))
 *     print(repr(m), repr(s), repr(s / m), repr(np.median(x)), repr(lo), repr(hi))
 * print(repr(stats.ttest_ind(A, B, equal_var=False).pvalue))                       # Welch
 * print(repr(stats.mannwhitneyu(A, B, alternative='two-sided', method='asymptotic',
 *                               use_continuity=False).pvalue))                     # Mann-Whitney
 * print(repr(A.mean() / B.mean()))
 * r = stats.spearmanr(np.arange(1, 9), [5.0, 3.0, 6.0, 8.0, 7.0, 9.0, 12.0, 10.0])
 * print(repr(r.correlation), repr(r.pvalue))
 * </pre>
 *
 * <p>Which Mann–Whitney variant matches commons-math3 3.6.1: its {@code MannWhitneyUTest} uses the
 * normal approximation with neither continuity correction nor tie correction. On these samples
 * (no ties) {@code method='asymptotic', use_continuity=False} gives 0.008651541533947532, equal to
 * commons-math3's 0.008651541533947543; {@code use_continuity=True} gives 0.010081693883859663
 * and {@code method='exact'} 0.006993006993006993, which do not match. With ties no scipy variant
 * matches, since scipy corrects the variance for ties and commons-math3 does not. (Issue 11 replaced
 * commons-math3's test by {@code MannWhitney}, which matches scipy's {@code method='auto'} with
 * {@code use_continuity=False}: exact here, so {@link #P_MANN_WHITNEY} is now the exact value.)
 *
 * <p>The values of issue 11 (exact Mann–Whitney and Spearman p-values, the paired t-test on log
 * ratios) were computed with scipy 1.17.1 / numpy 2.4.6 from PyPI (the newest scipy for this
 * machine's Python 3.11), in a venv outside the repository, by this script:
 *
 * <pre>
 * import itertools, math
 * import numpy as np
 * import scipy
 * from scipy import stats
 * print("scipy", scipy.__version__, "numpy", np.__version__)
 * A = np.array([10234.5, 10412.8, 10198.3, 10377.1, 10290.6, 10455.2, 10321.9, 10263.4])
 * B = np.array([10102.7, 10245.1, 10057.3, 10188.6, 10311.2, 10139.8, 10220.5, 10084.9])
 * print("MW auto A,B", repr(stats.mannwhitneyu(A, B, use_continuity=False).pvalue))
 * print("MW exact A,B", repr(stats.mannwhitneyu(A, B, method='exact').pvalue))
 * print("paired 1samp", repr(stats.ttest_1samp(np.log(A / B), 0).pvalue))
 * print("paired rel", repr(stats.ttest_rel(np.log(A), np.log(B)).pvalue))
 * print("welch", repr(stats.ttest_ind(A, B, equal_var=False).pvalue))
 *
 * MW = {
 *   "exact 3v3": ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]),
 *   "exact 3v5": ([12.1, 15.3, 9.8], [8.2, 7.7, 11.4, 6.9, 10.1]),
 *   "exact 4v8": ([101.0, 98.5, 103.2, 99.1], [97.3, 100.2, 95.4, 96.8, 94.1, 102.6, 93.9, 98.0]),
 *   "exact 8v12": (list(A), [10102.7, 10245.1, 10057.3, 10188.6, 10311.2, 10139.8, 10220.5, 10084.9, 10300.1, 10150.0, 10420.0, 10010.5]),
 *   "exact 5v30": ([5.5, 7.25, 3.1, 8.8, 6.4], [float(x) for x in np.round(np.linspace(1.05, 9.95, 30) + 0.001 * np.arange(30), 4)]),
 *   "ties 4v5": ([10.0, 12.0, 12.0, 15.0], [9.0, 10.0, 11.0, 12.0, 8.0]),
 *   "ties 3v3": ([1.0, 2.0, 2.0], [2.0, 3.0, 4.0]),
 *   "ties 10v12": ([3.0, 4.0, 4.0, 5.0, 6.0, 6.0, 7.0, 8.0, 9.0, 9.0], [1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 5.0, 6.0, 6.0, 7.0, 7.0, 8.0]),
 *   "asymptotic 9v10": ([1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5], [2.1, 3.1, 4.1, 5.1, 6.1, 7.1, 8.1, 9.1, 10.1, 11.1]),
 *   "exact centre 3v3": ([1.0, 4.0, 5.0], [2.0, 3.0, 6.0]),
 *   "exact 2v9": ([1.0, 2.0], [3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]),
 * }
 * for k, (x, y) in MW.items():
 *     r = stats.mannwhitneyu(x, y, use_continuity=False)
 *     print("MW", k, repr(r.pvalue), "x=", x, "y=", y)
 *
 * def spear_exact(x, y):
 *     def stat(yy):
 *         return stats.spearmanr(x, yy).statistic
 *     res = stats.permutation_test((y,), stat, permutation_type='pairings', n_resamples=np.inf)
 *     return res.pvalue
 * SP = {
 *   "perfect 4": ([1, 2, 3, 4], [10.0, 20.0, 30.0, 40.0]),
 *   "perfect 6 falling": ([1, 2, 3, 4, 5, 6], [1000, 995, 990, 985, 980, 975]),
 *   "5 rounds": ([1, 2, 3, 4, 5], [37026.2, 45100.0, 47280.9, 46950.3, 48811.7]),
 *   "8 rounds": ([1, 2, 3, 4, 5, 6, 7, 8], [5.0, 3.0, 6.0, 8.0, 7.0, 9.0, 12.0, 10.0]),
 *   "7 ties": ([1, 2, 3, 4, 5, 6, 7], [3.0, 3.0, 4.0, 6.0, 6.0, 6.0, 9.0]),
 *   "9 rounds": ([1, 2, 3, 4, 5, 6, 7, 8, 9], [2.0, 1.0, 4.0, 3.0, 6.0, 5.0, 8.0, 9.0, 7.0]),
 *   "5 ties in rounds": ([1, 1, 2, 3, 3], [1.0, 2.0, 2.5, 4.0, 3.0]),
 * }
 * for k, (x, y) in SP.items():
 *     r = stats.spearmanr(x, y)
 *     print("SP", k, "rho", repr(r.statistic), "exact", repr(spear_exact(x, y)), "t", repr(r.pvalue))
 * x = list(range(1, 13)); y = [5, 3, 6, 8, 7, 9, 12, 10, 11, 15, 13, 14]
 * r = stats.spearmanr(x, y); print("SP t 12", repr(r.statistic), repr(r.pvalue))
 *
 * PT = {
 *   "3 rounds": ([1000.0, 1100.0, 950.0], [880.0, 1010.0, 860.0]),
 *   "5 rounds": ([40100.0, 45200.0, 39800.0, 47000.0, 43900.0], [41900.0, 46100.0, 41500.0, 47900.0, 45800.0]),
 *   "6 rounds": ([1005.0, 1001.0, 999.0, 1000.5, 999.5, 1000.2], [1000.0, 1001.0, 999.0, 1000.5, 999.5, 1000.2]),
 * }
 * for k, (a, b) in PT.items():
 *     a = np.array(a); b = np.array(b)
 *     print("PT", k, repr(stats.ttest_1samp(np.log(a / b), 0).pvalue), repr(stats.ttest_rel(np.log(a), np.log(b)).pvalue),
 *           "welch", repr(stats.ttest_ind(a, b, equal_var=False).pvalue))
 * </pre>
 */
final class GoldenData {

    static final double[] A = {10234.5, 10412.8, 10198.3, 10377.1, 10290.6, 10455.2, 10321.9, 10263.4};
    static final double[] B = {10102.7, 10245.1, 10057.3, 10188.6, 10311.2, 10139.8, 10220.5, 10084.9};

    static final double A_MEAN = 10319.225;
    static final double A_SD = 89.71315797744363;
    static final double A_CV = 0.008693788339477395;
    static final double A_MEDIAN = 10306.25;
    static final double A_CI_LOW = 10244.222923003861;
    static final double A_CI_HIGH = 10394.22707699614;

    static final double B_MEAN = 10168.7625;
    static final double B_SD = 87.70570819507738;
    static final double B_CV = 0.008625012944798088;
    static final double B_MEDIAN = 10164.2;
    static final double B_CI_LOW = 10095.438693020627;
    static final double B_CI_HIGH = 10242.086306979374;

    static final double P_WELCH = 0.004384563351366888;
    /** Exact (both samples have 8 values, no ties): scipy 1.17.1 {@code mannwhitneyu(A, B, use_continuity=False)}. */
    static final double P_MANN_WHITNEY = 0.006993006993006993;
    /** The asymptotic value commons-math3 gave before issue 11, and scipy's {@code method='asymptotic'}. */
    static final double P_MANN_WHITNEY_ASYMPTOTIC = 0.008651541533947532;
    /** A and B paired by round: {@code ttest_1samp(np.log(A / B), 0)}. */
    static final double P_PAIRED = 0.002632773106310562;
    static final double RATIO = 1.0147965398936203;

    /** Spearman's rho of rounds 1..8 against {@link #SPEARMAN_VALUES}, and its two-sided p (t approximation). */
    static final double[] SPEARMAN_VALUES = {5.0, 3.0, 6.0, 8.0, 7.0, 9.0, 12.0, 10.0};
    static final double SPEARMAN_RHO = 0.9285714285714287;
    static final double SPEARMAN_P = 0.0008629681828999769;
    /** The exact permutation p of the same: {@code permutation_test(..., permutation_type='pairings')}. */
    static final double SPEARMAN_P_EXACT = 0.002232142857142857;

    private GoldenData() {
    }

    /** Asserts |actual - expected| <= rel * |expected|. */
    static void assertRel(double expected, double actual, double rel, String what) {
        double tolerance = rel * Math.abs(expected);
        if (!(Math.abs(actual - expected) <= tolerance)) {
            throw new AssertionError(what + ": expected " + expected + " within relative " + rel + ", got " + actual);
        }
    }
}
