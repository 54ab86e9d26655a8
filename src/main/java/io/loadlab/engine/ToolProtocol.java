package io.loadlab.engine;

import io.loadlab.load.Protocol;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What an external tool speaks on its connections: HTTP/1.1 over TCP or TLS, HTTP/2 over TLS (ALPN) or
 * h2c (prior knowledge), with the streams per connection and the certificate to trust.
 *
 * @param protocol HTTP/1.1, h2 (needs {@code tls}) or h2c (needs plain TCP)
 * @param tls      whether the URL is {@code https://}
 * @param streams  HTTP/2 streams per connection (h2load's {@code -m}, oha's {@code -p}), 1 or more; 1 for HTTP/1.1
 * @param caCert   PEM file of the CA oha trusts ({@code --cacert}); wrk and h2load verify no certificate
 * @param insecure whether oha skips the certificate check ({@code --insecure})
 */
public record ToolProtocol(Protocol protocol, boolean tls, int streams, Optional<Path> caCert, boolean insecure) {

    /** Plain HTTP/1.1 over TCP. */
    public static final ToolProtocol H1 = new ToolProtocol(Protocol.HTTP_1_1, false, 1, Optional.empty(), false);

    public ToolProtocol {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(caCert, "caCert");
        if (protocol == Protocol.H2 && !tls || protocol == Protocol.H2C && tls) {
            throw new EngineException(protocol.label() + (tls ? " runs over plain TCP (http://)"
                    : " runs over TLS (https://)"));
        }
        if (streams < 1 || streams > 1 && !protocol.isHttp2()) {
            throw new EngineException("streams per connection: 1 or more, and 1 over HTTP/1.1; got " + streams
                    + " over " + protocol.label());
        }
    }

    /** {@code https} or {@code http}. */
    String scheme() {
        return tls ? "https" : "http";
    }

    @Override
    public String toString() {
        return protocol.label() + (tls && protocol == Protocol.HTTP_1_1 ? " over TLS" : "")
                + (streams > 1 ? ", " + streams + " streams" : "");
    }
}
