package io.loadlab.engine;

import io.loadlab.host.Executables;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.Protocol;
import io.loadlab.load.TlsOptions;
import io.loadlab.subject.SubjectProcess;
import io.loadlab.subject.Subjects;
import io.loadlab.subject.ThrowawayCa;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * h2load, wrk and oha over TLS, h2 and h2c against a real nginx that the test starts (a throw-away CA's
 * certificate; one TLS server with http2, one h2c server) and stops by pid. nginx's access log, one line
 * per answer with its protocol and status, is the oracle: every answer the tool counts is in it, over the
 * protocol the result names, and at most one answer per stream in flight at the end is missing from
 * the tool's count.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES) // a hang guard only
class ToolProtocolsTest {

    @TempDir
    static Path dir;
    private static ThrowawayCa ca;
    private static Process nginx;
    private static int tlsPort;
    private static int h2cPort;
    private static final int CONNECTIONS = 4;

    @BeforeAll
    static void startNginx() throws Exception {
        assumeTrue(Executables.onPath("nginx"), "needs nginx (apt-get install nginx-light)");
        assumeTrue(ThrowawayCa.available(), "needs openssl");
        ca = ThrowawayCa.create(dir.resolve("ca"));
        ThrowawayCa.ServerFiles cert = ca.issue("server");
        tlsPort = SubjectProcess.freePort();
        h2cPort = SubjectProcess.freePort();
        Path n = dir.resolve("nginx");
        Files.createDirectories(n.resolve("temp"));
        String locations = "location = /plaintext { default_type text/plain; return 200 \"Hello, World!\"; }"
                + " location / { return 404; }";
        String temp = String.join(" ", List.of("client_body", "proxy", "fastcgi", "uwsgi", "scgi").stream()
                .map(t -> t + "_temp_path " + n.resolve("temp") + ";").toList());
        Files.writeString(n.resolve("nginx.conf"), String.join("\n", "daemon off;", "worker_processes 1;",
                "pid " + n.resolve("nginx.pid") + ";", "error_log " + n.resolve("error.log") + " warn;",
                "events { worker_connections 1024; }", "http {", temp,
                // nginx's default of 1000 requests per connection would end h2load's run early: after a
                // GOAWAY h2load does not open a new connection.
                "  keepalive_requests 1000000;",
                "  log_format answers '$server_port $server_protocol $status';",
                "  access_log " + n.resolve("access.log") + " answers;",
                "  server { listen 127.0.0.1:" + tlsPort + " ssl http2; ssl_certificate " + cert.cert() + ";"
                        + " ssl_certificate_key " + cert.key() + "; " + locations + " }",
                "  server { listen 127.0.0.1:" + h2cPort + " http2; " + locations + " }", "}", ""));
        nginx = new ProcessBuilder("nginx", "-p", n + "/", "-e", n.resolve("error.log").toString(), "-c",
                n.resolve("nginx.conf").toString()).redirectErrorStream(true)
                .redirectOutput(n.resolve("out.log").toFile()).start();
        awaitListening(tlsPort);
        awaitListening(h2cPort);
    }

