package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.engine.Engine;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** External engines over TLS and HTTP/2 in an experiment: h2load beside the built-in engine, wrk's skips. */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
class ToolProtocolRunTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir"));

    private static ExperimentSpec.Builder spec(String name) {
        return ExperimentSpec.builder().name(name).subjects("java-netty").workloads("plaintext").rounds(1)
                .duration(Duration.ofSeconds(1)).warmup(Duration.ofMillis(300)).cooldown(Duration.ZERO).connections(4);
    }

    @Test
    void h2loadRunsH2OverTlsAndH2cBesideTheBuiltinEngine(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("tool-protocols");
        ExperimentSpec s = spec("tool-protocols").protocols("h2-tls|h2c").streams(4)
                .engines(List.of(Engine.BUILTIN, Engine.H2LOAD)).build();
        Experiment exp = Experiment.create(HOME, s, dir, List.of("test"), new Runner.Progress() { });
        assertEquals(List.of(), exp.plan().skipped(), "h2load speaks both");
        Runner.Outcome o = exp.execute();
        assertEquals("completed", o.status());
        List<Map<String, String>> rows = ExperimentRunTest.rows(dir);
        assertEquals(4, rows.size(), "two protocols, two engines");
        for (Map<String, String> r : rows) {
            String what = r.get("engine") + " " + r.get("variant");
            assertEquals("ok", r.get("status"), what + ": " + r.get("error"));
            assertEquals(r.get("variant").endsWith("h2c") ? "h2c" : "h2", r.get("protocol"), what);
            assertTrue(Long.parseLong(r.get("requests")) > 0, what);
            assertEquals("0", r.get("errors_status"), what);
            assertEquals("0", r.get("errors_protocol"), what);
        }
        assertEquals(2, rows.stream().filter(r -> r.get("engine").equals("h2load")).count());
    }

    @Test
    void thePlanSkipsOnlyWhatAToolCannotSpeak(@TempDir Path tmp) {
        ExperimentSpec s = spec("wrk-protocols").warmup(Duration.ZERO).protocols("h1-tls|h2-tls|h2c")
                .engines(List.of(Engine.WRK, Engine.H2LOAD)).build();
        Plan plan = Experiment.create(HOME, s, tmp.resolve("plan"), List.of("test"), new Runner.Progress() { }).plan();
        assertEquals(List.of("java-netty [durability=memory,protocol=h2-tls] with wrk: wrk speaks HTTP/1.1 only, not h2",
                "java-netty [durability=memory,protocol=h2c] with wrk: wrk speaks HTTP/1.1 only, not h2c"), plan.skipped());
        assertEquals(4, plan.runs().size(), "wrk over h1-tls, h2load over all three");
        assertEquals(1, plan.runs().stream().filter(r -> r.engine() == Engine.WRK).count());
    }
}
