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
 * matches, since scipy corrects the variance for ties and commons-math3 does not.
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
    static final double P_MANN_WHITNEY = 0.008651541533947532;
    static final double RATIO = 1.0147965398936203;

    /** Spearman's rho of rounds 1..8 against {@link #SPEARMAN_VALUES}, and its two-sided p (t approximation). */
    static final double[] SPEARMAN_VALUES = {5.0, 3.0, 6.0, 8.0, 7.0, 9.0, 12.0, 10.0};
    static final double SPEARMAN_RHO = 0.9285714285714287;
    static final double SPEARMAN_P = 0.0008629681828999769;

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
