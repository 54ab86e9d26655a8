package io.loadlab.subject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadlab.subject.ContractClient.Reply;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Checks a running subject against the subject contract, endpoint by endpoint, for the workloads
 * its manifest claims, in the protocol of its variant: every answer must also have come over that
 * protocol (HTTP/2 for {@code h2-tls} and {@code h2c}, HTTP/1.1 otherwise; TLS with a certificate the
 * throw-away CA signed for the TLS ones). Used by {@code loadlab subjects --check} and by the contract
 * tests. Not thread-safe; close it to free its client.
 */
public final class ContractCheck implements AutoCloseable {

    /** The outcome of one check: {@code problem} is empty when it passed. */
    public record Result(String check, String problem) {
        public boolean passed() {
            return problem.isEmpty();
        }
    }

    /** The slow request's delays, ms: the first, then the retry's. */
    private static final int[] SLOW_MS = {400, 2000};
    private static final String BLOCKED = "a quick request waited for ";

    private final ContractClient client;
    private final String protocol;

    /**
     * @param port   where the subject listens on 127.0.0.1
     * @param caCert the throw-away CA that signed its certificate, for the TLS protocols
     * @throws IOException when an h2c connection cannot be made
     */
    public ContractCheck(ServedProtocol served, int port, Optional<Path> caCert) throws IOException {
        this.client = served == ServedProtocol.H2C ? new H2cContractClient(port)
                : new JdkContractClient(served, port, caCert);
        this.protocol = served.http2() ? "h2" : "http/1.1";
    }

    @Override
    public void close() {
        client.close();
    }

    /** Runs every check that the claimed workloads imply. */
    public List<Result> run(Set<String> workloads) {
        List<Result> out = new ArrayList<>();
        if (workloads.contains("plaintext")) {
            out.add(check("GET /plaintext", this::plaintext));
        }
        if (workloads.contains("json")) {
            out.add(check("GET /json", this::json));
        }
        if (workloads.contains("bytes-64k")) {
            out.add(check("GET /bytes/65536", () -> bytes(65536)));
        }
        if (workloads.contains("bytes-1m")) {
            out.add(check("GET /bytes/1048576", () -> bytes(1 << 20)));
        }
        if (workloads.contains("put-1k") || workloads.contains("get-kv")) {
            out.add(check("PUT then GET /kv/{key}, 404 when absent", this::kv));
        }
        if (workloads.contains("delay-10ms")) {
            out.add(check("GET /delay/{ms} without blocking others", () -> delay(workloads.contains("plaintext"))));
        }
        return out;
    }

    private interface Body {
        String run() throws IOException, InterruptedException;
    }

