package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The engine against real sockets on 127.0.0.1, servers started by the tests. */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard, not a speed target
class NettyLoadTest {

    private static LoadSpec.Builder spec(TestHttpServer server, String path) {
        return LoadSpec.builder().url(server.url(path)).connectTimeout(Duration.ofSeconds(2));
    }

    @Test
    void fixedCountRunMatchesTheServersOwnCountExactly() throws IOException {
        try (TestHttpServer server = TestHttpServer.fixed("Hello, World!")) {
            LoadResult r = NettyLoad.run(spec(server, "/plaintext").connections(8).threads(2)
                    .requests(5_000).build());
            assertEquals(5_000, server.requests());
            assertEquals(5_000, r.requests());
            assertEquals(5_000L, r.statusCodes().get(200));
            assertEquals(0, r.errors().total());
            assertEquals(5_000, r.latency().getTotalCount());
            assertFalse(r.stoppedEarly());
        }
    }

    @Test
    void intervalHistogramsAddUpToTheWholeRun() throws IOException {
        // Oracle: every recorded latency lands in exactly one interval, and each interval's
        // histogram count equals its request counter (both are taken on the event loop at once).
        try (TestHttpServer server = TestHttpServer.fixed("ok")) {
            LoadResult r = NettyLoad.run(spec(server, "/").connections(4).threads(2)
                    .duration(Duration.ofMillis(2500)).build());
            Histogram sum = new Histogram(1, Worker.HIGHEST_US, Worker.DIGITS);
            long requests = 0;
            for (IntervalSample s : r.intervals()) {
                assertEquals(s.requests() + s.missed(), s.latency().getTotalCount(), "interval " + s.startEpochMs());
                sum.add(s.latency());
                requests += s.requests();
            }
            assertTrue(r.intervals().size() >= 3, "2.5 s gives three intervals, got " + r.intervals().size());
            assertEquals(r.requests(), requests);
            assertEquals(r.latency(), sum);
            assertEquals(server.requests() >= r.requests(), true);
        }
    }

