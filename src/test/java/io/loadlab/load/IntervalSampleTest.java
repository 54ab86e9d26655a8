package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class IntervalSampleTest {

    /** An engine-range histogram (1 µs to an hour) of {@code n} latencies from 20 µs to about {@code topUs}. */
    private static Histogram engineHistogram(int n, long topUs, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Histogram h = Totals.newHistogram();
        for (int i = 0; i < n; i++) {
            h.recordValue(20 + (long) (Math.pow(random.nextDouble(), 3) * topUs));
        }
        h.setStartTimeStamp(1_000);
        h.setEndTimeStamp(2_000);
        return h;
    }

    private static IntervalSample sample(Histogram latency, Histogram service) {
        return new IntervalSample(1_000, 2_000, latency.getTotalCount(), 0, ErrorCounts.NONE, 0, latency,
                Optional.of(service));
    }

    @Test
    void anIntervalKeepsItsCountsAtTheSizeOfItsValuesNotTheEnginesRange() {
        Histogram latency = engineHistogram(20_000, 2_000, 1);
        Histogram service = engineHistogram(20_000, 1_500, 2);
        IntervalSample s = sample(latency, service);

        assertEquals(latency, s.latency(), "the same counts at every value");
        assertEquals(service, s.serviceTime().orElseThrow());
        for (double p : new double[] {0, 50, 99, 99.9, 100}) {
            assertEquals(latency.getValueAtPercentile(p), s.latency().getValueAtPercentile(p), "p" + p);
        }
        assertEquals(latency.getStartTimeStamp(), s.latency().getStartTimeStamp());
        assertEquals(latency.getEndTimeStamp(), s.latency().getEndTimeStamp());
        long kept = s.latency().getEstimatedFootprintInBytes();
        long engine = latency.getEstimatedFootprintInBytes();
        assertTrue(kept * 5 < engine, "an interval of latencies under 2 ms keeps " + kept + " bytes of the engine's "
                + engine);

        latency.recordValue(7);
        assertEquals(20_000, s.latency().getTotalCount(), "a copy: the engine's histogram stays the engine's");
    }

    @Test
    void intervalsMergeWhateverTheOrderOfTheirSizes() {
        Histogram small = engineHistogram(1_000, 500, 3);
        Histogram large = engineHistogram(1_000, 3_000_000, 4);
        large.recordValue(Worker.HIGHEST_US);
        List<IntervalSample> parts = List.of(sample(small, small), sample(large, large));
        Histogram oracle = Totals.newHistogram();
        oracle.add(small);
        oracle.add(large);

        // As the agents' Merger does: a copy of the first part, then the others added into it.
        Histogram merged = parts.get(0).latency().copy();
        assertDoesNotThrow(() -> merged.add(parts.get(1).latency()));
        assertEquals(oracle, merged);
        assertEquals(Worker.HIGHEST_US, merged.getValueAtPercentile(100), 0.001 * Worker.HIGHEST_US);
    }

    @Test
    void theSecondsSnapshotMergesEveryLoopsIntervalIntoOne() {
        Tally a = new Tally(true);
        Tally b = new Tally(true);
        a.latency.add(engineHistogram(500, 800, 5));
        a.service.add(engineHistogram(500, 600, 6));
        b.latency.add(engineHistogram(300, 90_000, 7));
        b.service.add(engineHistogram(300, 80_000, 8));
        Histogram oracle = Totals.newHistogram();
        oracle.add(a.latency);
        oracle.add(b.latency);

        IntervalSample s = Totals.of(List.of(a, b)).toSample(1_000, 2_000, List.of(a, b));
        assertEquals(oracle, s.latency());
        assertEquals(800, s.serviceTime().orElseThrow().getTotalCount());
        assertEquals(1_000, s.latency().getStartTimeStamp());
        assertTrue(s.latency().getEstimatedFootprintInBytes() < Totals.newHistogram().getEstimatedFootprintInBytes());
    }

    @Test
    void withOneLoopTheSampleKeepsItsOwnCopyOfTheLoopsInterval() {
        Tally only = new Tally(false);
        only.latency.add(engineHistogram(400, 3_000, 9));
        Histogram oracle = only.latency.copy();

        IntervalSample s = Totals.of(List.of(only)).toSample(5_000, 6_000, List.of(only));
        only.recycle();
        assertEquals(oracle, s.latency(), "emptying the tally for the next interval leaves the sample whole");
        assertEquals(5_000, s.latency().getStartTimeStamp());
        assertEquals(6_000, s.latency().getEndTimeStamp());
        assertTrue(s.serviceTime().isEmpty(), "no service times in the closed loop");
    }
}
