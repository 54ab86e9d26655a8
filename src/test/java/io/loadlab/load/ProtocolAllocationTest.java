package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadlab.subject.ThrowawayCa;
import io.netty.util.ResourceLeakDetector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the event loops allocate per request over TLS and HTTP/2, in a steady window
 * ({@code ThreadMXBean.getThreadAllocatedBytes} over the loops, divided by the answers; no timer).
 * {@link AllocationTest} holds HTTP/1.1 at nothing per request. Over h2 the codec allocates per
 * request (Netty's stream state, its flow controllers' per-stream state, the decoded response
 * headers, the HPACK entries nginx's responses add to the dynamic table, promises and slices of the
 * frames); over TLS the SslHandler allocates per write (a promise notifier) and per record. These
 * bounds hold those costs where they were measured (README, "Protocols vs h2load and wrk"), so that a
 * change that allocates more per request fails here.
 *
 * <p>h2c runs against a Netty h2c server in this JVM (its allocations are on its own thread, not
 * counted); h1-tls and h2-tls against an nginx started with a throw-away CA, stopped by pid.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS) // a hang guard, not a speed target
class ProtocolAllocationTest {

    /**
     * h2c against the test's Netty server, 10 streams per connection: 928 bytes measured with the
     * engine's own HPACK decoder (1,088 to 1,096 with Netty's).
     */
    static final double H2C_BOUND_BYTES = 1_200;
    /**
     * h2 over TLS against nginx, 10 streams per connection: 1,305 bytes measured with the engine's own
     * HPACK decoder (1,891 to 2,031 with Netty's, whose decoded fields and table entries the answers'
     * incrementally indexed headers made).
     */
    static final double H2_TLS_BOUND_BYTES = 1_700;
    /**
     * HTTP/1.1 over TLS against nginx: 456 bytes measured, all in Netty's SslHandler and BoringSSL
     * engine (per record: a {@code DirectByteBuffer} view of each buffer, a promise, an
     * {@code SSLEngineResult}; per write a promise notifier).
     */
    static final double H1_TLS_BOUND_BYTES = 600;

    @TempDir
    Path dir;

    @Test
    void h2cAllocatesAboutAKilobytePerRequestInNettysCodec() throws Exception {
        try (H2TestServer server = H2TestServer.start()) {
            double perRequest = bytesPerRequest(LoadSpec.builder().url(server.url("/plaintext"))
                    .protocol(Protocol.H2C).streams(10));
            assertTrue(perRequest < H2C_BOUND_BYTES, message("h2c", perRequest, H2C_BOUND_BYTES));
        }
    }

    @Test
    void tlsAllocatesABoundedAmountPerRequestOverHttp11AndH2() throws Exception {
        assumeTrue(TestNginx.available(), "needs nginx (apt-get install nginx-light)");
        assumeTrue(ThrowawayCa.available(), "needs openssl");
        ThrowawayCa ca = ThrowawayCa.create(dir.resolve("ca"));
        try (TestNginx nginx = TestNginx.start(dir.resolve("nginx"),
                List.of(new TestNginx.Site(ca.issue("server"), 1_000_000)))) {
            TlsOptions tls = new TlsOptions(Optional.of(ca.caCert()), false, true, Optional.empty(), List.of(),
                    List.of(), TlsOptions.Provider.AUTO);
            double h1 = bytesPerRequest(LoadSpec.builder().url(nginx.url("/plaintext")).tls(tls));
            double h2 = bytesPerRequest(LoadSpec.builder().url(nginx.url("/plaintext")).tls(tls)
                    .protocol(Protocol.H2).streams(10));
            assertTrue(h1 < H1_TLS_BOUND_BYTES, message("h1-tls", h1, H1_TLS_BOUND_BYTES));
            assertTrue(h2 < H2_TLS_BOUND_BYTES, message("h2-tls", h2, H2_TLS_BOUND_BYTES));
        }
    }

    private static String message(String what, double perRequest, double bound) {
        return String.format(Locale.ROOT, "%s: %.0f bytes allocated per request, bound %.0f", what, perRequest, bound);
    }

    /** A closed-loop run of 8 connections on 1 loop: its loops' bytes per answer in the steady window. */
    private static double bytesPerRequest(LoadSpec.Builder b) {
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try {
            // The fixed warm-up gives C2 time to compile the hot path (see AllocationTest).
            LoadResult r = NettyLoad.run(b.connections(8).threads(1).connectTimeout(Duration.ofSeconds(5))
                    .warmup(Duration.ofSeconds(3)).duration(Duration.ofSeconds(3)).build());
            assertEquals(0, r.errors().total(), r.errors().toString());
            assertTrue(r.requests() > 5_000, "enough answers to spread a snapshot's bytes over: " + r);
            double perRequest = r.loopAllocatedBytesPerRequest().orElseThrow();
            System.out.printf(Locale.ROOT, "ProtocolAllocationTest: %s %s: %.1f bytes per request (%d requests)%n",
                    r.protocol().label(), r.tls().isPresent() ? "tls" : "plain", perRequest, r.requests());
            return perRequest;
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }
}
