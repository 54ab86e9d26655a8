package io.loadlab.subject;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The contract check's client over HTTP/1.1, HTTPS and h2 over TLS (ALPN): the JDK's {@code HttpClient},
 * trusting the experiment's throw-away CA and checking the host name as any client would.
 */
final class JdkContractClient implements ContractClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient client;
    private final String base;

    /** @param caCert the CA to trust for the TLS protocols */
    JdkContractClient(ServedProtocol protocol, int port, Optional<Path> caCert) {
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .version(protocol.http2() ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1);
        if (protocol.tls()) {
            b.sslContext(trusting(caCert.orElseThrow(() -> new SubjectException("a TLS variant needs its CA certificate"))));
        }
        this.client = b.build();
        this.base = (protocol.tls() ? "https://localhost:" : "http://127.0.0.1:") + port;
    }

    private static SSLContext trusting(Path caCert) {
        try {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            try (var in = Files.newInputStream(caCert)) {
                ks.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            f.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, f.getTrustManagers(), null);
            return ctx;
        } catch (IOException | GeneralSecurityException e) {
            throw new SubjectException("cannot trust the CA " + caCert + ": " + e.getMessage(), e);
        }
    }

    private static Reply reply(HttpResponse<byte[]> r) {
        return new Reply(r.statusCode(), r.headers().firstValue("content-type").orElse(""), r.body(),
                r.version() == HttpClient.Version.HTTP_2 ? "h2" : "http/1.1");
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT);
    }

    @Override
    public Reply get(String path) throws IOException, InterruptedException {
        return reply(client.send(request(path).build(), HttpResponse.BodyHandlers.ofByteArray()));
    }

    @Override
    public Reply put(String path, byte[] body) throws IOException, InterruptedException {
        return reply(client.send(request(path).PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofByteArray()));
    }

    @Override
    public CompletableFuture<Reply> getAsync(String path) {
        return client.sendAsync(request(path).build(), HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(JdkContractClient::reply);
    }

    @Override
    public void close() {
        // The JDK 17 client has no close; its threads end with it.
    }
}
