package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code --rounds auto}'s rule ({@link RoundsAuto}) on synthetic experiments whose truth is known:
 * paired rounds with a machine effect shared by both subjects in a round (5%) and noise of each run
 * (3%). A pair is looked at after each round from the third to the tenth, and stops at the first
 * decided look; a false call is a difference called at any look.
 */
class RoundsAutoSimulationTest {

    private static final int PAIRS = 600;
    private static final int MAX_ROUNDS = 10;
    private static final double ALPHA = 0.05;
    /** Few resamples keep the simulation to seconds; the level is held by the test, which needs none. */
    private static final CompareOptions OPTIONS = new CompareOptions(ALPHA, 0.01, 400, 11);

    /** How the pairs ended: calls of a difference, and the rounds the rule took in all. */
    private record Tally(int higher, int lower, int decided, long rounds) {
        double differenceRate() {
            return (higher + lower) / (double) PAIRS;
        }
    }

    @Test
    void aaFalseCallRateStaysAtOrBelowAlphaOverEveryLook() {
        Tally auto = simulate(1.0, MAX_ROUNDS, 2026);
        assertTrue(auto.differenceRate() <= ALPHA, "A/A false calls with rounds auto: " + auto);
    }

    @Test
    void lookingAtEveryRoundWithoutSplittingAlphaCallsMoreOften() {
        // The same pairs with each look at the full alpha (as if at most 3 rounds, one look, were planned).
        Tally split = simulate(1.0, MAX_ROUNDS, 2026);
        Tally naive = simulateNaive(2026);
        assertTrue(naive.differenceRate() > ALPHA, "repeated looks at alpha call more than alpha: " + naive);
        assertTrue(naive.differenceRate() > split.differenceRate(), "naive " + naive + " split " + split);
    }

    @Test
    void aTenPercentSlowdownIsStillFoundAndInTheRightDirection() {
        Tally t = simulate(0.9, MAX_ROUNDS, 7);
        assertEquals(0, t.higher(), "never in the wrong direction: " + t);
        assertTrue(t.lower() >= 0.8 * PAIRS, "found in most pairs: " + t);
        assertTrue(t.rounds() < (long) PAIRS * MAX_ROUNDS, "it stops early: " + t);
    }

    @Test
    void looksAndTheirLevel() {
        assertEquals(8, RoundsAuto.looks(10));
        assertEquals(1, RoundsAuto.looks(3));
        assertEquals(0.05 / 8, RoundsAuto.perLook(OPTIONS, 10).alpha(), 1e-15);
        // Only α is split: the adjustment asked for holds at every look (it was reset to Holm's).
        CompareOptions none = new CompareOptions(0.05, 0.01, 1_000, 3, Adjustment.NONE);
        assertEquals(new CompareOptions(0.05 / 8, 0.01, 1_000, 3, Adjustment.NONE), RoundsAuto.perLook(none, 10));
        StatsException e = org.junit.jupiter.api.Assertions.assertThrows(StatsException.class, () -> RoundsAuto.looks(2));
        assertTrue(e.getMessage().contains("at least 3"), e.getMessage());
    }

    private static Tally simulate(double truth, int maxRounds, long seed) {
        return run(truth, seed, maxRounds);
    }

    /** Each of the 8 looks at alpha itself. */
    private static Tally simulateNaive(long seed) {
        return run(1.0, seed, RoundsAuto.FIRST_LOOK);
    }

    /** {@code levelRounds}: the most rounds the looks' level is split for; the pairs always run up to {@link #MAX_ROUNDS}. */
    private static Tally run(double truth, long seed, int levelRounds) {
        SplittableRandom random = new SplittableRandom(seed);
        int higher = 0;
        int lower = 0;
        int decided = 0;
        long rounds = 0;
        for (int p = 0; p < PAIRS; p++) {
            double[] a = new double[MAX_ROUNDS];
            double[] b = new double[MAX_ROUNDS];
            for (int r = 0; r < MAX_ROUNDS; r++) {
                double machine = 1 + 0.05 * gaussian(random);
                a[r] = 10_000 * truth * machine * (1 + 0.03 * gaussian(random));
                b[r] = 10_000 * machine * (1 + 0.03 * gaussian(random));
            }
            int n = RoundsAuto.FIRST_LOOK;
            for (; n <= MAX_ROUNDS; n++) {
                Verdict v = RoundsAuto.verdict(Arrays.copyOf(a, n), Arrays.copyOf(b, n), levelRounds, OPTIONS);
                if (v.isDecided()) {
                    decided++;
                    higher += v == Verdict.FASTER ? 1 : 0;
                    lower += v == Verdict.SLOWER ? 1 : 0;
                    break;
                }
            }
            rounds += Math.min(n, MAX_ROUNDS);
        }
        return new Tally(higher, lower, decided, rounds);
    }

    private static double gaussian(SplittableRandom random) {
        // Box–Muller: SplittableRandom has no nextGaussian before Java 17's RandomGenerator default.
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
