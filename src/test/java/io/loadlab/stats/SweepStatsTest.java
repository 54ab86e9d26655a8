package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The latency sweep's statistics on values computed independently: the knee's log-interpolation
 * (by hand, checked in Python: 200 + 100 · ln 5 / ln 10 = 269.897), the percentiles of merged
 * drawn rounds (nearest rank on the exact values, Python with fractions), and the round
 * bootstrap's interval on draws whose distribution is known exactly.
 */
class SweepStatsTest {

    private static double[] point(double rps, double p99) {
        return new double[] {rps, p99};
    }

    @Test
    void theKneeIsInterpolatedOnTheLogOfP99BetweenTheLastPointUnderAndTheFirstOver() {
        double[] k = Knees.at(List.of(point(100, 1000), point(200, 2000), point(300, 20000)), 10_000);
        // t = ln(10000 / 2000) / ln(20000 / 2000) = ln 5 / ln 10.
        assertEquals(269.897000433602, k[0], 1e-9);
        assertEquals(0, k[1]);
        // Reaching the objective counts as over it.
        assertArrayEquals(new double[] {200, 0}, Knees.at(List.of(point(100, 1000), point(200, 10_000)), 10_000));
    }

    @Test
    void aKneeBeyondTheSweepIsBoundedByItsHighestOrLowestPoint() {
        assertArrayEquals(new double[] {300, 1},
                Knees.at(List.of(point(100, 1000), point(300, 2000), point(250, 3000)), 10_000), "all under: above");
        assertArrayEquals(new double[] {100, -1},
                Knees.at(List.of(point(100, 20_000), point(200, 30_000)), 10_000), "first over: below");
        assertTrue(Double.isNaN(Knees.at(List.of(), 10_000)[0]));
    }

    @Test
    void aServerWhoseThroughputFellWhenOverloadedHasItsKneeAtTheLastPointUnder() {
        // Interpolating towards the lower throughput over the objective would give 430.738 (Python).
        assertArrayEquals(new double[] {450, 0},
                Knees.at(List.of(point(400, 1000), point(450, 4000), point(380, 9000)), 5000));
    }

    @Test
    void anObjectiveThatIsNotPositiveIsRefused() {
        assertThrows(StatsException.class, () -> Knees.find(null, null, 0, 1));
    }

    /** Round 1: latencies 1..1000 µs once each; round 2: 1001..2000 µs. */
    private static SweepSeries.Point twoRounds() {
        Histogram a = new Histogram(3);
        Histogram b = new Histogram(3);
        for (int v = 1; v <= 1000; v++) {
            a.recordValue(v);
            b.recordValue(v + 1000);
        }
        return new SweepSeries.Point("50%", "fraction", List.of(
                new SweepSeries.PointRun("e\u00001", 1, 100, 99, 0, 200, a, Optional.of(a)),
                new SweepSeries.PointRun("e\u00002", 2, 110, 100, 3, 220, b, Optional.empty())));
    }

    @Test
    void aDrawMergesTheHistogramsOfItsRoundsAsOftenAsEachWasDrawn() {
        SweepSeries.Point p = twoRounds();
        List<String> blocks = List.of("e\u00001", "e\u00002");
        double[] both = PointStats.of(p, new int[] {1, 1}, blocks);
        assertEquals(2, both[PointStats.RUNS]);
        assertArrayEquals(new double[] {1000, 1980, 1998}, slice(both, PointStats.LATENCY));
        assertArrayEquals(new double[] {500, 990, 999}, slice(both, PointStats.SERVICE), "round 1's service time only");
        double[] first = PointStats.of(p, new int[] {2, 0}, blocks);
        assertArrayEquals(new double[] {500, 990, 999}, slice(first, PointStats.LATENCY));
        double[] weighted = PointStats.of(p, new int[] {2, 1}, blocks);
        assertArrayEquals(new double[] {750, 1970, 1997}, slice(weighted, PointStats.LATENCY));
        assertEquals((2 * 100 + 110) / 3.0, weighted[PointStats.TARGET], 1e-12);
        assertEquals((2 * 99 + 100) / 3.0, weighted[PointStats.RPS], 1e-12);
        assertEquals(1, weighted[PointStats.MISSED], 1e-12);
        double[] none = PointStats.of(p, new int[] {0, 0}, blocks);
        assertTrue(Double.isNaN(none[PointStats.RUNS]) && Double.isNaN(none[PointStats.LATENCY]));
        double[] noService = PointStats.of(p, new int[] {0, 1}, blocks);
        assertTrue(Double.isNaN(noService[PointStats.SERVICE]), "round 2 recorded no service time");
    }

    private static double[] slice(double[] all, int from) {
        return java.util.Arrays.copyOfRange(all, from, from + PointStats.PERCENTILES.length);
    }

    @Test
    void theRoundBootstrapSpansTheDrawsOfTwoRounds() {
        // Two rounds of values 10 and 20: the draws' means are 10 (1/4), 15 (1/2) and 20 (1/4).
        double[] x = {10, 20};
        double[][] ci = RoundBootstrap.intervals(2, c -> new double[] {(c[0] * x[0] + c[1] * x[1]) / (c[0] + c[1]),
            c[0] == 0 ? Double.NaN : x[0]}, 7);
        assertArrayEquals(new double[] {10, 20}, ci[0]);
        // A NaN component (round 1 not drawn) is left out of its interval only.
        assertArrayEquals(new double[] {10, 10}, ci[1]);
        double[][] one = RoundBootstrap.intervals(1, c -> new double[] {x[0]}, 7);
        assertTrue(Double.isNaN(one[0][0]) && Double.isNaN(one[0][1]), "no interval from one round");
    }

    @Test
    void theBootstrapIsRepeatableForASeed() {
        double[] x = {3, 5, 11};
        java.util.function.Function<int[], double[]> mean = c -> new double[] {(c[0] * x[0] + c[1] * x[1]
            + c[2] * x[2]) / 3};
        assertArrayEquals(RoundBootstrap.intervals(3, mean, 42)[0], RoundBootstrap.intervals(3, mean, 42)[0]);
        double[] ci = RoundBootstrap.intervals(3, mean, 42)[0];
        // The 27 ordered draws' means lie in [3, 11]; all three rounds' mean, 19/3, inside.
        assertTrue(ci[0] >= 3 && ci[0] < 19 / 3.0 && ci[1] > 19 / 3.0 && ci[1] <= 11, java.util.Arrays.toString(ci));
    }
}
