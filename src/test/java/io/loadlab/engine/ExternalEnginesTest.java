package io.loadlab.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loadlab.importer.Importers;
import io.loadlab.importer.Tool;
import io.loadlab.host.ProcFs;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** wrk, h2load and oha driven as engines against a JDK HTTP server that records what it was sent. */
@Timeout(value = 2, unit = TimeUnit.MINUTES) // a hang guard only
class ExternalEnginesTest {

    private HttpServer server;
    private ExecutorService pool;
    private final Set<String> methods = ConcurrentHashMap.newKeySet();
    private final Set<String> paths = ConcurrentHashMap.newKeySet();
    private final Set<String> badBodies = ConcurrentHashMap.newKeySet();
    private final AtomicLong answered = new AtomicLong();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        pool = Executors.newFixedThreadPool(4);
        server.setExecutor(pool);
        byte[] expected = ExternalEngines.body(1024);
        server.createContext("/", ex -> {
            methods.add(ex.getRequestMethod());
            paths.add(ex.getRequestURI().getPath());
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readAllBytes();
            }
            if (ex.getRequestMethod().equals("PUT") && !Arrays.equals(body, expected)) {
                badBodies.add(body.length + " bytes");
            }
            byte[] answer = "hello".getBytes();
            ex.sendResponseHeaders(200, answer.length);
            ex.getResponseBody().write(answer);
            ex.close();
            answered.incrementAndGet();
        });
        server.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.stop(0);
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    private ExternalLoad load(Engine engine, String method, String path, int body, Duration d) {
        return new ExternalLoad(engine, method, "127.0.0.1", server.getAddress().getPort(), path, body, 4, 1, d,
                Optional.empty(), 7);
    }

    private static List<String> lines(String s) {
        return s.lines().toList();
    }

    @Test
    void wrkScriptCarriesMethodBodyAndRandomKeys() {
        String lua = WrkScript.of(load(Engine.WRK, "PUT", "/kv/k{rand:0-9999}", 1024, Duration.ofSeconds(1)))
                .orElseThrow();
        assertTrue(lua.contains("wrk.method = \"PUT\""), lua);
        assertTrue(lua.contains("for i = 0, 1023 do"), lua);
        assertTrue(lua.contains("\"/kv/k\" .. math.random(0, 9999)"), lua);
        assertTrue(lines(lua).stream().anyMatch(l -> l.startsWith("function request()")), lua);
        assertEquals(Optional.empty(), WrkScript.of(load(Engine.WRK, "GET", "/plaintext", 0,
                Duration.ofSeconds(1))), "a plain GET needs no Lua per request");
    }

    @Test
    void whatEachToolCannotDoIsSaidBeforeRunning() {
        assertTrue(Engine.WRK.cannotRun("/", List.of(Duration.ofMillis(1500))).orElseThrow()
                .contains("whole seconds"));
        assertEquals(Optional.empty(), Engine.H2LOAD.cannotRun("/", List.of(Duration.ofMillis(1500))));
        assertTrue(Engine.H2LOAD.cannotRun("/kv/{seq}", List.of()).orElseThrow().contains("{seq}"));
        assertTrue(Engine.H2LOAD.cannotRun("/kv/{rand:0-999999}", List.of()).orElseThrow()
                .contains("1000000 keys"));
        assertEquals(Optional.empty(), Engine.BUILTIN.cannotRun("/kv/{seq}", List.of(Duration.ofMillis(1500))));
        assertEquals(Optional.empty(), Engine.OHA.cannotRun("/kv/{rand:0-999}", List.of(Duration.ofMillis(1500))));
        assertTrue(Engine.OHA.cannotRun("/kv/{seq}", List.of()).orElseThrow().startsWith("oha cannot"));
        EngineException rate = assertThrows(EngineException.class, () -> load(Engine.WRK, "GET", "/", 0,
                Duration.ofSeconds(1)).withRate(OptionalDouble.of(100)));
        assertTrue(rate.getMessage().contains("closed loop"), rate.getMessage());
    }

    @Test
    void everyToolLoadlabRunsIsAnEngineWithTheToolsRules() {
        List<Tool> engines = Engine.all().stream().filter(e -> e instanceof ToolEngine)
                .map(e -> ((ToolEngine) e).tool()).toList();
        assertEquals(Set.copyOf(engines), Arrays.stream(Tool.values())
                .filter(t -> t.command().isPresent()).collect(java.util.stream.Collectors.toSet()));
        for (Tool t : engines) {
            Engine e = Engine.of(t.label());
            assertEquals(t.fixedRate(), e.fixedRate(), t.label());
            assertEquals(t.cannotSpeak(io.loadlab.load.Protocol.H2), e.cannotSpeak(io.loadlab.load.Protocol.H2, true));
        }
        EngineException hey = assertThrows(EngineException.class, () -> new ToolEngine(Tool.HEY, ExternalEngines::wrk));
        assertEquals("hey is imported only, not run as an engine", hey.getMessage());
    }

    /** oha is installed by scripts/setup; where it is missing, its tests are skipped (or fail under scripts/test). */
    private static void assumeOha() {
        Optional<String> why = Engine.OHA.unavailableReason();
        if (why.isPresent() && "1".equals(System.getenv("LOADLAB_REQUIRE_ALL_SUBJECTS"))) {
            throw new AssertionError(why.get() + ", although scripts/test installs it");
        }
        Assumptions.assumeTrue(why.isEmpty(), () -> why.get());
    }

    @Test
    void ohaIsPinnedAndGetsTheWorkloadsMethodBodyKeysAndRate(@TempDir Path tmp) throws IOException {
        assumeOha();
        ExternalLoad l = new ExternalLoad(Engine.OHA, "PUT", "127.0.0.1", 8080, "/kv/k{rand:0-9}", 1024, 8, 2,
                Duration.ofMillis(1500), Optional.of("1"), 7);
        List<String> cmd = ExternalEngines.command(l, tmp);
        int at = cmd.indexOf("taskset");
        assertEquals(List.of("taskset", "-c", "1"), cmd.subList(at, at + 3), cmd.toString());
        assertEquals(Engine.OHA.executable().toString(), cmd.get(at + 3), "taskset execs oha itself: " + cmd);
        assertEquals(List.of("--no-tui", "--output-format", "json", "-z", "1500ms", "-c", "8", "--worker-threads", "2",
                "-m", "PUT", "-D", tmp.resolve("body.bin").toString(), "--urls-from-file",
                tmp.resolve("uris.txt").toString()), cmd.subList(at + 4, cmd.size()));
        assertTrue(Arrays.equals(ExternalEngines.body(1024), java.nio.file.Files.readAllBytes(tmp.resolve("body.bin"))));
        List<String> uris = java.nio.file.Files.readAllLines(tmp.resolve("uris.txt"));
        assertEquals(10, Set.copyOf(uris).size(), uris.toString());
        assertTrue(uris.contains("http://127.0.0.1:8080/kv/k9"), uris.toString());
        List<String> rated = ExternalEngines.command(l.withRate(OptionalDouble.of(500)), tmp);
        int q = rated.indexOf("-q");
        assertEquals(List.of("-q", "500", "--latency-correction"), rated.subList(q, q + 3),
                "at a fixed rate latency counts from the intended send time: " + rated);
    }

    @Test
    void ohaSendsTheWorkloadsRequestsAndItsJsonIsRead(@TempDir Path tmp) throws IOException {
        assumeOha();
        ExternalRun r = randomKeyPuts(Engine.OHA, tmp);
        assertEquals("0", r.reported().get("errors_status"));
        assertEquals("oha", r.reported().get("engine"));
    }

    /**
     * Runs {@code engine} for 1 s of PUTs of the built-in engine's 1 KiB body to 100 random keys
     * and checks what the server got, the tool's CPU time, its percentiles and that its kept
     * output imports to the same figures.
     */
    private ExternalRun randomKeyPuts(Engine engine, Path tmp) throws IOException {
        boolean[] window = new boolean[2];
        Path output = tmp.resolve(engine.label() + ".txt");
        ExternalRun r = ExternalEngines.run(load(engine, "PUT", "/kv/k{rand:0-99}", 1024, Duration.ofSeconds(1)),
                tmp.resolve("scratch"), output, () -> window[0] = true, () -> window[1] = true);
        assertTrue(window[0] && window[1], "the server CPU window was opened and closed");
        assertEquals(Set.of("PUT"), methods);
        assertTrue(badBodies.isEmpty(), "bodies other than the built-in engine's: " + badBodies);
        assertTrue(paths.size() > 10, "random keys, got " + paths);
        assertTrue(paths.stream().allMatch(p -> p.matches("/kv/k([0-9]|[1-9][0-9])")), paths.toString());
        long reported = Long.parseLong(r.reported().get("requests"));
        assertTrue(reported > 0 && reported <= answered.get(), reported + " reported, " + answered + " answered");
        assertFalse(r.reported().get("lat_p99_us").isEmpty(), engine + " gives percentiles");
        assertTrue(r.toolCpuSeconds() > 0, engine + "'s CPU time was read: " + r.toolCpuSeconds());
        assertEquals(r.reported().values(), Importers.parse(output).values(),
                "the kept output imports to the same figures");
        return r;
    }

    @Test
    void ohaHoldsAFixedRate(@TempDir Path tmp) {
        assumeOha();
        ExternalRun r = ExternalEngines.run(load(Engine.OHA, "GET", "/plaintext", 0, Duration.ofSeconds(2))
                .withRate(OptionalDouble.of(100)), tmp, tmp.resolve("oha.txt"), () -> { }, () -> { });
        long reported = Long.parseLong(r.reported().get("requests"));
        // 100/s for 2 s is 200 requests; the bounds only rule out a closed loop (thousands) or no load.
        assertTrue(reported >= 100 && reported <= 300, "requests at 100/s for 2 s: " + reported);
        assertTrue(r.command().contains("--latency-correction"), r.command().toString());
    }

    @Test
    void wrkSendsTheWorkloadsRequestsAndItsOutputIsRead(@TempDir Path tmp) throws IOException {
        ExternalRun r = randomKeyPuts(Engine.WRK, tmp);
        assertTrue(r.command().stream().anyMatch(c -> c.endsWith("/wrk")) && r.command().contains("--latency"),
                r.command().toString());
    }

    @Test
    void h2loadWalksEveryKeyWithTheWorkloadsMethodAndBody(@TempDir Path tmp) {
        ExternalRun r = ExternalEngines.run(load(Engine.H2LOAD, "PUT", "/kv/k{rand:0-9}", 1024, Duration.ofMillis(800)),
                tmp.resolve("scratch"), tmp.resolve("h2load.txt"), () -> { }, () -> { });
        assertEquals(Set.of("PUT"), methods);
        assertTrue(badBodies.isEmpty(), "bodies other than the built-in engine's: " + badBodies);
        long reported = Long.parseLong(r.reported().get("requests"));
        // Each connection walks the shuffled key file from its start (the JDK server answers
        // h2load's PUTs slowly, tens per connection per second, so the file is kept short).
        assertTrue(reported >= 4 * 10, "reported " + reported);
        assertEquals(10, paths.size(), "every key of the file is used: " + paths);
        assertEquals("", r.reported().get("lat_p99_us"), "h2load prints no percentiles: left empty, not 0");
        assertFalse(r.reported().get("lat_mean_us").isEmpty());
    }

    @Test
    void aToolThatFailsGivesItsLastLines(@TempDir Path tmp) throws IOException {
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        ExternalLoad l = new ExternalLoad(Engine.WRK, "GET", "127.0.0.1", closed, "/", 0, 2, 1, Duration.ofSeconds(1),
                Optional.empty(), 1);
        EngineException e = assertThrows(EngineException.class, () -> ExternalEngines.run(l, tmp, tmp.resolve("o.txt"),
                () -> { }, () -> { }));
        assertTrue(e.getMessage().contains("wrk") && e.getMessage().toLowerCase().contains("connect"), e.getMessage());
    }

    @Test
    void anInterruptKillsTheToolAtOnce(@TempDir Path tmp) throws Exception {
        ExternalLoad l = load(Engine.WRK, "GET", "/", 0, Duration.ofSeconds(60));
        Thread[] runner = new Thread[1];
        CompletableFuture<Throwable> failed = new CompletableFuture<>();
        runner[0] = new Thread(() -> {
            try {
                ExternalEngines.run(l, tmp, tmp.resolve("o.txt"), () -> { }, () -> { });
                failed.complete(null);
            } catch (Throwable t) {
                failed.complete(t);
            }
        });
        runner[0].start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (answered.get() == 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(answered.get() > 0, "wrk started loading");
        long pid = ProcessHandle.current().children().filter(p -> p.info().command().orElse("").endsWith("wrk"))
                .findFirst().orElseThrow().pid();
        long t0 = System.nanoTime();
        runner[0].interrupt();
        Throwable t = failed.get(20, TimeUnit.SECONDS);
        assertTrue(t instanceof EngineException && t.getMessage().contains("interrupted"), String.valueOf(t));
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10), "stopped within 10 s");
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "wrk " + pid + " is gone");
        runner[0].join(5000);
    }

    @Test
    void aToolDiesWithTheHarnessEvenWhenItIsKilledWithSigkill() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process harness = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ToolRunnerMain.class.getName(), Integer.toString(server.getAddress().getPort()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            Optional<ProcessHandle> tool = Optional.empty();
            while (System.nanoTime() < deadline && (tool.isEmpty() || answered.get() == 0)) {
                tool = harness.descendants().filter(p -> p.info().command().orElse("").endsWith("wrk")).findFirst();
                Thread.onSpinWait();
            }
            assertTrue(tool.isPresent() && answered.get() > 0, "wrk was started by the stand-in harness and loads");
            harness.destroyForcibly(); // SIGKILL: no shutdown hook, no clean-up of its own
            assertTrue(harness.waitFor(10, TimeUnit.SECONDS));
            ProcessHandle wrk = tool.get();
            long gone = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ProcFs.running(wrk) && System.nanoTime() < gone) {
                Thread.onSpinWait();
            }
            boolean left = ProcFs.running(wrk);
            if (left) {
                wrk.destroyForcibly();
            }
            assertFalse(left, "wrk " + wrk.pid() + " outlived the harness killed with -9");
        } finally {
            harness.descendants().forEach(ProcessHandle::destroyForcibly);
            harness.destroyForcibly();
        }
    }
}