    private static void awaitListening(int port) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!nginx.isAlive()) {
                throw new IOException("nginx exited with " + nginx.exitValue());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                nginx.waitFor(20, TimeUnit.MILLISECONDS); // returns at once should nginx exit
            }
        }
        throw new IOException("nginx did not listen on port " + port + " within 30 s");
    }

    @AfterAll
    static void stopNginx() throws InterruptedException {
        if (nginx != null) {
            nginx.toHandle().destroy();
            if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
                nginx.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
                nginx.destroyForcibly();
                nginx.waitFor();
            }
        }
    }

    /** A 1 s closed-loop run over {@code protocol}, trusting the experiment's CA (or none). */
    private static LoadSpec spec(String path, Protocol protocol, int streams, Optional<Path> caCert) {
        String url = (protocol == Protocol.H2C ? "http://127.0.0.1:" + h2cPort : "https://127.0.0.1:" + tlsPort) + path;
        return LoadSpec.builder().url(url).protocol(protocol).streams(streams).connections(CONNECTIONS).threads(1)
                .duration(Duration.ofSeconds(1)).warmup(Duration.ZERO)
                .tls(new TlsOptions(caCert, false, true, Optional.empty(), List.of(), List.of(), TlsOptions.Provider.AUTO))
                .build();
    }

    /** The access log's lines so far. */
    private static List<String> answers() throws IOException {
        Path log = dir.resolve("nginx").resolve("access.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /**
     * Runs {@code engine} and checks its count against nginx's answers in the window: none it counts is
     * missing from the log, at most one per stream in flight is answered but not counted; every answer
     * came over {@code serverProtocol} with {@code status}.
     */
    private static EngineResult runAndCheck(ToolEngine engine, LoadSpec load, String serverProtocol, String status)
            throws IOException {
        assumeTrue(engine.unavailableReason().isEmpty(), () -> engine.unavailableReason().get());
        int before = answers().size();
        EngineResult r = engine.run(new RunSpec(load, Optional.empty(), dir.resolve("scratch-" + engine.label()),
                dir.resolve(engine.label() + "-" + load.protocol().label().replace('/', '-') + ".txt")), LoadListener.NONE);
        List<String> window = answers().subList(before, answers().size());
        String port = Integer.toString(load.request().target().port());
        Map<String, Long> seen = window.stream().collect(Collectors.groupingBy(l -> l, Collectors.counting()));
        assertEquals(Map.of(port + " " + serverProtocol + " " + status, (long) window.size()), seen,
                engine + ": every answer over " + serverProtocol + " with " + status);
        long inFlight = (long) CONNECTIONS * load.streams();
        assertTrue(r.requests() > 0 && r.requests() <= window.size() && window.size() - r.requests() <= inFlight,
                engine + " counted " + r.requests() + ", nginx answered " + window.size() + " (at most " + inFlight
                        + " in flight)");
        return r;
    }

    private static long errors(EngineResult r, String category) {
        return r.errors().getOrDefault(category, -1L);
    }

    @Test
    void h2loadRunsH2OverTlsWithStreamsPerConnection() throws IOException {
        EngineResult r = runAndCheck(Engine.H2LOAD, spec("/plaintext", Protocol.H2, 4, Optional.of(ca.caCert())),
                "HTTP/2.0", "200");
        assertEquals(Optional.of("h2"), r.protocol(), "from h2load's 'Application protocol' line");
        assertEquals(0, errors(r, "status") + errors(r, "protocol") + errors(r, "timeout"), r.errors().toString());
        assertFalse(r.errors().containsKey("tls"), "h2load does not count TLS errors apart: empty, not 0");
        String out = Files.readString(r.output().orElseThrow());
        assertTrue(out.contains("total client(s)") && !out.isEmpty());
    }

    @Test
    void h2loadRunsH2cWithPriorKnowledgeAndCountsStatusErrors() throws IOException {
        EngineResult r = runAndCheck(Engine.H2LOAD, spec("/missing", Protocol.H2C, 2, Optional.empty()),
                "HTTP/2.0", "404");
        assertEquals(Optional.of("h2c"), r.protocol());
        // h2load counts a status when its headers arrive: a stream cut at the end can have one and no answer.
        long extra = errors(r, "status") - r.requests();
        assertTrue(extra >= 0 && extra <= CONNECTIONS * 2, "every 404 is a status error: " + errors(r, "status")
                + " of " + r.requests());
    }

    @Test
    void h2loadRunsHttp11OverTls() throws IOException {
        EngineResult r = runAndCheck(Engine.H2LOAD, spec("/plaintext", Protocol.HTTP_1_1, 1, Optional.empty()),
                "HTTP/1.1", "200");
        assertEquals(Optional.of("http/1.1"), r.protocol());
    }

    @Test
    void wrkRunsHttpsAndIsRefusedOverHttp2() throws IOException {
        EngineResult r = runAndCheck(Engine.WRK, spec("/plaintext", Protocol.HTTP_1_1, 1, Optional.empty()),
                "HTTP/1.1", "200");
        assertEquals(Optional.of("http/1.1"), r.protocol());
        assertEquals(0, errors(r, "connect") + errors(r, "read") + errors(r, "status"), r.errors().toString());
        EngineException e = assertThrows(EngineException.class, () -> Engine.WRK.run(new RunSpec(
                spec("/plaintext", Protocol.H2, 1, Optional.empty()), Optional.empty(), dir.resolve("wrk-h2"),
                dir.resolve("wrk-h2.txt")), LoadListener.NONE));
        assertEquals("wrk speaks HTTP/1.1 only, not h2", e.getMessage());
    }

    @Test
    void ohaRunsHttpsTrustingTheCaAndH2AndH2c() throws IOException {
        EngineResult h1 = runAndCheck(Engine.OHA, spec("/plaintext", Protocol.HTTP_1_1, 1, Optional.of(ca.caCert())),
                "HTTP/1.1", "200");
        assertEquals(Optional.of("http/1.1"), h1.protocol());
        assertEquals(0L, errors(h1, "tls"), "oha counts TLS errors apart: none here");
        EngineResult h2 = runAndCheck(Engine.OHA, spec("/plaintext", Protocol.H2, 2, Optional.of(ca.caCert())),
                "HTTP/2.0", "200");
        assertEquals(Optional.of("h2"), h2.protocol());
        assertEquals(0L, errors(h2, "tls") + errors(h2, "status"), h2.errors().toString());
        EngineResult h2c = runAndCheck(Engine.OHA, spec("/missing", Protocol.H2C, 2, Optional.empty()),
                "HTTP/2.0", "404");
        assertEquals(Optional.of("h2c"), h2c.protocol());
        assertEquals(h2c.requests(), errors(h2c, "status"));
        assertFalse(h2c.errors().containsKey("tls"), "no TLS: errors_tls is empty, not 0");
    }

    @Test
    void ohaCountsAnUntrustedCertificateAsTlsErrors() throws IOException {
        assumeTrue(Engine.OHA.unavailableReason().isEmpty(), () -> Engine.OHA.unavailableReason().get());
        int before = answers().size();
        EngineResult r = Engine.OHA.run(new RunSpec(spec("/plaintext", Protocol.HTTP_1_1, 1, Optional.empty()),
                Optional.empty(), dir.resolve("oha-untrusted"), dir.resolve("oha-untrusted.txt")), LoadListener.NONE);
        assertEquals(0, r.requests());
        assertEquals(before, answers().size(), "no request got through");
        assertTrue(errors(r, "tls") > 0, "the system store does not know the throw-away CA: " + r.errors());
        assertEquals(0L, errors(r, "connect") + errors(r, "read"), r.errors().toString());
    }
}
