package io.loadlab.load;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.internal.tcnative.SSL;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

/**
 * The TLS side of one {@code https://} run: one client {@link SslContext} for every connection (so
 * one session cache: later connections resume the sessions of earlier ones), built from the spec's
 * {@link TlsOptions}. BoringSSL (netty-tcnative) where its native library loads, else the JDK's
 * provider; {@link #provider()} says which, for the JSON. Thread-safe: each event loop makes its
 * handlers from it.
 */
final class TlsClient {

    /** TLS 1.3's suites, as OpenSSL and the JDK name them: the defaults when only --ciphers is given. */
    private static final List<String> TLS13_DEFAULTS = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256");

    private final SslContext context;
    private final SslProvider provider;
    private final Target target;
    private final boolean resume;
    private final long handshakeTimeoutMillis;
    /**
     * With the JDK provider and resumption off, each connection's session is cached under a port no
     * later connection asks for (the JDK's client cache cannot be turned off).
     */
    private final AtomicInteger uncachedPort = new AtomicInteger(70_000);

    private TlsClient(SslContext context, SslProvider provider, Target target, boolean resume, long handshakeTimeoutMillis) {
        this.context = context;
        this.provider = provider;
        this.target = target;
        this.resume = resume;
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
    }

    /**
     * The context for {@code spec}'s TLS options and protocol (ALPN offers {@code h2} for
     * {@link Protocol#H2}, {@code http/1.1} otherwise).
     *
     * @throws LoadException (usage) for a provider that cannot load, an unknown cipher, an unreadable CA file
     */
    static TlsClient of(LoadSpec spec) {
        TlsOptions o = spec.tls();
        SslProvider provider = provider(o.provider());
        SslContextBuilder b = SslContextBuilder.forClient().sslProvider(provider)
                .protocols(o.version().map(v -> List.of(v.protocolName())).orElse(List.of("TLSv1.3", "TLSv1.2")))
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        spec.protocol() == Protocol.H2 ? ApplicationProtocolNames.HTTP_2 : ApplicationProtocolNames.HTTP_1_1));
        if (o.insecure()) {
            b.trustManager(InsecureTrustManagerFactory.INSTANCE).endpointIdentificationAlgorithm(null);
        } else {
            b.trustManager(CertificateCheck.of(o.caCert())).endpointIdentificationAlgorithm("HTTPS");
        }
        List<String> ciphers = ciphers(o, provider);
        if (!ciphers.isEmpty()) {
            b.ciphers(ciphers, IdentityCipherSuiteFilter.INSTANCE);
        }
        SslContext context;
        try {
            context = b.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw LoadException.usage("cannot set up TLS with " + label(provider) + ": " + e.getMessage()
                    + (ciphers.isEmpty() ? "" : " (check --ciphers / --tls13-ciphers)"));
        }
        checkCiphers(context, ciphers, provider);
        if (!o.resume() && context.sessionContext() instanceof OpenSslSessionContext s) {
            s.setSessionCacheEnabled(false);
        }
        return new TlsClient(context, provider, spec.request().target(), o.resume(), spec.connectTimeout().toMillis());
    }

    private static SslProvider provider(TlsOptions.Provider p) {
        return switch (p) {
            case AUTO -> OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
            case JDK -> SslProvider.JDK;
            case OPENSSL -> {
                if (!OpenSsl.isAvailable()) {
                    throw LoadException.usage("BoringSSL (netty-tcnative) cannot load here ("
                            + OpenSsl.unavailabilityCause() + "); use --tls-provider jdk");
                }
                yield SslProvider.OPENSSL;
            }
        };
    }

    /** The suites to offer, both versions' together as Netty takes them; empty for the provider's defaults. */
    private static List<String> ciphers(TlsOptions o, SslProvider provider) {
        if (o.ciphers().isEmpty() && o.tls13Ciphers().isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(o.tls13Ciphers());
        boolean offers13 = o.version().map(v -> v == TlsOptions.Version.TLS_1_3).orElse(true);
        if (out.isEmpty() && offers13) {
            out.addAll(TLS13_DEFAULTS);
        }
        if (o.ciphers().isEmpty() && o.version().map(v -> v == TlsOptions.Version.TLS_1_2).orElse(true)) {
            // Only TLS 1.3's were chosen: TLS 1.2 keeps the provider's defaults.
            out.addAll(defaultTls12(provider));
        }
        out.addAll(o.ciphers());
        return out;
    }

    private static List<String> defaultTls12(SslProvider provider) {
        try {
            return SslContextBuilder.forClient().sslProvider(provider).build().cipherSuites().stream()
                    .filter(c -> !TLS13_DEFAULTS.contains(c)).toList();
        } catch (SSLException e) {
            throw LoadException.usage("cannot set up TLS with " + label(provider) + ": " + e.getMessage());
        }
    }

    /** An unknown suite is a usage error, not a silently smaller offer. */
    private static void checkCiphers(SslContext context, List<String> asked, SslProvider provider) {
        List<String> have = context.cipherSuites().stream().map(c -> c.toUpperCase(Locale.ROOT)).toList();
        for (String c : asked) {
            String u = c.toUpperCase(Locale.ROOT);
            // OpenSSL names (ECDHE-RSA-AES128-GCM-SHA256) are kept as such; the JDK reports IANA names.
            if (!have.contains(u) && !(provider == SslProvider.OPENSSL && !u.startsWith("TLS_"))) {
                throw LoadException.usage("cipher suite '" + c + "' is not supported by " + label(provider)
                        + "; supported: " + String.join(":", context.cipherSuites()));
            }
        }
    }

    /** A TLS handler for a new connection: SNI and the host check from the URL's host. */
    SslHandler newHandler(ByteBufAllocator alloc) {
        int port = resume || provider != SslProvider.JDK ? target.port() : uncachedPort.getAndIncrement();
        SslHandler h = context.newHandler(alloc, target.host(), port);
        h.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        return h;
    }

    /**
     * Whether a finished handshake resumed an earlier session. BoringSSL says so exactly; the JDK keeps
     * no such flag, so there a session created before this connection began is a resumed one (creation
     * times are in ms: a resumption within the millisecond of the session's own handshake counts as
     * full, a lower bound). BoringSSL's creation times are in seconds, too coarse for that rule.
     */
    boolean resumed(SSLEngine engine, long connectStartMillis) {
        if (engine instanceof ReferenceCountedOpenSslEngine openssl) {
            return SSL.isSessionReused(openssl.sslPointer());
        }
        return engine.getSession().getCreationTime() < connectStartMillis;
    }

    /** {@code openssl} (netty-tcnative) or {@code jdk}. */
    String provider() {
        return provider == SslProvider.OPENSSL ? "openssl" : "jdk";
    }

    /** The library behind the provider: {@code BoringSSL}, or the JDK's with its version. */
    String library() {
        return provider == SslProvider.OPENSSL ? OpenSsl.versionString()
                : "SunJSSE (Java " + System.getProperty("java.version") + ")";
    }

    private static String label(SslProvider p) {
        return p == SslProvider.OPENSSL ? "BoringSSL" : "the JDK's TLS";
    }
}
