package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ratio of ratios and its rule on fixed data. The expected p-values were computed apart from
 * this code with SciPy 1.x: {@code scipy.stats.ttest_ind(log(xa/ya), log(xb/yb), equal_var=False)}
 * for paired rounds, and for unpaired ones the delta method's variances with
 * {@code 2 * scipy.stats.t.cdf(-|t|, df)} at Welch–Satterthwaite's df.
 */
class RatioOfRatiosTest {

    private static final CompareOptions OPTIONS = CompareOptions.defaults();

    /** Values of rounds 1, 2, ... of experiment {@code exp}. */
    private static List<RunData.Obs> obs(String exp, double... values) {
        List<RunData.Obs> out = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            out.add(new RunData.Obs(i, exp + ":" + (i + 1), i + 1, values[i]));
        }
        return out;
    }

    @Test
    void pairedRoundsGiveWelchsTestOfThePerRoundLogRatios() {
        RatioOfRatios.Judgement j = RatioOfRatios.judge(obs("A", 1100, 1210, 1080, 1150), obs("A", 1000, 1050, 990, 1020),
                obs("B", 900, 950, 920, 880), obs("B", 1000, 1040, 1010, 980), OPTIONS);
        assertEquals(1.1182266009852218, j.ratioA(), 1e-12);
        assertEquals(0.9057071960297767, j.ratioB(), 1e-12);
        assertEquals(1.2346447128686147, j.value(), 1e-12);
        assertEquals(0.0001498204833680954, j.p(), 1e-9);
        assertEquals(Design.PAIRED, j.designA());
        assertEquals(Design.PAIRED, j.designB());
        assertEquals(4, j.nA());
        assertEquals(Agreement.DISAGREE, j.outcome());
        assertTrue(j.ciLow() > 1.05 && j.ciLow() <= j.value() && j.value() <= j.ciHigh(), j.toString());
    }

    @Test
    void unpairedRoundsUseTheDeltaMethodAndWelchSatterthwaite() {
        // Different counts of rounds: no paired design in either experiment.
        RatioOfRatios.Judgement j = RatioOfRatios.judge(obs("A", 1100, 1210, 1080), obs("A", 1000, 1050, 990, 1020),
                obs("B", 900, 950, 920, 880), obs("B", 1000, 1040, 1010), OPTIONS);
        assertEquals(1.2403895899408417, j.value(), 1e-12);
        assertEquals(0.007485828680767861, j.p(), 1e-9);
        assertEquals(Design.WELCH, j.designA());
        assertEquals(3, j.nA());
        assertEquals(3, j.nB());
        assertEquals(Agreement.DISAGREE, j.outcome());
    }

    @Test
    void aConstantRatioPerRoundGivesACollapsedIntervalAtThatRatio() {
        // Every round of A has X = 2 Y, every round of B has X = Y: each resample gives exactly 2.
        RatioOfRatios.Judgement j = RatioOfRatios.judge(obs("A", 200, 220, 240), obs("A", 100, 110, 120),
                obs("B", 500, 510, 490), obs("B", 500, 510, 490), OPTIONS);
        assertEquals(2.0, j.value(), 1e-12);
        assertEquals(2.0, j.ciLow(), 1e-12);
        assertEquals(2.0, j.ciHigh(), 1e-12);
        assertEquals(0.0, j.p(), "no variance and different estimates: t is infinite");
        assertEquals(Agreement.DISAGREE, j.outcome());
    }

    @Test
    void theSameDataInBothExperimentsIsWithinNoise() {
        double[] x = {1100, 1210, 1080, 1150};
        double[] y = {1000, 1050, 990, 1020};
        RatioOfRatios.Judgement j = RatioOfRatios.judge(obs("A", x), obs("A", y), obs("B", x), obs("B", y), OPTIONS);
        assertEquals(1.0, j.value(), 1e-12);
        assertEquals(1.0, j.p(), 1e-12);
        assertEquals(Agreement.WITHIN_NOISE, j.outcome());
        assertTrue(j.note().startsWith("not significant"), j.note());
        assertEquals(java.util.Optional.of(true), j.outcome().agree());
    }

    @Test
    void aSignificantDifferenceInsideTheNoiseBandIsWithinNoise() {
        // About 0.5% apart with almost no spread: significant, but inside 1 +- the default noise band.
        RatioOfRatios.Judgement j = RatioOfRatios.judge(obs("A", 1005, 1006, 1005.5), obs("A", 1000, 1000.5, 1000.2),
                obs("B", 1000, 1000.4, 1000.1), obs("B", 1000, 1000.5, 1000.2), OPTIONS);
        assertTrue(j.p() < 0.05, "p " + j.p());
        assertEquals(Agreement.WITHIN_NOISE, j.outcome());
        assertTrue(j.note().contains("not outside the noise band"), j.note());
    }

    @Test
    void fewerThanThreeRoundsSaysTooFewRoundsNotAgreement() {
        RatioOfRatios.Judgement two = RatioOfRatios.judge(obs("A", 200, 220), obs("A", 100, 110), obs("B", 100, 110),
                obs("B", 100, 110), OPTIONS);
        assertEquals(Agreement.TOO_FEW_ROUNDS, two.outcome());
        assertEquals(2.0, two.value(), 1e-12);
        assertTrue(two.note().startsWith("too few rounds: 2 in A, 2 in B"), two.note());
        assertEquals(java.util.Optional.empty(), two.outcome().agree());
        RatioOfRatios.Judgement one = RatioOfRatios.judge(obs("A", 200), obs("A", 100), obs("B", 100), obs("B", 100),
                OPTIONS);
        assertTrue(Double.isNaN(one.ciLow()) && Double.isNaN(one.p()), one.toString());
    }

    @Test
    void welchTestOfTwoEstimatesMatchesScipy() {
        // 2 * t.cdf(-|0.08 / sqrt(0.0015)|, 0.0015^2 / (0.001^2 / 3 + 0.0005^2 / 5))
        assertEquals(0.08544101374160831, RatioOfRatios.test(0.1, 0.001, 3, 0.02, 0.0005, 5), 1e-10);
        assertEquals(1.0, RatioOfRatios.test(0.3, 0, 2, 0.3, 0, 2));
        assertEquals(0.0, RatioOfRatios.test(0.3, 0, 2, 0.2, 0, 2));
    }
}