    private static Result check(String name, Body body) {
        try {
            return new Result(name, body.run());
        } catch (IOException e) {
            return new Result(name, "request failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(name, "interrupted");
        }
    }

    /** A GET whose answer must have come over the variant's protocol. */
    private Reply get(String path) throws IOException, InterruptedException {
        return over(client.get(path));
    }

    private Reply over(Reply r) throws IOException {
        if (!r.protocol().equals(protocol)) {
            throw new IOException("answered over " + r.protocol() + ", expected " + protocol);
        }
        return r;
    }

    private static String expect(Reply r, int status, String contentType) {
        if (r.status() != status) {
            return "status " + r.status() + ", expected " + status;
        }
        String ct = r.contentType();
        if (contentType != null && !ct.toLowerCase(Locale.ROOT).startsWith(contentType)) {
            return "content-type '" + ct + "', expected " + contentType;
        }
        return "";
    }

    private String plaintext() throws IOException, InterruptedException {
        Reply r = get("/plaintext");
        String p = expect(r, 200, "text/plain");
        String body = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
        return !p.isEmpty() ? p : body.equals("Hello, World!") ? "" : "body '" + body + "', expected 'Hello, World!'";
    }

    private String json() throws IOException, InterruptedException {
        Reply r = get("/json");
        String p = expect(r, 200, "application/json");
        if (!p.isEmpty()) {
            return p;
        }
        // A subject's answer, not Loadlab's JSON; subject does not depend on data, whose mapper is the shared one.
        JsonNode n = new ObjectMapper().readTree(r.body());
        return n.isObject() && n.size() == 1 && "Hello, World!".equals(n.path("message").asText())
                ? "" : "body " + n + ", expected {\"message\":\"Hello, World!\"}";
    }

    private String bytes(int n) throws IOException, InterruptedException {
        Reply a = get("/bytes/" + n);
        String p = expect(a, 200, "application/octet-stream");
        if (!p.isEmpty()) {
            return p;
        }
        if (a.body().length != n) {
            return "body of " + a.body().length + " bytes, expected " + n;
        }
        Reply b = get("/bytes/" + n);
        return Arrays.equals(a.body(), b.body()) ? "" : "two answers differ: the bytes must be deterministic";
    }

    private String kv() throws IOException, InterruptedException {
        String key = "contract" + ThreadLocalRandom.current().nextLong(1_000_000_000L);
        byte[] value = new byte[1024];
        ThreadLocalRandom.current().nextBytes(value);
        Reply put = over(client.put("/kv/" + key, value));
        if (put.status() != 201 && put.status() != 204 && put.status() != 200) {
            return "PUT answered " + put.status() + ", expected 201 or 204";
        }
        Reply got = get("/kv/" + key);
        if (got.status() != 200 || !Arrays.equals(got.body(), value)) {
            return "GET after PUT answered " + got.status() + " with " + got.body().length
                    + " bytes, expected 200 with the 1024 bytes stored";
        }
        Reply absent = get("/kv/absent" + key);
        return absent.status() == 404 ? "" : "GET of an absent key answered " + absent.status() + ", expected 404";
    }

    private String delay(boolean hasPlaintext) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Reply r = get("/delay/10");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (r.status() != 200 || ms < 10) {
            return "GET /delay/10 answered " + r.status() + " after " + ms + " ms, expected 200 after at least 10 ms";
        }
        // A slow request must not hold up a quick one: the quick answer arrives while the slow one
        // waits. A quick answer that came late on a busy machine (a cold JIT, a TLS handshake) is
        // given a second try beside a longer delay; a delay that blocks fails both.
        String blocked = "";
        for (int slowMs : SLOW_MS) {
            blocked = slowBesideQuick(slowMs, hasPlaintext);
            if (!blocked.startsWith(BLOCKED)) {
                return blocked;
            }
        }
        return blocked;
    }

    /**
     * Empty when a quick request sent beside {@code /delay/slowMs} was answered before that delay was
     * over, and both were 200. The time decides, not which future completed first: a server that
     * blocks cannot answer the quick request sooner than the delay after the slow one was sent,
     * while the client may complete the two futures in either order.
     */
    private String slowBesideQuick(int slowMs, boolean hasPlaintext) throws IOException, InterruptedException {
        String path = "/delay/" + slowMs;
        long sent = System.nanoTime();
        CompletableFuture<Reply> slow = client.getAsync(path);
        // A head start of a quarter of its delay, so that the slow request is at the server before the
        // quick one is sent: the client writes it on a thread of its own, and a quick request that got
        // there first would pass a server that blocks.
        Thread.sleep(slowMs / 4);
        Reply quick = get(hasPlaintext ? "/plaintext" : "/delay/0");
        long quickMs = (System.nanoTime() - sent) / 1_000_000;
        try {
            Reply s = over(slow.get());
            if (s.status() != 200) {
                return "GET " + path + " answered " + s.status();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            return "GET " + path + " failed: " + e.getCause();
        }
        if (quick.status() != 200) {
            return "the quick request answered " + quick.status();
        }
        return quickMs >= slowMs ? BLOCKED + path + " (" + quickMs + " ms): the delay blocks other requests" : "";
    }
}
