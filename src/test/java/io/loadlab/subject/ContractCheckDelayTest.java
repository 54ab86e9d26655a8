package io.loadlab.subject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract's delay check against two stand-ins that differ in one thing: whether a request
 * waiting in {@code /delay/{ms}} holds up the others. One worker thread that sleeps in the handler
 * blocks; a pool of four does not.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard only
class ContractCheckDelayTest {

    private static List<ContractCheck.Result> check(int workers) throws IOException, InterruptedException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        server.setExecutor(pool);
        server.createContext("/plaintext", x -> answer(x, "Hello, World!"));
        server.createContext("/delay/", x -> {
            try {
                Thread.sleep(Long.parseLong(x.getRequestURI().getPath().substring("/delay/".length())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(x, "delayed");
        });
        server.start();
        try (ContractCheck c = new ContractCheck(ServedProtocol.H1, server.getAddress().getPort(), Optional.empty())) {
            return c.run(Set.of("plaintext", "delay-10ms"));
        } finally {
            server.stop(0);
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "the stand-in's workers stopped");
        }
    }

    private static void answer(HttpExchange x, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        x.getResponseHeaders().set("Content-Type", "text/plain");
        x.sendResponseHeaders(200, b.length);
        x.getResponseBody().write(b);
        x.close();
    }

    private static String delayProblem(List<ContractCheck.Result> results) {
        return results.stream().filter(r -> r.check().startsWith("GET /delay/")).findFirst().orElseThrow().problem();
    }

    @Test
    void aDelayThatHoldsUpOtherRequestsFailsOnTheFirstTryAndTheRetry() throws Exception {
        List<ContractCheck.Result> results = check(1);
        assertEquals("", results.get(0).problem(), "GET /plaintext passes");
        String problem = delayProblem(results);
        assertTrue(problem.matches("a quick request waited for /delay/2000 \\(\\d+ ms\\): the delay blocks other requests"),
                problem);
    }

    @Test
    void aDelayThatWaitsAsideFromOtherRequestsPasses() throws Exception {
        assertEquals("", delayProblem(check(4)));
    }
}
