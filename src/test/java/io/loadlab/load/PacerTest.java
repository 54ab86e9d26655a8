package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.ThreadAwareExecutor;
import io.netty.util.concurrent.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pacer's wake-up slack: the loop is asked to wake on the slack's grid, no request goes out before
 * its due time or more than the slack after it, and requests due close together share a wake-up. The
 * first tests drive the pacer on a made-up clock (no timer, no thread); the last ones run the engine.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PacerTest {

    private static final long US = 1_000;
    private static final long HOUR = 3_600_000_000_000L;

    /** The loop's own handler, stood in for: it asks the pacer's context when to wake, as epoll's does. */
    private static final class Asking implements IoHandler {
        /** The wake-up time asked, {@link System#nanoTime()} base. */
        long wake;

        @Override
        public int run(IoHandlerContext context) {
            wake = context.deadlineNanos() + Ticker.systemTicker().initialNanoTime();
            return 0;
        }

        @Override
        public void wakeup() {
        }

        @Override
        public IoRegistration register(IoHandle handle) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isCompatible(Class<? extends IoHandle> handleType) {
            return true;
        }
    }

    /** Netty with nothing scheduled for hours: the pacer's time is the earliest. */
    private static final IoHandlerContext IDLE = new IoHandlerContext() {
        @Override
        public boolean canBlock() {
            return true;
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            return 10 * HOUR;
        }

        @Override
        public long deadlineNanos() {
            return -1;
        }
    };

    private static final ThreadAwareExecutor LOOP = new ThreadAwareExecutor() {
        @Override
        public boolean isExecutorThread(Thread thread) {
            return true;
        }

        @Override
        public void execute(Runnable command) {
            command.run();
        }
    };

    /** What a simulated run of the loop did: each send's wake-up time minus its due time, and the wake-ups. */
    private record Simulated(List<Long> lateness, Set<Long> wakeUps, long wakeTimes, List<Long> sentOrder) {
    }

    /**
     * Schedules {@code n} requests {@code everyNanos} apart, an hour from now (the real clock never
     * reaches them), then plays the loop: asks the pacer when to wake, "wakes" then, sends what is due.
     */
    private static Simulated simulate(long slackNanos, int n, long everyNanos) {
        Asking loopHandler = new Asking();
        IoHandlerFactory delegate = loop -> loopHandler;
        Pacer pacer = (Pacer) new Pacer.Factory(delegate, slackNanos).newHandler(LOOP);
        long base = System.nanoTime() + HOUR + 12_345; // deliberately off any grid
        long[] now = {0};
        List<Long> lateness = new ArrayList<>();
        List<Long> order = new ArrayList<>();
        for (int k = n - 1; k >= 0; k--) { // scheduled out of order: the heap sorts them
            long due = base + k * everyNanos;
            int slot = k;
            pacer.schedule(s -> {
                lateness.add(now[0] - due);
                order.add((long) s);
            }, slot, due);
        }
        Set<Long> wakeUps = new HashSet<>();
        while (order.size() < n) {
            pacer.run(IDLE); // the real clock is an hour short of every due time: nothing is sent here
            long wake = loopHandler.wake;
            if (slackNanos > 0) {
                assertEquals(0, Math.floorMod(wake, slackNanos), "wake-up " + wake + " is off the slack's grid");
            }
            wakeUps.add(wake);
            now[0] = wake;
            pacer.sendDueBefore(wake + 1); // the loop woke then: what is due by then goes out
        }
        return new Simulated(lateness, wakeUps, pacer.wakeTimes(), order);
    }

    @Test
    void withASlackRequestsAreSentInDueOrderNeverEarlyAndAtMostTheSlackLate() {
        long slack = 1000 * US;
        Simulated s = simulate(slack, 200, 50 * US);
        assertEquals(200, s.sentOrder().size());
        for (int k = 0; k < 200; k++) {
            assertEquals(k, s.sentOrder().get(k), "sent out of due order at " + k);
        }
        long min = s.lateness().stream().mapToLong(Long::longValue).min().orElseThrow();
        long max = s.lateness().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertAll(() -> assertTrue(min >= 0, "a request went out " + -min + " ns early"),
                () -> assertTrue(max < slack, "a request waited " + max + " ns, more than the slack " + slack));
    }

    @Test
    void aSlackOfOneMillisecondCoalescesTwentyRequestsPerWakeUpAtFiftyMicrosecondsApart() {
        Simulated none = simulate(0, 200, 50 * US);
        Simulated ms = simulate(1000 * US, 200, 50 * US);
        // 200 requests over 10 ms: one wake-up each without slack, one per grid millisecond (10 or 11) with it.
        assertAll(() -> assertEquals(200, none.wakeUps().size()),
                () -> assertEquals(200, none.wakeTimes()),
                () -> assertTrue(ms.wakeUps().size() <= 11, ms.wakeUps().size() + " wake-ups"),
                () -> assertEquals(ms.wakeUps().size(), ms.wakeTimes()),
                () -> assertTrue(none.lateness().stream().allMatch(l -> l == 0), "without slack, at the due time"));
    }

    /** A handler with several slots, as an HTTP/2 connection's streams: it writes on each send and flushes once. */
    private static final class Streams implements Pacer.Paced {
        final Pacer pacer;
        final List<String> events;
        final String name;
        boolean unflushed;

        Streams(Pacer pacer, List<String> events, String name) {
            this.pacer = pacer;
            this.events = events;
            this.name = name;
        }

        @Override
        public void sendDue(int slot) {
            events.add(name + " send " + slot);
            if (!unflushed) {
                unflushed = true;
                pacer.flushLater(this);
            }
        }

        @Override
        public void flushPaced() {
            unflushed = false;
            events.add(name + " flush");
        }
    }

    @Test
    void theTimeoutCheckRunsFromThePassAtItsPeriodAndTheLoopWakesForIt() {
        Asking loopHandler = new Asking();
        Pacer pacer = (Pacer) new Pacer.Factory(loop -> loopHandler, 0).newHandler(LOOP);
        int[] checks = {0};
        long period = 10_000_000 * US; // 10 s: the real clock never reaches it while the test runs
        long before = System.nanoTime();
        pacer.checkEvery(() -> checks[0]++, period);
        long after = System.nanoTime();
        pacer.run(IDLE);
        long wake = loopHandler.wake;
        assertTrue(wake >= before + period && wake <= after + period,
                "with nothing due the loop wakes for the check, 10 s on: " + (wake - before) + " ns");
        pacer.schedule(p -> { }, 0, before + period / 2);
        pacer.run(IDLE);
        assertEquals(before + period / 2, loopHandler.wake, "a request due before the check wakes the loop first");
        pacer.afterPass(before + period - 1);
        assertEquals(0, checks[0], "not before its period");
        pacer.afterPass(after + period);
        pacer.afterPass(after + period + period / 2);
        assertEquals(1, checks[0], "once at its due pass, then not until a period later");
        pacer.afterPass(after + 2 * period + period / 2);
        assertEquals(2, checks[0]);
    }

    @Test
    void theRequestsOfOnePassAreFlushedOncePerHandlerAfterAllOfThemWereWritten() {
        Pacer pacer = (Pacer) new Pacer.Factory(loop -> new Asking(), 0).newHandler(LOOP);
        List<String> events = new ArrayList<>();
        Streams a = new Streams(pacer, events, "a");
        Streams b = new Streams(pacer, events, "b");
        long due = System.nanoTime() + HOUR;
        pacer.schedule(a, 0, due);
        pacer.schedule(b, 0, due + 1);
        pacer.schedule(a, 1, due + 2);
        pacer.schedule(a, 2, due + 10 * US); // due after this pass
        pacer.sendDueBefore(due + 3);
        assertEquals(List.of("a send 0", "b send 0", "a send 1", "a flush", "b flush"), events);
        events.clear();
        pacer.sendDueBefore(due + 11 * US);
        assertEquals(List.of("a send 2", "a flush"), events, "the next pass flushes again");
    }

    /**
     * The loop passes every {@code passNanos} (as for I/O) over requests due {@code everyNanos} apart:
     * for each request, the time of the pass that sent it, after {@code base}.
     */
    private record Passed(long base, long[] sentAt) {
    }

    private static Passed passEvery(long slackNanos, int n, long everyNanos, long passNanos) {
        Pacer pacer = (Pacer) new Pacer.Factory(loop -> new Asking(), slackNanos).newHandler(LOOP);
        // 5 µs past a grid point (of the slack's; any point without one), an hour ahead of the real clock.
        long ahead = System.nanoTime() + HOUR;
        long base = ahead + (slackNanos == 0 ? 0 : Math.floorMod(-ahead, slackNanos)) + 5 * US;
        long[] now = {0};
        long[] sentAt = new long[n];
        for (int k = 0; k < n; k++) {
            long due = base + k * everyNanos;
            pacer.schedule(s -> sentAt[s] = now[0], k, due);
        }
        for (long t = base; t <= base + n * everyNanos + slackNanos + passNanos; t += passNanos) {
            now[0] = t;
            pacer.afterPass(t);
        }
        for (int k = 0; k < n; k++) {
            sentAt[k] -= base;
        }
        return new Passed(base, sentAt);
    }

    @Test
    void withASlackTheRequestsOfOneGridIntervalGoOutTogetherAtItsEndThoughTheLoopPassesBefore() {
        long slack = 1000 * US;
        // 40 requests 50 µs apart from 5 µs past a grid point, the loop passing every 10 µs for I/O (at 5, 15,
        // ... µs past each grid point).
        Passed p = passEvery(slack, 40, 50 * US, 10 * US);
        long[] sentAt = p.sentAt();
        Set<Long> passes = new HashSet<>();
        for (int k = 0; k < 40; k++) {
            long due = k * 50 * US;
            long sent = sentAt[k];
            passes.add(sent);
            long gridEnd = due + Math.floorMod(-(p.base() + due), slack); // its due time rounded up to the grid
            assertTrue(sent >= due, "request " + k + " went out before its due time");
            // Before its own grid point only when already due at the pass that sent the interval before it
            // (due between that grid point and the pass after it): it rides along, never alone.
            assertTrue(sent >= gridEnd || (k > 0 && sent == sentAt[k - 1]),
                    "request " + k + " went out at " + sent + ", alone before its grid point " + gridEnd);
            assertTrue(sent < gridEnd + 10 * US, "request " + k + " waited past the first pass after its grid point");
        }
        // Times from the first due time, 5 µs past a grid point: the grid points at 995 and 1,995 µs, the
        // passes after them at 1,000 and 2,000 µs. Requests 0 to 19 go at 1,000 µs with request 20, due at
        // that very pass, riding along; the rest at 2,000 µs.
        assertEquals(Set.of(1000 * US, 2000 * US), passes);
        assertEquals(1000 * US, sentAt[20], "already due at the pass that sends its neighbours");
        assertEquals(2000 * US, sentAt[21]);

        long[] exact = passEvery(0, 40, 50 * US, 10 * US).sentAt();
        for (int k = 0; k < 40; k++) {
            long due = k * 50 * US;
            assertTrue(exact[k] >= due && exact[k] < due + 10 * US, "without a slack, at the first pass after its due time");
        }
    }

    @Test
    void aNegativeSlackIsRefused() {
        try {
            new Pacer.Factory(loop -> new Asking(), -1);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("0 or more"), e.getMessage());
            return;
        }
        throw new AssertionError("a negative slack was accepted");
    }

    private static LoadResult fixed(TestHttpServer server, double rate, Duration slack, Duration window) {
        return NettyLoad.run(LoadSpec.builder().url(server.url("/")).connectTimeout(Duration.ofSeconds(2))
                .connections(16).threads(1).model(new LoadModel.FixedRate(rate, slack)).duration(window).build());
    }

    @Test
    void atAFixedRateNoRequestIsSentEarlyAndASlackCutsTheWakeUps() throws Exception {
        try (TestHttpServer server = TestHttpServer.fixed("p")) {
            LoadResult exact = fixed(server, 5000, Duration.ZERO, Duration.ofSeconds(2));
            LoadResult slack = fixed(server, 5000, Duration.ofMillis(5), Duration.ofSeconds(2));
            Pacing e = exact.pacing().orElseThrow();
            Pacing s = slack.pacing().orElseThrow();
            double exactPerS = e.wakeTimes() / exact.durationSeconds();
            double slackPerS = s.wakeTimes() / slack.durationSeconds();
            assertAll(() -> assertEquals(0, e.sentEarly()), () -> assertEquals(0, s.sentEarly()),
                    () -> assertEquals(5_000_000, s.slackNanos()),
                    () -> assertTrue(s.lateness().getTotalCount() >= slack.requests(), "every send is timed"),
                    // A 5 ms grid has 200 points a second; the connections' start adds a few wake-ups.
                    () -> assertTrue(s.wakeTimes() <= 200 * slack.durationSeconds() + 20, slackPerS + " wake-ups/s"),
                    () -> assertTrue(exactPerS > 4 * slackPerS, exactPerS + " wake-ups/s without slack, "
                            + slackPerS + " with 5 ms"));
        }
    }

    @Test
    void requestsTheSlackStillHoldsAtTheWindowsEndAreSentNotMissed() throws Exception {
        try (TestHttpServer server = TestHttpServer.fixed("m")) {
            // A 5 ms slack at 2,000/s holds about 10 requests at any instant, the window's end included
            // (below each connection's 8 ms between requests, so no connection holds two).
            LoadResult r = fixed(server, 2000, Duration.ofMillis(5), Duration.ofSeconds(1));
            assertAll(() -> assertEquals(0, r.missed(), "missed"),
                    () -> assertEquals(0, r.pacing().orElseThrow().sentEarly()),
                    () -> assertTrue(r.requests() > 1000, r.requests() + " answers"));
        }
    }

    @Test
    void http2FixedRateWaitsInThePacerToo() throws Exception {
        try (H2TestServer s = H2TestServer.start()) {
            LoadResult r = NettyLoad.run(LoadSpec.builder().url(s.url("/s/200")).protocol(Protocol.H2C).streams(4)
                    .connections(2).threads(1).model(new LoadModel.FixedRate(400, Duration.ofMillis(1)))
                    .requests(400).build());
            Pacing p = r.pacing().orElseThrow();
            assertAll(() -> assertEquals(400, r.requests()), () -> assertEquals(0, p.sentEarly()),
                    () -> assertEquals(400, p.lateness().getTotalCount()),
                    // One timer per request, at most: 2.5 ms apart, no two share a 1 ms grid point. A
                    // stream's first request can come due before the one already waiting as the two
                    // connections open, and the loop then sets the waiting one's time again: one more each.
                    () -> assertTrue(p.wakeTimes() > 0 && p.wakeTimes() <= 400 + 2 * 4, p.wakeTimes() + " wake-up times"));
        }
    }

    /**
     * A server slower than each connection's interval: the requests fall due while their connection still
     * awaits the previous answer, go out when it comes, and are counted apart from the pacer's own.
     */
    @Test
    void requestsDueWhileTheirConnectionWaitsAreCountedApartFromThePacersLateness() throws Exception {
        try (TestHttpServer slow = TestHttpServer.start((req, out) -> {
            try {
                Thread.sleep(30); // the server under test answers in 30 ms; each connection asks every 20 ms
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            TestHttpServer.ok(out, "s");
            return true;
        }); TestHttpServer fast = TestHttpServer.fixed("f")) {
            LoadResult late = NettyLoad.run(LoadSpec.builder().url(slow.url("/")).connections(2).threads(1)
                    .model(new LoadModel.FixedRate(100)).duration(Duration.ofSeconds(1)).build());
            LoadResult onTime = fixed(fast, 200, Duration.ZERO, Duration.ofSeconds(1));
            Pacing p = late.pacing().orElseThrow();
            Pacing q = onTime.pacing().orElseThrow();
            assertAll(() -> assertEquals(p.lateness().getTotalCount(),
                            p.pacedLateness().getTotalCount() + p.sentWhenFree(), "every send counted once"),
                    () -> assertTrue(p.sentWhenFree() >= p.lateness().getTotalCount() / 2,
                            p.sentWhenFree() + " of " + p.lateness().getTotalCount() + " sent when free"),
                    () -> assertTrue(p.lateness().getValueAtPercentile(50) >= 5_000_000,
                            "a request waits 10 ms for its connection: " + p.lateness().getValueAtPercentile(50) + " ns"),
                    () -> assertEquals(q.lateness().getTotalCount(),
                            q.pacedLateness().getTotalCount() + q.sentWhenFree(), "every send counted once"),
                    () -> assertTrue(q.pacedLateness().getTotalCount() > 0, "the pacer sent the fast server's requests"));
        }
    }
}
