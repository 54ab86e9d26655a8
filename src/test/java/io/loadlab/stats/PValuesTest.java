package io.loadlab.stats;

import static io.loadlab.stats.GoldenData.assertRel;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The p-values of issue 11 against scipy 1.17.1: Mann–Whitney (exact and asymptotic, with and
 * without ties), Spearman's exact permutation p and its t approximation, and the paired t-test on
 * log ratios. Every expected value is printed by the script in {@link GoldenData}'s javadoc.
 */
class PValuesTest {

    private static final double[] Y30 = {1.05, 1.3579, 1.6658, 1.9737, 2.2816, 2.5895, 2.8974, 3.2053, 3.5132, 3.8211,
        4.129, 4.4369, 4.7448, 5.0527, 5.3606, 5.6684, 5.9763, 6.2842, 6.5921, 6.9, 7.2079, 7.5158, 7.8237, 8.1316,
        8.4395, 8.7474, 9.0553, 9.3632, 9.6711, 9.979};

    @Test
    void mannWhitneyIsExactForSmallSamplesWithoutTiesAsScipy() {
        assertRel(0.1, MannWhitney.p(new double[] {1, 2, 3}, new double[] {4, 5, 6}), 1e-12, "3 v 3");
        assertRel(0.14285714285714285, MannWhitney.p(new double[] {12.1, 15.3, 9.8},
                new double[] {8.2, 7.7, 11.4, 6.9, 10.1}), 1e-12, "3 v 5");
        assertRel(0.07272727272727274, MannWhitney.p(new double[] {101.0, 98.5, 103.2, 99.1},
                new double[] {97.3, 100.2, 95.4, 96.8, 94.1, 102.6, 93.9, 98.0}), 1e-12, "4 v 8");
        assertRel(GoldenData.P_MANN_WHITNEY, MannWhitney.p(GoldenData.A, GoldenData.B), 1e-12, "8 v 8");
        assertRel(0.020131777407319206, MannWhitney.p(GoldenData.A, new double[] {10102.7, 10245.1, 10057.3, 10188.6,
            10311.2, 10139.8, 10220.5, 10084.9, 10300.1, 10150.0, 10420.0, 10010.5}), 1e-12, "8 v 12: one sample of 8");
        assertRel(0.5984006505828137, MannWhitney.p(new double[] {5.5, 7.25, 3.1, 8.8, 6.4}, Y30), 1e-12, "5 v 30");
    }

    @Test
    void mannWhitneyIsSymmetricInItsSamples() {
        double[] x = {12.1, 15.3, 9.8};
        double[] y = {8.2, 7.7, 11.4, 6.9, 10.1};
        assertEquals(MannWhitney.p(x, y), MannWhitney.p(y, x), 1e-15);
    }

    @Test
    void mannWhitneyWithTiesIsTheTieCorrectedNormalApproximationAsScipy() {
        // scipy's 'auto' leaves the exact distribution whenever there is a tie, however small the samples.
        assertRel(0.10386194842613085, MannWhitney.p(new double[] {10, 12, 12, 15}, new double[] {9, 10, 11, 12, 8}),
                1e-12, "4 v 5 with ties");
        assertRel(0.10457099306437284, MannWhitney.p(new double[] {1, 2, 2}, new double[] {2, 3, 4}), 1e-12,
                "3 v 3 with ties");
        assertRel(0.18399674097388774, MannWhitney.p(new double[] {3, 4, 4, 5, 6, 6, 7, 8, 9, 9},
                new double[] {1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 7, 8}), 1e-12, "10 v 12 with ties");
    }

    @Test
    void mannWhitneyAboveEightValuesEachIsAsymptoticWithoutContinuityCorrection() {
        assertRel(0.4624327264504762, MannWhitney.p(new double[] {1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5},
                new double[] {2.1, 3.1, 4.1, 5.1, 6.1, 7.1, 8.1, 9.1, 10.1, 11.1}), 1e-12, "9 v 10");
    }

    @Test
    void mannWhitneyExactAtTheCentreIsClippedToOneAndWorksForTwoValues() {
        assertEquals(1.0, MannWhitney.p(new double[] {1, 4, 5}, new double[] {2, 3, 6}), "U = mn/2: 2 P(U >= U) > 1");
        assertRel(0.03636363636363636, MannWhitney.p(new double[] {1, 2}, new double[] {3, 4, 5, 6, 7, 8, 9, 10, 11}),
                1e-12, "2 v 9");
    }

    @Test
    void mannWhitneyOfIdenticalValuesIsOne() {
        assertEquals(1.0, MannWhitney.p(new double[] {5, 5, 5}, new double[] {5, 5, 5}));
    }

