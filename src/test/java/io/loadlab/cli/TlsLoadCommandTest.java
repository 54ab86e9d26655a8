package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadlab.load.TestNginx;
import io.loadlab.subject.ThrowawayCa;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadlab load https://...} against nginx servers the test starts, one per certificate: a good
 * one, an expired one, one for another host, and a self-signed one. A refused certificate is one line
 * on standard error that says what to do, and exit code 1; the JSON carries the TLS and HTTP/2 fields.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsLoadCommandTest {

    private static final int GOOD = 0;
    private static final int EXPIRED = 1;
    private static final int OTHER_HOST = 2;
    private static final int SELF_SIGNED = 3;

    @TempDir
    static Path dir;
    private static ThrowawayCa ca;
    private static TestNginx nginx;

    @BeforeAll
    static void startNginx() throws Exception {
        assumeTrue(TestNginx.available(), "needs nginx (apt-get install nginx-light)");
        assumeTrue(ThrowawayCa.available(), "needs openssl");
        ca = ThrowawayCa.create(dir.resolve("ca"));
        Instant now = Instant.now();
        List<ThrowawayCa.ServerFiles> certs = List.of(ca.issue("good"),
                ca.issue("expired", List.of("DNS:localhost", "IP:127.0.0.1"), now.minusSeconds(10 * 86_400),
                        now.minusSeconds(86_400)),
                ca.issue("other", List.of("DNS:other.example"), now.minusSeconds(3600), now.plusSeconds(86_400)),
                ThrowawayCa.selfSigned(dir.resolve("ca"), "self"));
        nginx = TestNginx.start(dir.resolve("nginx"), certs.stream().map(c -> new TestNginx.Site(c, 1_000_000)).toList());
    }

    @AfterAll
    static void stopNginx() throws InterruptedException {
        if (nginx != null) {
            nginx.close();
        }
    }

    private static CliRun load(int site, String... options) {
        List<String> args = new java.util.ArrayList<>(List.of("load", "-c", "2", "-n", "200"));
        args.addAll(List.of(options));
        args.add(nginx.url(site, "/plaintext"));
        return CliRun.of(args.toArray(String[]::new));
    }

    /** The one line of a refused run: exit 1, nothing else on standard error, no stack trace. */
    private static String refusal(CliRun r) {
        assertEquals(Main.EXIT_FAILED, r.code(), r.out() + r.err());
        List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(!r.err().contains("\tat "), r.err());
        return lines.get(0);
    }

    @Test
    void anExpiredCertificateSaysWhenAndWhatToDo() {
        String line = refusal(load(EXPIRED, "--cacert", ca.caCert().toString()));
        assertTrue(line.contains("expired on") && line.contains("renew it") && line.contains("--insecure"), line);
    }

    @Test
    void aCertificateForAnotherHostNamesItsHosts() {
        String line = refusal(load(OTHER_HOST, "--cacert", ca.caCert().toString()));
        assertTrue(line.contains("is for other.example, not for 127.0.0.1") && line.contains("use one of those names"),
                line);
    }

    @Test
    void aSelfSignedCertificateWithoutCacertSaysToPassIt() {
        String line = refusal(load(SELF_SIGNED));
        assertTrue(line.contains("self-signed") && line.contains("the system trust store")
                && line.contains("--cacert FILE"), line);
    }

    /**
     * Regression: Netty logged the refused handshake (its multi-line "exceptionCaught() ... reached at
     * the tail of the pipeline" warning with a stack trace) on the process's standard error before the
     * one line. An in-process {@link CliRun} does not see it, as java.util.logging writes to the
     * process's own stream: this runs the command as a user does, in a JVM of its own.
     */
    @Test
    void aRefusedCertificateIsOneLineOnTheProcesssStandardError() throws Exception {
        Path out = dir.resolve("refused.out");
        Path err = dir.resolve("refused.err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "load", "-c", "2", "-n", "200", nginx.url(SELF_SIGNED, "/plaintext"))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the command ended");
        } finally {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String stderr = Files.readString(err);
        assertEquals(Main.EXIT_FAILED, p.exitValue(), stderr);
        List<String> lines = stderr.lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), stderr);
        assertTrue(lines.get(0).startsWith("loadlab: TLS handshake with") && lines.get(0).contains("self-signed"),
                lines.get(0));
    }

    @Test
    void theThrowawayCaIsNotTrustedByTheSystemStore() {
        String line = refusal(load(GOOD));
        assertTrue(line.contains("signed by 'CN=Loadlab throw-away CA'") && line.contains("--cacert"), line);
    }

    @Test
    void insecureSkipsTheChecks() {
        CliRun r = load(EXPIRED, "--insecure");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Requests      200 in"), r.out());
    }

    @Test
    void jsonCarriesTheProtocolTheHandshakesAndHttp2sCounters() throws IOException {
        CliRun r = load(GOOD, "--cacert", ca.caCert().toString(), "--h2", "-m", "10", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("h2", j.get("protocol").asText());
        assertTrue(j.get("tls").asBoolean());
        assertEquals(200, j.get("requests").asLong());
        assertEquals(0, j.get("errors").get("tls").asLong());
        assertEquals(2, j.get("tls_handshake_us").get("count").asLong());
        assertTrue(j.get("tls_handshake_us").get("p50").asLong() > 0);
        JsonNode s = j.get("tls_session");
        assertEquals("TLSv1.3", s.get("version").asText());
        assertEquals(2, s.get("handshakes").asLong());
        assertTrue(s.get("verified").asBoolean());
        assertEquals(10, j.get("h2").get("streams").asInt());
        assertEquals(0, j.get("h2").get("rst_stream").asLong());
        assertEquals(0, j.get("h2").get("goaway").asLong());
    }

    @Test
    void tls12AndItsCiphersAsH2loadNamesThem() throws IOException {
        CliRun r = load(GOOD, "--cacert", ca.caCert().toString(), "--tls-version", "1.2", "--ciphers",
                "ECDHE-ECDSA-AES128-GCM-SHA256", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(r.out()).get("tls_session");
        assertEquals("TLSv1.2", s.get("version").asText());
        assertEquals("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", s.get("cipher").asText());
    }

    @Test
    void optionsThatContradictAreUsageErrors() {
        CliRun h2c = load(GOOD, "--h2c");
        assertEquals(Main.EXIT_USAGE, h2c.code());
        assertTrue(h2c.err().contains("--h2c is HTTP/2 over plain TCP"), h2c.err());
        CliRun both = load(GOOD, "--insecure", "--cacert", ca.caCert().toString());
        assertEquals(Main.EXIT_USAGE, both.code());
        assertTrue(both.err().contains("contradict"), both.err());
        CliRun streams = CliRun.of("load", "-m", "4", "-n", "1", "http://127.0.0.1:1/");
        assertEquals(Main.EXIT_USAGE, streams.code());
        assertTrue(streams.err().contains("needs HTTP/2"), streams.err());
    }

    @Test
    void agentsRefuseTlsAndHttp2InsteadOfRunningPlainHttp11() {
        // The agents' spec has no protocol or TLS options: a run on them would quietly be plain HTTP/1.1.
        for (String[] args : List.of(new String[] {"--h2c", "http://127.0.0.1:1/"},
                new String[] {"--insecure", "https://127.0.0.1:1/"})) {
            List<String> all = new java.util.ArrayList<>(List.of("load", "-n", "1", "--agents", "127.0.0.1:1",
                    "--secret-file", "/nonexistent/secret"));
            all.addAll(List.of(args));
            CliRun r = CliRun.of(all.toArray(String[]::new));
            assertEquals(Main.EXIT_USAGE, r.code(), r.err());
            assertTrue(r.err().contains("--agents run plain HTTP/1.1 only"), r.err());
        }
    }
}
