package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.loadlab.host.Cpus;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code loadlab load} end to end through picocli: output, JSON fields, exit codes, messages. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoadCommandTest {

    private HttpServer server;
    private java.util.concurrent.ExecutorService executor;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
        executor = Executors.newFixedThreadPool(4);
        server.setExecutor(executor);
        server.createContext("/plaintext", ex -> {
            byte[] b = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stopServer() throws InterruptedException {
        server.stop(0);
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    }

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/plaintext";
    }

    @Test
    void jsonHasTheDocumentedFields(@TempDir Path dir) throws IOException {
        Path hlog = dir.resolve("run.hlog");
        CliRun o = run("load", "-c", "2", "-n", "300", "--json", "--hlog", hlog.toString(), url());
        assertEquals(0, o.code(), o.err());
        JsonNode j = new ObjectMapper().readTree(o.out());
        assertEquals(300, j.get("requests").asLong());
        assertTrue(j.get("duration_s").asDouble() > 0);
        assertTrue(j.get("rps").asDouble() > 0);
        for (String f : new String[] {"connect", "read", "write", "timeout", "status", "protocol"}) {
            assertEquals(0, j.get("errors").get(f).asLong(), f);
        }
        assertEquals(300, j.get("status_codes").get("200").asLong());
        for (String f : new String[] {"mean", "p50", "p90", "p99", "p999", "max"}) {
            assertTrue(j.get("latency_us").get(f).asDouble() > 0, f);
        }
        assertEquals(300 * 130, j.get("bytes_read").asLong(), 300 * 60, "about 130 bytes per response");
        assertTrue(j.get("load_cpu_s").asDouble() > 0);
        assertTrue(j.get("rps_per_load_cpu_s").asDouble() > 0);
        assertTrue(j.get("service_time_us").isNull(), "closed loop has no service time");
        // Steal from /proc/stat on this process's CPUs: at most their wall time (and a 10 ms tick each).
        double steal = j.get("steal_s").asDouble(-1);
        double most = Cpus.allowed().size() * (j.get("duration_s").asDouble() + 0.01);
        assertTrue(j.get("steal_s").isNumber() && steal >= 0 && steal <= most, "steal_s " + j.get("steal_s") + ", at most " + most);
        assertTrue(Files.readString(hlog).contains("#[StartTime:"));
    }

    @Test
    void textSummaryShowsTheDistributionAndTheEnginesCpu() {
        CliRun o = run("load", "-c", "2", "-d", "500ms", url());
        assertEquals(0, o.code(), o.err());
        for (String s : new String[] {"50%", "75%", "90%", "99%", "99.9%", "99.99%", "max", "Requests/sec",
                "Transfer/sec", "Status codes 200:", "Errors        connect 0", "requests per CPU-second", "Steal         "}) {
            assertTrue(o.out().contains(s), "missing '" + s + "' in\n" + o.out());
        }
    }

    @Test
    void aFixedRateRunReportsServiceTime() {
        CliRun o = run("load", "-c", "2", "-R", "200", "-d", "1s", url());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("coordinated omission corrected"), o.out());
        assertTrue(o.out().contains("Service time (from actual send)"), o.out());
    }

    @Test
    void aFixedRateRunRecordsItsPaceSlackAndHowLateItSent() throws IOException {
        CliRun o = run("load", "-c", "2", "-R", "20", "--pace-slack", "500us", "-d", "1s", "--warmup", "0s", "--json",
                url());
        assertEquals(0, o.code(), o.err());
        JsonNode j = new ObjectMapper().readTree(o.out());
        assertEquals(500.0, j.get("pace_slack_us").asDouble(), 1e-9);
        JsonNode p = j.get("pacing");
        assertEquals(0, p.get("sent_early").asLong());
        assertTrue(p.get("send_lateness_us").get("count").asLong() >= j.get("requests").asLong(), p.toString());
        assertTrue(p.get("wake_times_per_s").asDouble() > 0, p.toString());
        CliRun closed = run("load", "-c", "2", "-n", "50", "--json", url());
        JsonNode c = new ObjectMapper().readTree(closed.out());
        assertTrue(c.get("pace_slack_us").isNull() && c.get("pacing").isNull(), "closed loop: no pacing");
    }

    @Test
    void usageErrorsExitWithTwoAndOneLine() {
        String[][] cases = {
                {"load", "--no-such-flag", url()},
                {"load", "-d", "ten seconds", url()},
                {"load", "--h2", url()}, // https:// is served now (TlsLoadCommandTest); h2 over http:// is not
                {"load", "ftp://example/"},
                {"load", "-c", "0", url()},
                {"load", "-t", "4", "-c", "2", url()},
                {"load", "--transport", "carrier-pigeon", url()},
                {"load", "http://no-such-host.invalid/"},
                {"load", "-R", "100", "--pipeline", "4", url()},
                {"load", "-n", "100", "--warmup", "1s", url()},
                {"load", "--pace-slack", "1ms", url()},
                {"load", "-R", "100", "--pace-slack", "1s", url()},
                {"load", "-R", "100", "--pace-slack", "soon", url()},
        };
        for (String[] c : cases) {
            CliRun o = run(c);
            assertEquals(2, o.code(), String.join(" ", c) + " -> " + o.err());
            assertTrue(o.err().startsWith("loadlab: "), o.err());
            assertTrue(o.err().strip().lines().count() <= 2, "short error for " + String.join(" ", c) + ":\n" + o.err());
            assertFalse(o.err().contains("Exception"), "no stack trace: " + o.err());
        }
    }

    @Test
    void agentOptionsGoTogetherAndTheirErrorsAreOneLine(@TempDir Path dir) throws IOException {
        Path secret = io.loadlab.agent.TestSecrets.write(dir.resolve("secret"), "a secret of the agents, long enough\n");
        String[][] cases = {
                {"--agents", "127.0.0.1:5701"},
                {"--secret-file", secret.toString()},
                {"--agents", "127.0.0.1:5701,127.0.0.1:5702", "--secret-file", secret.toString(), "--agent-weights", "1,x"},
                {"--agents", "127.0.0.1:5701,127.0.0.1:5702", "--secret-file", secret.toString(), "--agent-weights", "1"},
                {"--agents", "127.0.0.1:5701,127.0.0.1:5701", "--secret-file", secret.toString()},
        };
        String[] says = {"go together", "go together", "'x' is not a number", "1 weights for 2 agents", "twice"};
        for (int i = 0; i < cases.length; i++) {
            for (String command : new String[] {"load", "run"}) {
                java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(command));
                args.addAll(java.util.List.of(cases[i]));
                if (command.equals("load")) {
                    args.add(url());
                }
                CliRun o = run(args.toArray(String[]::new));
                assertEquals(2, o.code(), args + " -> " + o.err());
                assertTrue(o.err().startsWith("loadlab: ") && o.err().contains(says[i]), args + " -> " + o.err());
                assertTrue(o.err().strip().lines().count() <= 2, "short error for " + args + ":\n" + o.err());
            }
        }
    }

    @Test
    void aRefusedPortIsAFailedRunWithExitOne() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        CliRun o = run("load", "-d", "1s", "http://127.0.0.1:" + port + "/");
        assertEquals(1, o.code());
        assertEquals("loadlab: connection refused by 127.0.0.1:" + port + ": is the server running on that port?",
                o.err().strip());
    }

    @Test
    void durationsAcceptMillisecondsSecondsAndMinutes() {
        assertEquals(java.time.Duration.ofMillis(500), io.loadlab.time.Durations.parse("500ms"));
        assertEquals(java.time.Duration.ofSeconds(10), io.loadlab.time.Durations.parse("10s"));
        assertEquals(java.time.Duration.ofMinutes(2), io.loadlab.time.Durations.parse("2m"));
        assertEquals(java.time.Duration.ofMillis(1500), io.loadlab.time.Durations.parse("1.5s"));
        assertEquals(java.time.Duration.ofSeconds(3), io.loadlab.time.Durations.parse("3"));
    }
}
