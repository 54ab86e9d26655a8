package io.loadlab.subject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Checks a running subject against the subject contract, endpoint by endpoint, for the workloads
 * its manifest claims. Used by {@code loadlab subjects --check} and by the contract tests.
 */
public final class ContractCheck {

    /** The outcome of one check: {@code problem} is empty when it passed. */
    public record Result(String check, String problem) {
        public boolean passed() {
            return problem.isEmpty();
        }
    }

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    /** @param base {@code http://127.0.0.1:PORT} */
    public ContractCheck(String base) {
        this.base = base;
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

    private HttpResponse<byte[]> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String expect(HttpResponse<byte[]> r, int status, String contentType) {
        if (r.statusCode() != status) {
            return "status " + r.statusCode() + ", expected " + status;
        }
        String ct = r.headers().firstValue("content-type").orElse("");
        if (contentType != null && !ct.toLowerCase(Locale.ROOT).startsWith(contentType)) {
            return "content-type '" + ct + "', expected " + contentType;
        }
        return "";
    }

    private String plaintext() throws IOException, InterruptedException {
        HttpResponse<byte[]> r = get("/plaintext");
        String p = expect(r, 200, "text/plain");
        String body = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
        return !p.isEmpty() ? p : body.equals("Hello, World!") ? "" : "body '" + body + "', expected 'Hello, World!'";
    }

    private String json() throws IOException, InterruptedException {
        HttpResponse<byte[]> r = get("/json");
        String p = expect(r, 200, "application/json");
        if (!p.isEmpty()) {
            return p;
        }
        JsonNode n = new ObjectMapper().readTree(r.body());
        return n.isObject() && n.size() == 1 && "Hello, World!".equals(n.path("message").asText())
                ? "" : "body " + n + ", expected {\"message\":\"Hello, World!\"}";
    }

    private String bytes(int n) throws IOException, InterruptedException {
        HttpResponse<byte[]> a = get("/bytes/" + n);
        String p = expect(a, 200, "application/octet-stream");
        if (!p.isEmpty()) {
            return p;
        }
        if (a.body().length != n) {
            return "body of " + a.body().length + " bytes, expected " + n;
        }
        HttpResponse<byte[]> b = get("/bytes/" + n);
        return Arrays.equals(a.body(), b.body()) ? "" : "two answers differ: the bytes must be deterministic";
    }

    private String kv() throws IOException, InterruptedException {
        String key = "contract" + ThreadLocalRandom.current().nextLong(1_000_000_000L);
        byte[] value = new byte[1024];
        ThreadLocalRandom.current().nextBytes(value);
        HttpResponse<byte[]> put = client.send(HttpRequest.newBuilder(URI.create(base + "/kv/" + key))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(value)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (put.statusCode() != 201 && put.statusCode() != 204 && put.statusCode() != 200) {
            return "PUT answered " + put.statusCode() + ", expected 201 or 204";
        }
        HttpResponse<byte[]> got = get("/kv/" + key);
        if (got.statusCode() != 200 || !Arrays.equals(got.body(), value)) {
            return "GET after PUT answered " + got.statusCode() + " with " + got.body().length
                    + " bytes, expected 200 with the 1024 bytes stored";
        }
        HttpResponse<byte[]> absent = get("/kv/absent" + key);
        return absent.statusCode() == 404 ? "" : "GET of an absent key answered " + absent.statusCode() + ", expected 404";
    }

    private String delay(boolean hasPlaintext) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        HttpResponse<byte[]> r = get("/delay/10");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (r.statusCode() != 200 || ms < 10) {
            return "GET /delay/10 answered " + r.statusCode() + " after " + ms + " ms, expected 200 after at least 10 ms";
        }
        // A slow request must not hold up a quick one: the quick answer arrives while the slow one waits.
        CompletableFuture<HttpResponse<byte[]>> slow = client.sendAsync(
                HttpRequest.newBuilder(URI.create(base + "/delay/1500")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> quick = get(hasPlaintext ? "/plaintext" : "/delay/0");
        boolean slowDone = slow.isDone();
        try {
            HttpResponse<byte[]> s = slow.get();
            if (s.statusCode() != 200) {
                return "GET /delay/1500 answered " + s.statusCode();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            return "GET /delay/1500 failed: " + e.getCause();
        }
        if (quick.statusCode() != 200) {
            return "the quick request answered " + quick.statusCode();
        }
        return slowDone ? "a quick request waited for /delay/1500: the delay blocks other requests" : "";
    }
}
