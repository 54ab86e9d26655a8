package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bugs a code read found in the engine (issue 11, 6a, 6b, 6d, 6e), each confirmed by its test
 * failing on the code before the fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard, not a speed target
class EngineRegressionTest {

    /** 6a: a body delimited by the close, cut by a reset, was a read error and a protocol error. */
    @Test
    void closeDelimitedBodyCutByResetCountsOneReadErrorAndNoProtocolError() throws Exception {
        try (CutServer server = new CutServer(true)) {
            LoadResult r = NettyLoad.run(LoadSpec.builder().url(server.url()).connections(1)
                    .duration(Duration.ofMillis(800)).connectTimeout(Duration.ofSeconds(2)).build());
            assertTrue(r.errors().read() > 0, "a cut body is a read error: " + r.errors());
            assertEquals(0, r.errors().protocol(), "counted twice, as protocol too: " + r.errors());
            assertEquals(0, r.requests());
            long counted = r.errors().read() + r.errors().write() + r.errors().connect();
            // The cuts around the window's end (the one in flight, and the server's own count of
            // the engine's final close) fall when nothing is counted any more.
            assertTrue(counted <= server.cut() && counted >= server.cut() - 2,
                    "one error per answer the server cut (" + server.cut() + "), " + r.errors());
        }
    }

    /** 6a: the same body cut by the engine's own request timeout was a timeout and a protocol error. */
    @Test
    void closeDelimitedBodyCutByTimeoutCountsOneTimeoutAndNoProtocolError() throws Exception {
        try (CutServer server = new CutServer(false)) {
            LoadResult r = NettyLoad.run(LoadSpec.builder().url(server.url()).connections(1)
                    .duration(Duration.ofMillis(1200)).requestTimeout(Duration.ofMillis(200))
                    .connectTimeout(Duration.ofSeconds(2)).build());
            assertTrue(r.errors().timeout() >= 2, "timeouts: " + r.errors());
            assertEquals(0, r.errors().protocol(), "counted twice, as protocol too: " + r.errors());
        }
    }

    /**
     * 6b: at a fixed rate, requests that fell due but were never sent were not recorded, so an
     * overloaded server showed a short tail. 200/s against a server answering in 50 ms on one
     * connection: about 200 fall due in 1 s, about 20 can be answered.
     */
    @Test
    void fixedRateOverloadRecordsTheRequestsThatWereDueButNeverSent() throws IOException {
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            pause(50);
            TestHttpServer.ok(out, "slow");
            return true;
        })) {
            LoadResult r = NettyLoad.run(LoadSpec.builder().url(server.url("/")).connections(1)
                    .model(new LoadModel.FixedRate(200)).duration(Duration.ofSeconds(1))
                    .connectTimeout(Duration.ofSeconds(2)).build());
            Histogram lat = r.latency();
            assertTrue(r.requests() < 30, "the server can answer ~20: " + r.requests());
            assertTrue(lat.getTotalCount() >= 190, "every request due in the window is in the latency histogram, got "
                    + lat.getTotalCount() + " for " + r.requests() + " answers");
            assertTrue(lat.getValueAtPercentile(50) > 300_000, "half the due requests waited > 0.3 s: p50 "
                    + lat.getValueAtPercentile(50) + " us");
            assertEquals(r.requests() + r.missed(), lat.getTotalCount(), "answered and missed, each once");
            assertTrue(r.missed() >= 160, "missed: " + r.missed());
            assertTrue(r.rateNotReached());
            assertTrue(io.loadlab.load.summary.TextSummary.format(r).contains("rate_not_reached"));
            assertTrue(io.loadlab.load.summary.JsonSummary.format(r).contains("\"missed\" : " + r.missed()));
            IntervalSample last = r.intervals().get(r.intervals().size() - 1);
            assertEquals(r.missed(), last.missed(), "the missed requests are recorded at the window's end");
            for (IntervalSample s : r.intervals()) {
                assertEquals(s.requests() + s.missed(), s.latency().getTotalCount());
            }
        }
    }

    /** 6d: {rand} keys came from an unseeded generator, so two runs never sent the same keys. */
    @Test
    void randomKeysRepeatFromRunToRunWithTheSameSeed() throws IOException {
        List<String> first = new CopyOnWriteArrayList<>();
        List<String> second = new CopyOnWriteArrayList<>();
        List<List<String>> target = new ArrayList<>(List.of(first));
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            target.get(0).add(req.path());
            TestHttpServer.ok(out, "k");
            return true;
        })) {
            LoadSpec spec = LoadSpec.builder().url(server.url("/kv/{rand:0-999999}")).connections(1).requests(50)
                    .connectTimeout(Duration.ofSeconds(2)).build();
            NettyLoad.run(spec);
            target.set(0, second);
            NettyLoad.run(spec);
        }
        assertEquals(50, first.size());
        assertEquals(first, second, "the same spec sends the same keys in the same order");
        assertTrue(Collections.frequency(first, first.get(0)) < 50, "keys are drawn, not constant: " + first);
    }

    /**
     * 6e: without a warm-up, requests were counted from the first connection but the window's
     * clock started after the listener's work (the /proc scan), so rps came out inflated. One
     * connection to a server that answers in 20 ms can do at most 50/s.
     */
    @Test
    void withoutWarmupASlowWindowStartDoesNotInflateRps() throws IOException {
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            pause(20);
            TestHttpServer.ok(out, "ok");
            return true;
        })) {
            LoadListener slowStart = new LoadListener() {
                @Override
                public void windowStarted() {
                    pause(600); // stands for a slow /proc scan of a large process tree
                }
            };
            LoadResult r = NettyLoad.run(LoadSpec.builder().url(server.url("/")).connections(1)
                    .duration(Duration.ofSeconds(1)).connectTimeout(Duration.ofSeconds(2)).build(), slowStart);
            assertTrue(r.rps() <= 52, "one connection at 20 ms an answer cannot exceed 50/s, got " + r.rps());
            assertTrue(r.requests() > 20, "the window still measured: " + r.requests());
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Answers every request with a 200 whose body ends at the close (no Content-Length), writes
     * part of it, then resets the connection ({@code reset}) or holds it open without a word.
     */
    private static final class CutServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> open = new CopyOnWriteArrayList<>();
        private final Thread acceptor;
        private volatile long cut;

        CutServer(boolean reset) throws IOException {
            acceptor = new Thread(() -> serve(reset), "cut-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        String url() {
            return "http://127.0.0.1:" + socket.getLocalPort() + "/";
        }

        long cut() {
            return cut;
        }

        private void serve(boolean reset) {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    open.add(s);
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                            StandardCharsets.US_ASCII));
                    String line;
                    while ((line = in.readLine()) != null && !line.isEmpty()) {
                        // the request head
                    }
                    OutputStream out = s.getOutputStream();
                    out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\npart of a body"
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    if (reset) {
                        // Let the bytes arrive first, so that the reset cuts a body being read.
                        pause(20);
                        s.setSoLinger(true, 0);
                        s.close();
                    }
                    cut++;
                } catch (IOException e) {
                    return;
                }
            }
        }

        @Override
        public void close() throws Exception {
            socket.close();
            for (Socket s : open) {
                s.close();
            }
            acceptor.join(5000);
        }
    }
}