    @Test
    void spearmanPerfectOrderOfFourRoundsIsTwoInTwentyFourNotZero() {
        // Regression (issue 11): the t approximation gave p = 0 for any perfect order, a drift warning at n = 4.
        double[] rounds = {1, 2, 3, 4};
        assertEquals(1.0, Spearman.rho(rounds, new double[] {10, 20, 30, 40}), 1e-12);
        assertRel(0.08333333333333333, Spearman.p(rounds, new double[] {10, 20, 30, 40}), 1e-12, "n = 4");
        assertEquals(0.0, Spearman.tApproximation(1, 4), "the old approximation");
    }

    @Test
    void spearmanExactPermutationPMatchesScipy() {
        assertRel(0.002777777777777778, Spearman.p(new double[] {1, 2, 3, 4, 5, 6},
                new double[] {1000, 995, 990, 985, 980, 975}), 1e-12, "perfect fall over 6 rounds");
        assertRel(0.08333333333333333, Spearman.p(new double[] {1, 2, 3, 4, 5},
                new double[] {37026.2, 45100.0, 47280.9, 46950.3, 48811.7}), 1e-12, "5 rounds");
        assertRel(GoldenData.SPEARMAN_P_EXACT, Spearman.p(new double[] {1, 2, 3, 4, 5, 6, 7, 8},
                GoldenData.SPEARMAN_VALUES), 1e-12, "8 rounds");
        assertRel(0.0020282186948853615, Spearman.p(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9},
                new double[] {2, 1, 4, 3, 6, 5, 8, 9, 7}), 1e-12, "9 rounds: 362,880 pairings");
    }

    @Test
    void spearmanExactPermutationPWithTiesMatchesScipy() {
        assertRel(0.9543135154205278, Spearman.rho(new double[] {1, 2, 3, 4, 5, 6, 7},
                new double[] {3, 3, 4, 6, 6, 6, 9}), 1e-12, "rho with tied values");
        assertRel(0.004761904761904762, Spearman.p(new double[] {1, 2, 3, 4, 5, 6, 7},
                new double[] {3, 3, 4, 6, 6, 6, 9}), 1e-12, "tied values");
        assertRel(0.06666666666666667, Spearman.p(new double[] {1, 1, 2, 3, 3},
                new double[] {1, 2, 2.5, 4, 3}), 1e-12, "tied rounds (two experiments)");
    }

    @Test
    void spearmanAboveNineUsesTheTApproximationAsScipysSpearmanr() {
        double[] rounds = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        double[] values = {5, 3, 6, 8, 7, 9, 12, 10, 11, 15, 13, 14};
        assertRel(0.9440559440559443, Spearman.rho(rounds, values), 1e-12, "rho");
        assertRel(3.927261080965947e-06, Spearman.p(rounds, values), 1e-9, "t approximation, n = 12");
        assertRel(GoldenData.SPEARMAN_P, Spearman.tApproximation(GoldenData.SPEARMAN_RHO, 8), 1e-9, "n = 8");
    }

    @Test
    void pairedTTestOnLogRatiosMatchesScipysTtestRel() {
        assertRel(GoldenData.P_PAIRED, TTests.pairedLogRatio(GoldenData.A, GoldenData.B), 1e-9, "8 rounds");
        assertRel(0.014044172426413681, TTests.pairedLogRatio(new double[] {1000, 1100, 950},
                new double[] {880, 1010, 860}), 1e-9, "3 rounds");
        assertRel(0.004344918336895297, TTests.pairedLogRatio(new double[] {40100, 45200, 39800, 47000, 43900},
                new double[] {41900, 46100, 41500, 47900, 45800}), 1e-9, "5 rounds");
        assertRel(0.3632174676491229, TTests.pairedLogRatio(new double[] {1005, 1001, 999, 1000.5, 999.5, 1000.2},
                new double[] {1000, 1001, 999, 1000.5, 999.5, 1000.2}), 1e-9, "6 rounds");
    }

    @Test
    void welchMatchesScipy() {
        assertRel(0.1960715244164261, TTests.welch(new double[] {1000, 1100, 950}, new double[] {880, 1010, 860}),
                1e-9, "3 rounds");
        assertRel(0.46868054364987016, TTests.welch(new double[] {40100, 45200, 39800, 47000, 43900},
                new double[] {41900, 46100, 41500, 47900, 45800}), 1e-9, "5 rounds");
    }

    @Test
    void pairedTestOfEqualRatiosIsCertain() {
        assertEquals(0.0, TTests.pairedLogRatio(new double[] {120, 240, 360}, new double[] {100, 200, 300}));
        assertEquals(1.0, TTests.pairedLogRatio(new double[] {100, 200, 300}, new double[] {100, 200, 300}));
    }
}