    @Test
    void chunkedAndContentLengthBodiesAreCountedNotKept() throws IOException {
        String chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "400\r\n" + "x".repeat(1024) + "\r\n10;ext=1\r\n" + "y".repeat(16) + "\r\n0\r\nTrailer: t\r\n\r\n";
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            if (req.number() % 2 == 0) {
                out.write(chunked.getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } else {
                TestHttpServer.ok(out, "z".repeat(2000));
            }
            return true;
        })) {
            LoadResult r = NettyLoad.run(spec(server, "/mixed").connections(2).requests(400).build());
            assertEquals(400, r.requests());
            assertEquals(0, r.errors().total());
            assertEquals(400, server.requests());
            // Every byte the server wrote was read: 200 of each kind.
            long contentLengthResponse = ("HTTP/1.1 200 X\r\nContent-Type: text/plain\r\nContent-Length: 2000\r\n\r\n").length() + 2000;
            assertEquals(200 * (chunked.length() + contentLengthResponse), r.bytesRead());
        }
    }

    @Test
    void connectionClosedMidResponseIsAReadErrorAndTheRunGoesOn() throws IOException {
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            if (req.number() % 10 == 0) {
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly-part".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                return false; // close in the middle of the body
            }
            TestHttpServer.ok(out, "fine");
            return true;
        })) {
            LoadResult r = NettyLoad.run(spec(server, "/").connections(4).requests(1000).build());
            assertEquals(100, r.errors().read(), "every tenth request is cut off");
            assertEquals(900, r.requests());
            assertEquals(1000, server.requests());
            assertEquals(0, r.errors().protocol() + r.errors().timeout() + r.errors().connect());
        }
    }

    @Test
    void anAnswerNobodyAskedForIsAProtocolErrorNotAMeasurement() throws IOException {
        // Regression: a second answer to one request was credited to the next request, or not counted.
        String answer = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none";
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            // The first request gets two answers in one write, so they arrive in one read.
            out.write((req.number() == 1 ? answer + answer : answer).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return true;
        })) {
            LoadResult r = NettyLoad.run(spec(server, "/").connections(1).requests(50).build());
            assertEquals(1, r.errors().protocol(), r.errors().toString());
            assertEquals(50, r.requests());
            assertEquals(50, server.requests());
        }
    }

    @Test
    void anInvalidAnswerIsOneProtocolErrorAndTheRequestsPipelinedBehindItAreReadErrors() throws IOException {
        // Regression: every request outstanding on the connection was counted as a protocol
        // error, four for one garbage answer here. One answer was invalid; the three requests
        // behind it were lost with the connection, as behind a Connection: close answer.
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            if (req.number() == 1) {
                out.write("HTTP/1.1 2OO OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                return false;
            }
            TestHttpServer.ok(out, "fine");
            return true;
        })) {
            LoadResult r = NettyLoad.run(spec(server, "/").connections(1).model(new LoadModel.ClosedLoop(4))
                    .requests(100).build());
            assertEquals(new ErrorCounts(0, 3, 0, 0, 0, 1, 0), r.errors());
            assertEquals(96, r.requests());
        }
    }

    @Test
    void clientAndServerErrorStatusesAreStatusErrors() throws IOException {
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            int status = switch ((int) (req.number() % 4)) {
                case 0 -> 404;
                case 1 -> 500;
                case 2 -> 302;
                default -> 200;
            };
            TestHttpServer.respond(out, status, "s");
            return true;
        })) {
            LoadResult r = NettyLoad.run(spec(server, "/").connections(1).requests(400).build());
            assertEquals(400, r.requests());
            assertEquals(200, r.errors().status(), "404 and 500 are errors, 302 and 200 are not");
            assertEquals(Set.of(200, 302, 404, 500), r.statusCodes().keySet());
            r.statusCodes().values().forEach(n -> assertEquals(100L, n));
        }
    }

    @Test
    void aServerThatNeverAnswersGivesTimeoutsNotAHang() throws IOException {
        try (TestHttpServer server = TestHttpServer.neverAnswering()) {
            long t0 = System.nanoTime();
            LoadResult r = NettyLoad.run(spec(server, "/").connections(4)
                    .duration(Duration.ofMillis(1500)).requestTimeout(Duration.ofMillis(300)).build());
            double took = (System.nanoTime() - t0) / 1e9;
            assertEquals(0, r.requests());
            assertTrue(r.errors().timeout() >= 4, "each connection times out at least once: " + r.errors());
            assertTrue(took < 15, "the run ends after its duration, took " + took + " s");
        }
    }

    @Test
    void aStallUnderAFixedRateShowsInCorrectedLatencyButNotInServiceTime() throws IOException {
        // The server stops answering for 1 s once; at 1000 requests/s the requests due during the
        // stall wait for it, so corrected latency has hundreds of ms at p99 while service time,
        // measured from the actual send, stays low for all but the few requests in flight.
        CountDownLatch stallOver = new CountDownLatch(1);
        long[] stallUntil = {0};
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            if (req.number() == 1500) {
                synchronized (stallUntil) {
                    stallUntil[0] = System.nanoTime() + 1_000_000_000L;
                }
            }
            long until;
            synchronized (stallUntil) {
                until = stallUntil[0];
            }
            long wait = until - System.nanoTime();
            if (wait > 0) {
                try {
                    stallOver.await(wait, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            TestHttpServer.ok(out, "x");
            return true;
        })) {
            LoadResult r = NettyLoad.run(spec(server, "/").connections(10).threads(1)
                    .model(new LoadModel.FixedRate(1000)).duration(Duration.ofSeconds(4))
                    .warmup(Duration.ofMillis(500)).build());
            Histogram service = r.serviceTime().orElseThrow();
            long correctedP99 = r.latencyAt(99);
            long serviceP99 = service.getValueAtPercentile(99);
            assertAll(
                    () -> assertTrue(r.requests() > 3000, "about 4000 requests in 4 s, got " + r.requests()),
                    () -> assertTrue(correctedP99 > 300_000, "corrected p99 " + correctedP99 + " us"),
                    () -> assertTrue(serviceP99 < 100_000, "service p99 " + serviceP99 + " us"),
                    () -> assertTrue(service.getMaxValue() > 500_000, "the requests in flight saw the stall"));
        }
    }

    @Test
    void aFixedTwentyMillisecondDelayGivesAMedianOfTwentyMilliseconds() throws IOException {
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            long until = System.nanoTime() + 20_000_000L;
            // A busy-wait-free delay that is at least 20 ms: park until the deadline.
            while (System.nanoTime() < until) {
                java.util.concurrent.locks.LockSupport.parkNanos(until - System.nanoTime());
            }
            TestHttpServer.ok(out, "slow");
            return true;
        })) {
            LoadResult r = NettyLoad.run(spec(server, "/").connections(4).duration(Duration.ofSeconds(2)).build());
            long p50 = r.latencyAt(50);
            assertTrue(p50 >= 20_000 && p50 <= 23_000, "p50 " + p50 + " us should be within 3 ms of 20 ms");
            assertEquals(0, r.errors().total());
        }
    }

    @Test
    void theWarmUpsPractisedSnapshotsLeaveTheWindowsIntervalsExact() throws IOException {
        // The warm-up reads its answers through the window's per-second snapshot (histograms swapped,
        // merged and emptied) three times here; none of it may reach the window. Oracle: as above,
        // each interval's histograms count its own requests, and the intervals add up to the result.
        try (TestHttpServer server = TestHttpServer.fixed("ok")) {
            LoadResult r = NettyLoad.run(spec(server, "/").connections(4).threads(2)
                    .model(new LoadModel.FixedRate(2000)).warmup(Duration.ofMillis(1500))
                    .duration(Duration.ofMillis(2000)).build());
            Histogram latency = new Histogram(1, Worker.HIGHEST_US, Worker.DIGITS);
            Histogram service = new Histogram(1, Worker.HIGHEST_US, Worker.DIGITS);
            long requests = 0;
            for (IntervalSample s : r.intervals()) {
                assertEquals(s.requests() + s.missed(), s.latency().getTotalCount(), "interval " + s.startEpochMs());
                latency.add(s.latency());
                service.add(s.serviceTime().orElseThrow());
                requests += s.requests();
            }
            assertEquals(r.requests(), requests);
            assertEquals(r.latency(), latency);
            assertEquals(r.serviceTime().orElseThrow(), service);
            // 2,000/s for 2 s in the window; the warm-up's (about 3,000) are the server's alone.
            assertTrue(r.requests() + r.missed() <= 4_100, "window requests " + r.requests());
            assertTrue(server.requests() >= r.requests() + 1_500, "server saw " + server.requests());
        }
    }

    @Test
    void warmupIsExcludedFromTheResult() throws IOException {
        try (TestHttpServer server = TestHttpServer.fixed("w")) {
            LoadResult r = NettyLoad.run(spec(server, "/").connections(2).warmup(Duration.ofMillis(700))
                    .duration(Duration.ofMillis(700)).build());
            assertTrue(r.requests() > 0);
            assertTrue(server.requests() > r.requests() + 10,
                    "server saw " + server.requests() + ", result has " + r.requests());
            assertTrue(r.durationSeconds() < 1.2, "window is the measured part only: " + r.durationSeconds());
        }
    }

    @Test
    void pipeliningKeepsSeveralRequestsInFlightAndCountsEachOne() throws IOException {
        try (TestHttpServer server = TestHttpServer.fixed("p")) {
            LoadResult r = NettyLoad.run(spec(server, "/").connections(2).model(new LoadModel.ClosedLoop(8))
                    .requests(2000).build());
            assertEquals(2000, r.requests());
            assertEquals(2000, server.requests());
        }
    }

    @Test
    void substitutionsChangeThePathOfEachRequest() throws IOException {
        List<String> paths = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            paths.add(req.path() + " " + req.method() + " " + req.body().length);
            TestHttpServer.respond(out, 201, "");
            return true;
        })) {
            RequestTemplate put = new RequestTemplate("PUT", Target.parse(server.url("/kv/{rand:0-9}/{seq}")),
                    List.of("X-Test: 1"), 100);
            LoadResult r = NettyLoad.run(LoadSpec.builder().request(put).connections(2).threads(2)
                    .requests(200).build());
            assertEquals(200, r.requests());
            Set<String> seqs = paths.stream().map(p -> p.split(" ")[0].split("/")[3]).collect(Collectors.toSet());
            assertEquals(200, seqs.size(), "{seq} is unique per request");
            Set<String> keys = paths.stream().map(p -> p.split("/")[2]).collect(Collectors.toSet());
            assertTrue(keys.size() > 1 && keys.stream().allMatch(k -> k.matches("[0-9]")), keys.toString());
            assertTrue(paths.stream().allMatch(p -> p.endsWith(" PUT 100")), paths.get(0));
        }
    }

    @Test
    void aRefusedPortFailsBeforeTheRunWithAMessageThatSaysSo() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        LoadSpec spec = LoadSpec.builder().url("http://127.0.0.1:" + port + "/").duration(Duration.ofSeconds(1)).build();
        LoadException e = assertThrows(LoadException.class, () -> NettyLoad.run(spec));
        assertFalse(e.isUsageError());
        assertTrue(e.getMessage().contains("connection refused by 127.0.0.1:" + port), e.getMessage());
    }

    @Test
    void anUnresolvableHostIsAUsageError() {
        LoadSpec spec = LoadSpec.builder().url("http://no-such-host.invalid:80/").duration(Duration.ofSeconds(1)).build();
        LoadException e = assertThrows(LoadException.class, () -> NettyLoad.run(spec));
        assertTrue(e.isUsageError());
        assertTrue(e.getMessage().contains("cannot resolve host 'no-such-host.invalid'"), e.getMessage());
    }

    @Test
    void theHlogHoldsEveryIntervalTaggedAndReadsBack() throws IOException {
        try (TestHttpServer server = TestHttpServer.fixed("h")) {
            LoadResult r = NettyLoad.run(spec(server, "/").connections(2).model(new LoadModel.FixedRate(200))
                    .duration(Duration.ofMillis(2200)).build());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Hlog.write(r, "run-1", out);
            HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(out.toByteArray()));
            Histogram latency = new Histogram(1, Worker.HIGHEST_US, Worker.DIGITS);
            Histogram service = new Histogram(1, Worker.HIGHEST_US, Worker.DIGITS);
            int intervals = 0;
            Histogram h;
            while ((h = (Histogram) reader.nextIntervalHistogram()) != null) {
                intervals++;
                if ("run-1".equals(h.getTag())) {
                    latency.add(h);
                } else {
                    assertEquals("run-1-service", h.getTag());
                    service.add(h);
                }
            }
            assertEquals(2 * r.intervals().size(), intervals);
            // A request due just before the window's end that the loop had not sent yet is missed,
            // and is in the latency log with its wait (a busy machine makes that likelier).
            assertEquals(r.requests() + r.missed(), latency.getTotalCount());
            assertEquals(r.latency(), latency);
            assertEquals(r.serviceTime().orElseThrow(), service);
        }
    }

    @Test
    void threadsAreGoneAfterTheRun() throws IOException {
        try (TestHttpServer server = TestHttpServer.fixed("t")) {
            NettyLoad.run(spec(server, "/").connections(4).threads(2).requests(100).build());
            boolean left = Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().startsWith("loadlab-load") && t.isAlive());
            assertFalse(left, "event-loop threads must end with the run");
        }
    }

    /**
     * A run interrupted mid-window (an agent's run stopped when its coordinator died) leaves no
     * connection open once it has returned. (Issue 16: the agent test of a killed coordinator once found
     * an agent's connections still open after its run ended; this test did not reproduce that race, so
     * it guards the behaviour rather than confirming the fix.)
     */
    @Test
    void aRunInterruptedMidWindowLeavesNoConnectionOpen() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new CopyOnWriteArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(server.accept());
                    }
                } catch (IOException e) {
                    // The server socket was closed: the test is over.
                }
            });
            acceptor.start();
            LoadSpec spec = LoadSpec.builder().url("http://127.0.0.1:" + server.getLocalPort() + "/").connections(16)
                    .threads(2).duration(Duration.ofSeconds(30)).build();
            Throwable[] thrown = new Throwable[1];
            Thread run = new Thread(() -> {
                try {
                    NettyLoad.run(spec);
                } catch (LoadException e) {
                    thrown[0] = e;
                }
            });
            run.start();
            long connected = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (accepted.size() < 17 && System.nanoTime() < connected) {
                Thread.sleep(10); // paces the check: the preflight connection and the run's 16
            }
            run.interrupt();
            run.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(thrown[0] != null && thrown[0].getMessage().contains("interrupted"), "stopped: " + thrown[0]);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            int open = -1;
            while (System.nanoTime() < end) {
                open = 0;
                for (Socket s : accepted) {
                    s.setSoTimeout(50);
                    try {
                        open += s.getInputStream().read() < 0 ? 0 : 1; // -1: the engine closed it
                    } catch (SocketTimeoutException e) {
                        open++;
                    }
                }
                if (open == 0 && accepted.size() > 1) {
                    break;
                }
            }
            server.close();
            acceptor.join(5000);
            for (Socket s : accepted) {
                s.close();
            }
            assertTrue(accepted.size() >= 17, "the run's connections were open: " + accepted.size());
            assertEquals(0, open, open + " of " + accepted.size() + " connections still open after the run returned");
        }
    }
}
