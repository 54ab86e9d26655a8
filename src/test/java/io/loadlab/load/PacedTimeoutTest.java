package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * At a fixed rate the pacer, not a Netty timer, runs the timeout check ({@link Pacer#checkEvery}): a
 * server that never answers still gives timeouts. (That the loop wakes for the check when no request is
 * due is {@code PacerTest}'s, on a made-up clock.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard, not a speed target
class PacedTimeoutTest {

    @Test
    void aServerThatNeverAnswersGivesTimeoutsAtAFixedRate() throws IOException {
        // One connection, requests due at 0, 0.5 and 1 s, each timing out 200 ms after it went out.
        long timeouts = timeoutsAt(2, Duration.ofMillis(1200), Warmup.NONE);
        assertTrue(timeouts >= 2, "the requests sent time out, counted " + timeouts);
    }

    @Test
    void afterAWarmUpTheCheckGoesOnAtTheWindowsPeriod() throws IOException {
        // The warm-up checks every 0.2 ms, the window every tenth of the timeout: the window's own requests
        // still time out (the warm-up's are forgotten with its counts).
        long timeouts = timeoutsAt(2, Duration.ofMillis(1200), new Warmup.Fixed(Duration.ofMillis(600)));
        assertTrue(timeouts >= 2, "the window's requests time out, counted " + timeouts);
    }

    /**
     * Timeouts in the window of a fixed-rate run of {@code window} at {@code rate}/s after {@code warmup}, 200 ms
     * timeout, against a server that never answers.
     */
    private static long timeoutsAt(double rate, Duration window, Warmup warmup) throws IOException {
        try (TestHttpServer server = TestHttpServer.neverAnswering()) {
            LoadResult r = NettyLoad.run(LoadSpec.builder().url(server.url("/")).connectTimeout(Duration.ofSeconds(2))
                    .connections(1).threads(1).model(new LoadModel.FixedRate(rate)).duration(window).warmup(warmup)
                    .requestTimeout(Duration.ofMillis(200)).build());
            assertEquals(0, r.requests(), "nothing is answered");
            return r.errors().timeout();
        }
    }
}
