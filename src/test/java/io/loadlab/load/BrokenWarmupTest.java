package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.load.summary.JsonSummary;
import io.loadlab.load.summary.TextSummary;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Warm-ups that cannot be wasted or fooled (issue 31): one against a server that answers nothing,
 * garbage or only errors ends within a second or so and says why, and the window still runs; one
 * against a server that holds a plateau past the minimum and then rises is not called steady on it.
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
     * A stand-in for a JIT server: 5 ms an answer for its first 3 s (a plateau, longer than the 1 s
     * minimum, flat enough for the rule after 2 s), then 1 ms. The warm-up must go past the plateau.
     */
    @Test
    void aPlateauLongerThanTheMinimumIsNotCalledSteady() throws IOException {
        long[] first = {0};
        double plateauSeconds = 3;
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            long now = System.nanoTime();
            synchronized (first) {
                first[0] = first[0] == 0 ? now : first[0];
            }
            boolean plateau = (now - first[0]) / 1e9 < plateauSeconds;
            LockSupport.parkNanos(plateau ? 5_000_000 : 1_000_000);
            TestHttpServer.ok(out, "ok");
            return true;
        })) {
            LoadResult r = NettyLoad.run(LoadSpec.builder().url(server.url("/")).connections(8)
                    .warmup(new Warmup.Steady(Duration.ofSeconds(1), Duration.ofSeconds(20)))
                    .duration(Duration.ofSeconds(1)).connectTimeout(Duration.ofSeconds(2)).build());
            assertTrue(r.warmupSeconds() > plateauSeconds, "the warm-up outlasted the plateau: " + r.warmupSeconds()
                    + " s, intervals " + r.warmup().intervalRps());
            assertEquals(Optional.empty(), r.warmup().cutShort());
            // The window measured the final level, not the plateau's (8 connections / 5 ms = 1,600/s at most).
            assertTrue(r.rps() > 1.5 * 1600, "the window measured after the rise: " + r.rps() + " requests/s");
        }
    }
}
