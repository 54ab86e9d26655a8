package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** When a steady warm-up ends: at a fixed rate, not while its intervals read above the target. */
class WarmupEndTest {

    private static final WarmupEnd.CompilerTime UNKNOWN =
            new WarmupEnd.CompilerTime(OptionalDouble.empty(), OptionalDouble.empty());
    /** Half-seconds of a warm-up catching up after a slow start, flat within 3%, 7.6% above 200,000/s. */
    private static final long[] DRAINING = {214_000, 207_000, 218_000, 225_000, 209_000, 221_000, 212_000, 219_000};
    private static final long[] ON_TARGET = {200_400, 199_700, 200_100, 199_900};

    private final double[] elapsed = {0};

    private boolean add(WarmupEnd end, long rate) {
        elapsed[0] += SteadyState.INTERVAL_MS / 1e3;
        return end.add(new SteadyState.Interval(rate / 2, 0.5), rate / 2, elapsed[0], UNKNOWN);
    }

    /** How many intervals of {@code rates} the warm-up took to end; -1 if it did not. */
    private int endsAfter(WarmupEnd end, long[] rates) {
        for (int i = 0; i < rates.length; i++) {
            if (add(end, rates[i])) {
                return i + 1;
            }
        }
        return -1;
    }

    @Test
    void inTheClosedLoopAFlatSeriesIsSteadyWhateverItsLevel() {
        WarmupEnd end = new WarmupEnd(Warmup.steady(Duration.ofSeconds(10)), UNKNOWN, Double.NaN);
        assertEquals(8, endsAfter(end, DRAINING));
        assertEquals(Boolean.TRUE, end.result(elapsed[0]).steady().orElseThrow());
    }

    @Test
    void atAFixedRateTheSameSeriesAboveTheTargetIsStillCatchingUp() {
        WarmupEnd end = new WarmupEnd(Warmup.steady(Duration.ofSeconds(10)), UNKNOWN, 200_000);
        assertEquals(-1, endsAfter(end, DRAINING), "a backlog draining is not steady");
        assertEquals(Boolean.FALSE, end.result(elapsed[0]).steady().orElseThrow());
        // On schedule again: steady once the rule's intervals are all at the target.
        assertEquals(4, endsAfter(end, ON_TARGET));
        assertEquals(Boolean.TRUE, end.result(elapsed[0]).steady().orElseThrow());
    }

    @Test
    void atAFixedRateBelowTheTargetIsTheLimitTheWindowMeasures() {
        WarmupEnd end = new WarmupEnd(Warmup.steady(Duration.ofSeconds(10)), UNKNOWN, 200_000);
        assertEquals(4, endsAfter(end, new long[] {150_200, 149_800, 150_100, 149_900}));
        assertTrue(end.result(elapsed[0]).steady().orElseThrow());
    }

    @Test
    void aFixedWarmupReportsTheBacklogAsNotSteady() {
        WarmupEnd end = new WarmupEnd(new Warmup.Fixed(Duration.ofSeconds(4)), UNKNOWN, 200_000);
        assertEquals(8, endsAfter(end, DRAINING), "a fixed warm-up ends at its length");
        assertFalse(end.result(elapsed[0]).steady().orElseThrow());
    }
}
