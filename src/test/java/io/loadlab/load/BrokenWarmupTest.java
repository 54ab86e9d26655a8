package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.load.summary.JsonSummary;
import io.loadlab.load.summary.TextSummary;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Warm-ups that cannot be wasted or fooled (issue 31): one against a server that answers nothing,
 * garbage or only errors ends within a second or so and says why, and the window still runs; one
 * against a server that holds a plateau past the minimum while it compiles, and then rises, is not called
 * steady on it.
 * The assertions are on the warm-up's own recorded length and reason, not on the test's clock.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS) // a hang guard, not a speed target
class BrokenWarmupTest {

    private static LoadSpec spec(String url, Warmup warmup) {
        return LoadSpec.builder().url(url).connections(4).warmup(warmup).duration(Duration.ofSeconds(1))
                .requestTimeout(Duration.ofSeconds(1)).connectTimeout(Duration.ofSeconds(2)).build();
    }

    /** The warm-up ended early for want of a good answer, within 2 s, said so, and the window ran its length. */
    private static void cutShort(LoadResult r, String why) {
        assertTrue(r.warmup().cutShort().isPresent(), "the warm-up says why it ended: " + r.warmup());
        assertTrue(r.warmup().cutShort().get().contains(why), r.warmup().cutShort().get());
        assertTrue(r.warmupSeconds() <= 2.0, "ended within 2 s: " + r.warmupSeconds() + " s");
        assertEquals(1.0, r.durationSeconds(), 0.2, "the window still ran");
        assertTrue(TextSummary.format(r).contains("ended early: no good answer"), TextSummary.format(r));
        assertTrue(JsonSummary.format(r).contains("\"warmup_cut_short\""), JsonSummary.format(r));
    }

    @Test
    void aServerThatNeverAnswersEndsTheWarmupAtOnce() throws IOException {
        try (HostileServer server = HostileServer.start(HostileServer.Behaviour.READ_NEVER_ANSWER)) {
            long start = System.nanoTime();
            LoadResult r = NettyLoad.run(spec(server.url(), Warmup.steady(Duration.ofSeconds(10))));
            double total = (System.nanoTime() - start) / 1e9;
            cutShort(r, "no good answer");
            // A generous sanity bound only: the window (1 s) + the warm-up's 2 s + start and stop.
            assertTrue(total < 1 + 2 + 3, "the run took the window and the short warm-up: " + total + " s");
        }
    }

    @Test
    void aServerThatAnswersGarbageEndsTheWarmupAtOnce() throws IOException {
        try (HostileServer server = HostileServer.start(HostileServer.Behaviour.GARBAGE_STATUS)) {
            cutShort(NettyLoad.run(spec(server.url(), Warmup.steady(Duration.ofSeconds(10)))), "no good answer");
        }
    }

    @Test
    void aServerThatAnswersOnlyErrorsEndsEvenAFixedWarmupAtOnce() throws IOException {
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            TestHttpServer.respond(out, 500, "broken");
            return true;
        })) {
            LoadResult r = NettyLoad.run(spec(server.url("/"), new Warmup.Fixed(Duration.ofSeconds(8))));
            cutShort(r, "every one an error");
            assertTrue(r.errors().total() > 0, "its errors are the result");
        }
    }

    /**
     * A stand-in for a JIT server: 5 ms an answer for its first 3 s while its "compiler" uses half a
     * CPU (a plateau, longer than the 1 s minimum and flat enough for the throughput rule after 2 s),
     * then 1 ms with the compiler done. The warm-up must go past the plateau, held by the compiler
     * time its listener reports, as a subject's sampler reads it from {@code /proc}.
     */
    @Test
    void aPlateauWhileTheServerCompilesIsNotCalledSteady() throws IOException {
        long[] first = {0};
        // 4 s: 8 half-second intervals, so that one interval cut short by the shared machine (a 685/s among
        // 1,450-1,530/s, once in CI) still leaves a flat stretch for the throughput rule to call steady.
        double plateauSeconds = 4;
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            LockSupport.parkNanos(sincePlateauStart(first) < plateauSeconds ? 5_000_000 : 1_000_000);
            TestHttpServer.ok(out, "ok");
            return true;
        })) {
            LoadListener compiling = new LoadListener() {
                @Override
                public OptionalDouble serverCompilerSeconds() {
                    return OptionalDouble.of(0.5 * Math.min(plateauSeconds, sincePlateauStart(first)));
                }
            };
            LoadResult r = NettyLoad.run(LoadSpec.builder().url(server.url("/")).connections(8)
                    .warmup(new Warmup.Steady(Duration.ofSeconds(1), Duration.ofSeconds(20)))
                    .duration(Duration.ofSeconds(1)).connectTimeout(Duration.ofSeconds(2)).build(), compiling,
                    OptionalDouble::empty); // this JVM's own JIT, whatever it does, must not be what holds it
            List<Double> rps = r.warmup().intervalRps();
            assertTrue(r.warmupSeconds() > plateauSeconds, "the warm-up outlasted the plateau: " + r.warmupSeconds()
                    + " s, intervals " + rps);
            assertEquals(Optional.empty(), r.warmup().cutShort());
            // The window measured the final level, not the plateau's (8 connections / 5 ms = 1,600/s at most).
            assertTrue(r.rps() > 1.5 * 1600, "the window measured after the rise: " + r.rps() + " requests/s");
            // And it was the compiler that held it: the throughput alone was steady on the plateau.
            boolean flatOnThePlateau = false;
            for (int n = SteadyState.WINDOW; n < plateauSeconds * 1000 / SteadyState.INTERVAL_MS; n++) {
                flatOnThePlateau |= SteadyState.check(rps.subList(0, n).stream()
                        .map(x -> new SteadyState.Interval(Math.round(x * 0.5), 0.5)).toList()).steady();
            }
            assertTrue(flatOnThePlateau, "the plateau was flat enough for the throughput rule: " + rps);
        }
    }

    /** Seconds since the stand-in's first request (0 before it). */
    private static double sincePlateauStart(long[] first) {
        long now = System.nanoTime();
        synchronized (first) {
            first[0] = first[0] == 0 ? now : first[0];
            return (now - first[0]) / 1e9;
        }
    }
}
