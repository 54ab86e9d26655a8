package io.loadlab.workload;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A named request template with what a correct answer looks like.
 *
 * @param name            short name used in manifests, patterns and the data ({@code put-1k})
 * @param description     one line for listings
 * @param method          HTTP method
 * @param path            request path, may hold {@code {rand:LO-HI}} and {@code {seq}}
 * @param headers         extra request headers as {@code Name: value} lines, in order
 * @param body            the request body: a filler of a size, or given bytes
 * @param expectedStatus  statuses that count as correct answers
 * @param expectedBody    exact answer body length in bytes, when fixed
 * @param bodyContains    text every correct answer's body holds (UTF-8), when given; an answer
 *                        without it counts in {@code errors_body}
 * @param preload         requests to send before the measured window (for example the keys a
 *                        read workload reads), not measured
 */
public record Workload(String name, String description, String method, String path, List<String> headers,
                       RequestBody body, Set<Integer> expectedStatus, OptionalLong expectedBody,
                       Optional<String> bodyContains, Optional<Preload> preload) {

    /** A request's body: none or a filler of printable bytes ({@link Filler}), or given bytes ({@link Literal}). */
    public sealed interface RequestBody permits Filler, Literal {
        /** Its length, bytes. */
        int size();
    }

    /** {@code bytes} printable filler bytes (0 for no body), made by the engine. */
    public record Filler(int bytes) implements RequestBody {
        @Override
        public int size() {
            return bytes;
        }
    }

    /** Exactly these bytes (a project's {@code body} or {@code body-file}). */
    public record Literal(byte[] bytes) implements RequestBody {
        public Literal {
            bytes = bytes.clone();
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        @Override
        public int size() {
            return bytes.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Literal l && Arrays.equals(bytes, l.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "Literal[" + bytes.length + " bytes]";
        }
    }

    /**
     * Keys written before a run: {@code PUT pathPrefix + i} with a body of {@code bodySize} bytes
     * for i from 0 to count - 1.
     */
    public record Preload(String pathPrefix, int count, int bodySize) {}

    /** A workload of the bundled catalogue's kind: no extra headers, a filler body of {@code bodySize} bytes. */
    public Workload(String name, String description, String method, String path, int bodySize,
                    Set<Integer> expectedStatus, OptionalLong expectedBody, Optional<Preload> preload) {
        this(name, description, method, path, List.of(), new Filler(bodySize), expectedStatus, expectedBody,
                Optional.empty(), preload);
    }

    public Workload {
        headers = List.copyOf(headers);
        expectedStatus = Set.copyOf(expectedStatus);
        if (expectedStatus.isEmpty()) {
            throw new IllegalArgumentException("workload " + name + " needs at least one expected status");
        }
    }

    /** The request body's length, bytes (0 for none). */
    public int bodySize() {
        return body.size();
    }

    /** Whether it is one of the bundled catalogue's, which every engine can send. */
    public boolean plain() {
        return headers.isEmpty() && body instanceof Filler && bodyContains.isEmpty();
    }

    /** The built-in workloads, in listing order. */
    public static List<Workload> builtin() {
        return List.of(
                new Workload("plaintext", "GET /plaintext: 13 bytes of text", "GET", "/plaintext", 0,
                        Set.of(200), OptionalLong.of(13), Optional.empty()),
                new Workload("json", "GET /json: a 27-byte JSON object", "GET", "/json", 0,
                        Set.of(200), OptionalLong.of(27), Optional.empty()),
                new Workload("bytes-64k", "GET /bytes/65536: 64 KiB body", "GET", "/bytes/65536", 0,
                        Set.of(200), OptionalLong.of(65536), Optional.empty()),
                new Workload("bytes-1m", "GET /bytes/1048576: 1 MiB body", "GET", "/bytes/1048576", 0,
                        Set.of(200), OptionalLong.of(1 << 20), Optional.empty()),
                new Workload("put-1k", "PUT /kv/{key}: 1 KiB bodies over 10,000 random keys", "PUT",
                        "/kv/k{rand:0-9999}", 1024, Set.of(200, 201, 204), OptionalLong.empty(), Optional.empty()),
                new Workload("get-kv", "GET /kv/{key}: 1 KiB values of 1,000 keys written before the window", "GET",
                        "/kv/g{rand:0-999}", 0, Set.of(200), OptionalLong.of(1024),
                        Optional.of(new Preload("/kv/g", 1000, 1024))),
                new Workload("delay-10ms", "GET /delay/10: answered after 10 ms", "GET", "/delay/10", 0,
                        Set.of(200), OptionalLong.empty(), Optional.empty()));
    }

    /** Names of the built-in workloads. */
    public static Set<String> builtinNames() {
        return builtin().stream().map(Workload::name).collect(java.util.stream.Collectors.toUnmodifiableSet());
    }
}
