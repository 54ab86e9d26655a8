package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadlab.data.Results;
import io.loadlab.engine.Engine;
import io.loadlab.importer.Importers;
import io.loadlab.stats.Engines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/** One experiment driven by the built-in engine, wrk and h2load in turn, on a bundled subject. */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
class EnginesRunTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir"));

    private static ExperimentSpec.Builder spec(String name) {
        return ExperimentSpec.builder().name(name).subjects("java-netty").workloads("plaintext|put-1k").rounds(2)
                .duration(Duration.ofSeconds(1)).warmup(Duration.ZERO).cooldown(Duration.ZERO).connections(8)
                .engines(List.of(Engine.BUILTIN, Engine.WRK, Engine.H2LOAD));
    }

    /**
     * wrk cannot say when the throughput settles: a steady-state warm-up is the built-in engine's,
     * then a second of wrk, and the row records the whole warm-up and whether it became steady.
     */
    @Test
    void aToolsSteadyStateWarmupIsTheBuiltinEnginesThenASecondOfTheTool(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("tool-warmup");
        ExperimentSpec s = spec("tool-warmup").workloads("plaintext").rounds(1)
                .warmup(new io.loadlab.load.Warmup.Steady(Duration.ofSeconds(2), Duration.ofSeconds(6)))
                .engines(List.of(Engine.WRK)).build();
        Runner.Outcome o = Experiment.create(HOME, s, dir, List.of("test"), new Runner.Progress() { }).execute();
        assertEquals("completed", o.status());
        Map<String, String> r = ExperimentRunTest.rows(dir).get(0);
        assertEquals("ok", r.get("status"), r.get("error"));
        double warmup = Double.parseDouble(r.get("warmup_s"));
        // At least 2 s of the built-in engine, its 0.5 s window, and 1 s of wrk; at most the warm-up's
        // maximum (java-netty's manifest widens it to 20 s) + 0.5 + 1.
        assertTrue(warmup >= 3.4 && warmup <= 20 + 1.6, "warm-up " + warmup + " s");
        assertTrue(Set.of("true", "false").contains(r.get("steady")), r.get("steady"));
    }

    @Test
    void threeEnginesRunInRotationAndLandInTheSameFiles(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("engines");
        Experiment exp = Experiment.create(HOME, spec("engines").build(), dir, List.of("test"), new Runner.Progress() { });
        assertEquals(12, exp.plan().runs().size());
        Runner.Outcome o = exp.execute();
        assertEquals("completed", o.status());

        List<Map<String, String>> rows = ExperimentRunTest.rows(dir);
        assertEquals(12, rows.size());
        // Engines rotate by round: round 1 starts with builtin, round 2 with wrk.
        assertEquals(List.of("builtin", "wrk", "h2load", "builtin", "wrk", "h2load"),
                rows.subList(0, 6).stream().map(r -> r.get("engine")).toList());
        assertEquals(List.of("wrk", "h2load", "builtin", "wrk", "h2load", "builtin"),
                rows.subList(6, 12).stream().map(r -> r.get("engine")).toList());
        for (Map<String, String> r : rows) {
            String what = r.get("engine") + " " + r.get("workload") + " run " + r.get("run_id");
            assertEquals("ok", r.get("status"), what + ": " + r.get("error"));
            assertTrue(Long.parseLong(r.get("requests")) > 0, what + ": " + r);
            assertEquals("0", r.get("errors_status"), what);
            assertTrue(Double.parseDouble(r.get("server_cpu_s")) > 0, what + ": " + r);
            assertTrue(Double.parseDouble(r.get("load_cpu_s")) > 0, what + " load CPU " + r.get("load_cpu_s"));
            assertFalse(r.get("lat_mean_us").isEmpty(), what);
            // h2load prints no percentiles: empty, never 0.
            assertEquals(r.get("engine").equals("h2load"), r.get("lat_p99_us").isEmpty(), what);
            if (!r.get("engine").equals("builtin")) {
                Path output = dir.resolve("logs").resolve("run-" + r.get("run_id") + "-" + r.get("engine") + ".txt");
                assertEquals(r.get("requests"), Importers.parse(output).get("requests"),
                        "the kept output of " + what + " imports to the recorded count");
            }
        }

        Table runs = Results.load(dir).runs();
        Table agree = Engines.compare(runs, "rps");
        assertEquals(4, agree.rowCount(), agree.print());
        assertEquals(List.of("h2load", "wrk"), agree.stringColumn("engine").unique().asList().stream().sorted().toList());
        Table ranks = Engines.rankings(runs, "rps");
        assertEquals(4, ranks.rowCount(), ranks.print());

        com.fasterxml.jackson.databind.JsonNode env = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dir.resolve("experiment.json").toFile()).path("environment").path("engine_versions");
        assertTrue(env.path("wrk").asText().startsWith("wrk "), env.toString());
        assertTrue(env.path("h2load").asText().startsWith("h2load nghttp2/"), env.toString());

        Experiment again = Experiment.resume(HOME, dir, new Runner.Progress() { });
        assertEquals(12, again.done().size(), "the stored plan with engines matches a new planning");
    }

    @Test
    void ohaAndTheBuiltInEngineRunAtTheSameFixedRate(@TempDir Path tmp) throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Engine.OHA.unavailableReason().isEmpty()
                || "1".equals(System.getenv("LOADLAB_REQUIRE_ALL_SUBJECTS")), "oha is not installed (scripts/setup)");
        Path dir = tmp.resolve("rate");
        ExperimentSpec s = spec("rate").workloads("plaintext").rounds(1).rate(200.0)
                .engines(List.of(Engine.BUILTIN, Engine.OHA)).build();
        Runner.Outcome o = Experiment.create(HOME, s, dir, List.of("test"), new Runner.Progress() { }).execute();
        assertEquals("completed", o.status());
        List<Map<String, String>> rows = ExperimentRunTest.rows(dir);
        assertEquals(List.of("builtin", "oha"), rows.stream().map(r -> r.get("engine")).toList());
        for (Map<String, String> r : rows) {
            String what = r.get("engine") + " run " + r.get("run_id");
            assertEquals("ok", r.get("status"), what + ": " + r.get("error"));
            assertEquals("200", r.get("target_rps"), what);
            long n = Long.parseLong(r.get("requests"));
            assertTrue(n >= 100 && n <= 300, what + ": " + n + " requests at 200/s for 1 s");
            assertFalse(r.get("lat_p99_us").isEmpty(), what);
        }
        Path output = dir.resolve("logs").resolve("run-" + rows.get(1).get("run_id") + "-oha.txt");
        assertEquals(rows.get(1).get("requests"), Importers.parse(output).get("requests"));
        JsonNode env = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dir.resolve("experiment.json").toFile()).path("environment").path("engine_versions");
        assertTrue(env.path("oha").asText().startsWith("oha "), env.toString());
    }

    @Test
    void whatTheToolsCannotDoIsRefusedBeforeAnythingRuns() {
        ExperimentException rate = assertThrows(ExperimentException.class, () -> spec("x").rate(100.0).build());
        assertTrue(rate.getMessage().contains("closed loop"), rate.getMessage());
        ExperimentException seconds = assertThrows(ExperimentException.class,
                () -> spec("x").duration(Duration.ofMillis(1500)).build());
        assertTrue(seconds.getMessage().contains("wrk takes whole seconds"), seconds.getMessage());
        ExperimentException twice = assertThrows(ExperimentException.class,
                () -> spec("x").engines(List.of(Engine.WRK, Engine.WRK)).build());
        assertTrue(twice.getMessage().contains("each engine once"), twice.getMessage());
    }

    @Test
    void workloadsAToolCannotExpressAreSkippedWithTheReason() {
        io.loadlab.subject.SubjectManifest m = new io.loadlab.subject.SubjectManifest("s", "d", "l",
                java.util.Optional.empty(), List.of(), java.util.Optional.empty(), "true",
                new io.loadlab.subject.SubjectManifest.Readiness("/", Duration.ofSeconds(1)),
                List.of("plaintext", "seq-put"), Map.of(), Path.of("/tmp", "s"), java.util.Optional.empty());
        io.loadlab.workload.Workload seq = new io.loadlab.workload.Workload("seq-put", "d", "PUT", "/kv/{seq}", 10,
                java.util.Set.of(200), java.util.OptionalLong.empty(), java.util.Optional.empty());
        io.loadlab.workload.Workload plain = io.loadlab.workload.Workload.builtin().get(0);
        ExperimentSpec s = spec("skip").subjects(".*").workloads(".*").rounds(2).build();
        Plan plan = Plan.of(s, List.of(new io.loadlab.subject.Subject(m, java.util.Optional.empty())), List.of(plain, seq));
        // plaintext x 3 engines + seq-put x (builtin, wrk), per round
        assertEquals(10, plan.runs().size());
        assertTrue(plan.runs().stream().noneMatch(r -> r.engine() == Engine.H2LOAD && r.workload() == seq));
        assertEquals(List.of("seq-put with h2load: h2load cannot send a new {seq} number with each request (path"
                + " /kv/{seq}); use --engine wrk or builtin for this workload"), plan.skipped());
    }
}
