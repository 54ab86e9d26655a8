package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loadlab.workload.Workload;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The expect check before the first round: what it sends, and the one line it gives on a mismatch. */
class PreflightTest {

    @Test
    void theFirstRequestsPathTakesSeqZeroAndTheLowBound() {
        assertEquals("/api/orders/0", Preflight.firstPath("/api/orders/{seq}"));
        assertEquals("/kv/k10?x=0", Preflight.firstPath("/kv/k{rand:10-99}?x={seq}"));
        assertEquals("/plain", Preflight.firstPath("/plain"));
    }

    @Test
    void containsFindsOverlappingPrefixes() {
        assertTrue(Preflight.contains("aaab".getBytes(StandardCharsets.UTF_8), "aab".getBytes(StandardCharsets.UTF_8)));
        assertFalse(Preflight.contains("abab".getBytes(StandardCharsets.UTF_8), "aab".getBytes(StandardCharsets.UTF_8)));
        assertTrue(Preflight.contains("x".getBytes(StandardCharsets.UTF_8), new byte[0]));
    }

    @Test
    void aMatchingAnswerPassesAndEachMismatchIsOneLineNamingSubjectWorkloadAndWhatCameBack() throws IOException {
        AtomicReference<String> seen = new AtomicReference<>("");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            byte[] in = ex.getRequestBody().readAllBytes();
            seen.set(ex.getRequestMethod() + " " + ex.getRequestURI() + " " + ex.getRequestHeaders().getFirst("X-Token")
                    + " " + new String(in, StandardCharsets.UTF_8));
            byte[] out = "{\"id\": 7}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(ex.getRequestURI().getPath().startsWith("/missing") ? 404 : 201, out.length);
            ex.getResponseBody().write(out);
            ex.close();
        });
        server.start();
        try {
            int port = server.getAddress().getPort();
            Workload good = workload("create", "/orders/{seq}", Set.of(201), "\"id\"");
            assertEquals(Optional.empty(), Preflight.check("api@HEAD", "127.0.0.1", port, List.of(good)));
            assertEquals("POST /orders/0 abc {\"qty\": 1}", seen.get());

            Optional<String> status = Preflight.check("api@v1", "127.0.0.1", port,
                    List.of(good, workload("list", "/missing", Set.of(200), "\"id\"")));
            assertEquals(Optional.of("subject api@v1, workload list (POST /missing): expected status 200, got 404 with"
                    + " body '{\"id\": 7}' (9 bytes)"), status);

            Optional<String> body = Preflight.check("api@v1", "127.0.0.1", port,
                    List.of(workload("create", "/orders/{seq}", Set.of(201), "\"order\"")));
            assertTrue(body.orElseThrow().contains("expected a body containing '\"order\"', got 201 with body '{\"id\": 7}'"),
                    body.get());
            assertFalse(body.get().contains("\n"));
        } finally {
            server.stop(0);
        }
    }

    private static Workload workload(String name, String path, Set<Integer> status, String contains) {
        return new Workload(name, name, "POST", path, List.of("X-Token: abc", "Content-Type: application/json"),
                new Workload.Literal("{\"qty\": 1}".getBytes(StandardCharsets.UTF_8)), status, OptionalLong.empty(),
                Optional.of(contains), Optional.empty());
    }
}
