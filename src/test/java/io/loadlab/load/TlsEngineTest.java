package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadlab.subject.ThrowawayCa;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The engine over TLS against a real nginx (TLS 1.2 and 1.3, HTTP/2) that the test starts with a
 * throw-away CA's certificate and stops by pid: exact counts and statuses over HTTP/1.1 and h2,
 * session resumption from the handshake counts, with both TLS providers.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsEngineTest {

    @TempDir
    static Path dir;
    private static ThrowawayCa ca;
    private static TestNginx nginx;
    /** nginx closes a connection after this many requests: the engine reconnects, and resumes. */
    private static final int PER_CONNECTION = 10;

    @BeforeAll
    static void startNginx() throws Exception {
        assumeTrue(TestNginx.available(), "needs nginx (apt-get install nginx-light)");
        assumeTrue(ThrowawayCa.available(), "needs openssl");
        ca = ThrowawayCa.create(dir.resolve("ca"));
        ThrowawayCa.ServerFiles cert = ca.issue("server");
        nginx = TestNginx.start(dir.resolve("nginx"), List.of(new TestNginx.Site(cert, PER_CONNECTION),
                new TestNginx.Site(cert, 1_000_000)));
    }

    @AfterAll
    static void stopNginx() throws InterruptedException {
        if (nginx != null) {
            nginx.close();
        }
    }

    /** A run against the nginx that closes connections every {@value #PER_CONNECTION} requests. */
    private static LoadSpec.Builder spec(String path, TlsOptions.Provider provider, Optional<TlsOptions.Version> version,
                                         boolean resume) {
        return spec(0, path, provider, version, resume);
    }

    private static LoadSpec.Builder spec(int site, String path, TlsOptions.Provider provider,
                                         Optional<TlsOptions.Version> version, boolean resume) {
        return LoadSpec.builder().url(nginx.url(site, path))
                .tls(new TlsOptions(Optional.of(ca.caCert()), false, resume, version, List.of(), List.of(), provider));
    }

    @Test
    void httpsCountsEveryAnswerOverHttp11() {
        LoadResult r = NettyLoad.run(spec("/plaintext", TlsOptions.Provider.AUTO, Optional.empty(), true)
                .connections(4).requests(1000).build());
        assertEquals(1000, r.requests());
        assertEquals(Map.of(200, 1000L), r.statusCodes());
        assertEquals(ErrorCounts.NONE, r.errors());
        assertEquals(Protocol.HTTP_1_1, r.protocol());
        assertTrue(r.bytesRead() > 1000L * "Hello, World!".length(), "the bodies are in the bytes read");
        TlsSummary t = r.tls().orElseThrow();
        assertEquals("TLSv1.3", t.version());
        assertTrue(t.handshakes() >= 1000 / PER_CONNECTION, "nginx closes every " + PER_CONNECTION + ": " + t);
        assertEquals(t.handshakes(), t.handshakeTime().getTotalCount());
        assertTrue(r.h2().isEmpty());
    }

    @Test
    void h2CountsEveryStreamAndItsStatus() {
        LoadResult ok = NettyLoad.run(spec(1, "/plaintext", TlsOptions.Provider.AUTO, Optional.empty(), true)
                .protocol(Protocol.H2).streams(10).connections(3).requests(900).build());
        assertEquals(900, ok.requests());
        assertEquals(Map.of(200, 900L), ok.statusCodes());
        assertEquals(ErrorCounts.NONE, ok.errors());
        assertEquals(Protocol.H2, ok.protocol());
        assertEquals(new H2Summary(10, 0, 0, 0), ok.h2().orElseThrow());
        assertEquals(3, ok.tls().orElseThrow().handshakes());
        LoadResult missing = NettyLoad.run(spec(1, "/absent", TlsOptions.Provider.AUTO, Optional.empty(), true)
                .protocol(Protocol.H2).streams(10).connections(3).requests(300).build());
        assertEquals(Map.of(404, 300L), missing.statusCodes());
        assertEquals(300, missing.errors().status());
        assertEquals(300, missing.errors().total());
    }

    @ParameterizedTest(name = "{0} TLS {1}")
    @CsvSource({"OPENSSL, TLS_1_3", "OPENSSL, TLS_1_2", "JDK, TLS_1_3", "JDK, TLS_1_2"})
    void laterConnectionsResumeTheFirstOnesSession(TlsOptions.Provider provider, TlsOptions.Version version) {
        assumeTrue(provider != TlsOptions.Provider.OPENSSL || io.netty.handler.ssl.OpenSsl.isAvailable());
        // One connection at a time: each reconnect comes after the previous session exists.
        LoadResult r = NettyLoad.run(spec("/plaintext", provider, Optional.of(version), true)
                .connections(1).requests(10L * PER_CONNECTION).build());
        TlsSummary t = r.tls().orElseThrow();
        assertEquals(10L * PER_CONNECTION, r.requests(), t.toString());
        assertEquals(version.protocolName(), t.version());
        assertEquals(provider.name().toLowerCase(java.util.Locale.ROOT), t.provider());
        assertTrue(t.handshakes() >= 10, t.toString());
        assertEquals(t.handshakes() - 1, t.resumed(), "every handshake after the first resumed: " + t);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"OPENSSL", "JDK"})
    void noResumeMakesEveryHandshakeFull(TlsOptions.Provider provider) {
        assumeTrue(provider != TlsOptions.Provider.OPENSSL || io.netty.handler.ssl.OpenSsl.isAvailable());
        LoadResult r = NettyLoad.run(spec("/plaintext", provider, Optional.empty(), false)
                .connections(1).requests(5L * PER_CONNECTION).build());
        TlsSummary t = r.tls().orElseThrow();
        assertTrue(t.handshakes() >= 5, t.toString());
        assertEquals(0, t.resumed(), t.toString());
        assertEquals(t.handshakes(), t.full());
    }

    @Test
    void nginxsGoawayEveryTenStreamsLosesOnlyTheStreamsAboveItsLast() {
        LoadResult r = NettyLoad.run(spec("/plaintext", TlsOptions.Provider.AUTO, Optional.empty(), true)
                .protocol(Protocol.H2).streams(4).connections(2).requests(400).build());
        H2Summary h = r.h2().orElseThrow();
        assertTrue(h.goaway() >= 400 / PER_CONNECTION / 2, h.toString());
        assertEquals(400, r.requests() + r.errors().read(), "each request answered or lost");
        assertEquals(r.errors().read(), r.errors().total());
        // nginx leaves gracefully, with a GOAWAY that names no stream and then one with the last.
        long connections = r.tls().orElseThrow().handshakes();
        assertTrue(connections >= 400 / PER_CONNECTION / 2, "new connections after the GOAWAYs: " + connections);
    }

    @Test
    void http2OverPlainHttpIsAUsageError() {
        LoadException e = org.junit.jupiter.api.Assertions.assertThrows(LoadException.class,
                () -> LoadSpec.builder().url("http://127.0.0.1:1/").protocol(Protocol.H2).build());
        assertTrue(e.isUsageError());
        assertTrue(e.getMessage().contains("--h2c"), e.getMessage());
        assertFalse(LoadSpec.builder().url("https://127.0.0.1:1/").protocol(Protocol.H2).streams(4).build()
                .protocol() != Protocol.H2);
    }
}
