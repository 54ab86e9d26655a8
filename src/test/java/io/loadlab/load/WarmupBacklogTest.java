package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A fixed-rate run whose warm-up ends behind its schedule: the window starts on schedule, without the
 * requests that fell due in the warm-up and were never sent ({@link ClientConnection#skipUnsent}).
 */
class WarmupBacklogTest {

    private static final int RATE = 1000;

    @Test
    void theRequestsTheWarmUpLeftUnsentAreSkippedNotSentInTheWindow() throws IOException {
        // The server holds every answer from its 200th request (about 0.2 s in) for 1 s, past the
        // warm-up's end at 1 s: by then about 800 requests are due and unsent, each of the 10
        // connections waiting for its answer. Sent in the window they would lift its rate to about
        // 1,400/s; skipped, the window's rate is its own schedule's.
        long[] releaseAt = {0};
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            long until;
            synchronized (releaseAt) {
                if (req.number() == 200) {
                    releaseAt[0] = System.nanoTime() + 1_000_000_000L;
                }
                until = releaseAt[0];
            }
            while (System.nanoTime() - until < 0) {
                LockSupport.parkNanos(until - System.nanoTime());
            }
            TestHttpServer.ok(out, "b");
            return true;
        })) {
            LoadResult r = NettyLoad.run(LoadSpec.builder().url(server.url("/")).connectTimeout(Duration.ofSeconds(2))
                    .connections(10).threads(1).model(new LoadModel.FixedRate(RATE))
                    .warmup(Duration.ofSeconds(1)).duration(Duration.ofSeconds(2)).build());
            Pacing p = r.pacing().orElseThrow();
            assertAll(
                    () -> assertTrue(p.warmupUnsent() > 400,
                            "about 800 requests were due and unsent at the window's start; skipped " + p.warmupUnsent()),
                    () -> assertTrue(r.rps() < RATE * 1.1,
                            "the window's rate is its schedule's, not the warm-up's backlog's: " + r.rps() + "/s"),
                    () -> assertTrue(r.rps() > RATE * 0.7, "the window's own requests went out: " + r.rps() + "/s"),
                    () -> assertEquals(0, p.sentEarly(), "no request before its due time"),
                    () -> assertEquals(0, r.errors().total(), "errors"));
        }
    }

    @Test
    void aRunThatKeepsUpSkipsNothing() throws IOException {
        // 100 ms between a connection's requests: only a stall that long (a collection in this JVM,
        // say) right at the window's start would leave one behind.
        try (TestHttpServer server = TestHttpServer.fixed("k")) {
            LoadResult r = NettyLoad.run(LoadSpec.builder().url(server.url("/")).connectTimeout(Duration.ofSeconds(2))
                    .connections(10).threads(1).model(new LoadModel.FixedRate(100))
                    .warmup(Duration.ofMillis(500)).duration(Duration.ofSeconds(1)).build());
            assertEquals(0, r.pacing().orElseThrow().warmupUnsent(), "nothing was behind at the window's start");
        }
    }
}
