package io.loadlab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loadlab.engine.EngineException;
import io.loadlab.engine.EngineResult;
import io.loadlab.engine.RunSpec;
import io.loadlab.load.IntervalSample;
import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.Warmup;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two agents in this JVM on 127.0.0.1 and the {@link AgentEngine} as the runner uses it: no root
 * needed, so these run on every machine. (Both agents' engines share this JVM's CPUs and threads:
 * their CPU figures are not asserted here.)
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AgentsInProcessTest {

    @TempDir
    Path dir;
    private HttpServer server;
    private final AtomicLong served = new AtomicLong();
    private final List<Agent> agents = new ArrayList<>();
    private final List<Thread> serving = new ArrayList<>();
    private final List<ByteArrayOutputStream> logs = new CopyOnWriteArrayList<>();
    private Path secret;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", x -> {
            served.incrementAndGet();
            byte[] b = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        server.start();
        secret = TestSecrets.write(dir.resolve("secret"), "the in-process agents' secret\n");
        for (int k = 0; k < 2; k++) {
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            logs.add(log);
            Agent a = Agent.start(new HostPort("127.0.0.1", freePort()), Secret.read(secret),
                    new PrintStream(log, true, StandardCharsets.UTF_8), Optional.empty(), Optional.empty());
            agents.add(a);
            Thread t = new Thread(a::serve, "test-agent-" + k);
            t.start();
            serving.add(t);
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        try {
            agents.forEach(Agent::close);
            for (Thread t : serving) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertFalse(t.isAlive(), t.getName() + " still serves after its agent was closed");
            }
        } finally {
            if (server != null) {
                server.stop(0);
                ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
            }
        }
    }

    private AgentEngine engine(Path secretFile) {
        return new AgentEngine(new AgentSet(agents.stream().map(Agent::listen).toList(), secretFile, Optional.empty()));
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/plaintext";
    }

    @Test
    void aRequestCountIsSplitAndEveryAnswerMergedOnce() {
        LoadSpec spec = LoadSpec.builder().url(url()).connections(4).requests(2001).build();
        EngineResult r = engine(secret).run(RunSpec.inProcess(spec), LoadListener.NONE);
        assertEquals("agents", r.engine());
        assertEquals(2001, r.requests());
        assertEquals(2001, served.get());
        assertEquals(2001, r.histogram().orElseThrow().getTotalCount());
        assertEquals(2, r.parts().size());
        long sum = r.parts().stream().mapToLong(p -> Long.parseLong(p.values().get("requests"))).sum();
        assertEquals(2001, sum);
        assertTrue(r.parts().stream().allMatch(p -> p.values().get("status").equals("ok")));
        assertTrue(r.failure().isEmpty());
    }

    @Test
    void aSteadyWarmupIsDecidedOnTheMergedSecondsAndTheWindowHasItsLength() {
        List<IntervalSample> heard = new CopyOnWriteArrayList<>();
        CountDownLatch window = new CountDownLatch(1);
        LoadSpec spec = LoadSpec.builder().url(url()).connections(4).duration(Duration.ofSeconds(2))
                .warmup(new Warmup.Steady(Duration.ofSeconds(2), Duration.ofSeconds(5))).build();
        EngineResult r = engine(secret).run(RunSpec.inProcess(spec), new LoadListener() {
            @Override
            public void windowStarted() {
                window.countDown();
            }

            @Override
            public void interval(IntervalSample s) {
                heard.add(s);
            }
        });
        assertEquals(0, window.getCount());
        assertEquals(2, r.intervals().size(), "the window's seconds");
        assertEquals(heard.size(), r.intervals().size());
        assertTrue(r.warmup().seconds() >= 2 && r.warmup().seconds() <= 5.5, "warm-up " + r.warmup().seconds());
        assertTrue(r.warmup().steady().isPresent());
        assertEquals(r.requests(), heard.stream().mapToLong(IntervalSample::requests).sum());
        double cpuSeconds = 2.0 * Runtime.getRuntime().availableProcessors();
        for (EngineResult.Part p : r.parts()) {
            String steal = p.values().get("steal_s");
            assertTrue(steal != null && Double.parseDouble(steal) >= 0 && Double.parseDouble(steal) <= cpuSeconds + 0.05,
                    "each agent's steal over the window, at most its CPUs' time: " + p.values());
        }
    }

    @Test
    void anAgentLostMidRunMakesTheRunNotCountAndIsNamed() throws InterruptedException {
        LoadSpec spec = LoadSpec.builder().url(url()).connections(4).duration(Duration.ofSeconds(20)).build();
        // Mid-run: once the window has a merged second (lost before one, the run measured nothing).
        CountDownLatch measured = new CountDownLatch(1);
        Thread killer = new Thread(() -> {
            try {
                measured.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            agents.get(1).close(); // by then (or after 60 s, when the run fails on its own anyway)
        });
        killer.start();
        EngineResult r = engine(secret).run(RunSpec.inProcess(spec), new LoadListener() {
            @Override
            public void interval(IntervalSample s) {
                measured.countDown();
            }
        });
        killer.join();
        String lost = agents.get(1).listen().toString();
        assertTrue(r.failure().orElseThrow().contains("agent " + lost), r.failure().get());
        assertEquals("lost", r.parts().get(1).values().get("status"));
        assertEquals("stopped", r.parts().get(0).values().get("status"));
        assertTrue(r.durationSeconds() < 20, "the other agent was stopped, not left loading");
    }

    @Test
    void aCoordinatorWithoutTheSecretIsRefusedAndTheRefusalLogged() throws IOException {
        Path wrong = TestSecrets.write(dir.resolve("wrong"), "a different secret, long enough\n");
        // A refused coordinator waits out its connect timeout (the load's, plus 5 s): keep it short.
        LoadSpec spec = LoadSpec.builder().url(url()).connections(2).duration(Duration.ofSeconds(1))
                .connectTimeout(Duration.ofSeconds(1)).build();
        EngineException e = assertThrows(EngineException.class,
                () -> engine(wrong).run(RunSpec.inProcess(spec), LoadListener.NONE));
        assertTrue(e.getMessage().contains("agent " + agents.get(0).listen()), e.getMessage());
        assertTrue(e.getMessage().contains("--secret-file"), e.getMessage());
        assertTrue(logs.get(0).toString(StandardCharsets.UTF_8).contains("refused client 127.0.0.1:"),
                logs.get(0).toString(StandardCharsets.UTF_8));
        assertFalse(served.get() > 0, "nothing was loaded");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
