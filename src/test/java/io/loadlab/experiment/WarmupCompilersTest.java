package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.load.Warmup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31's plateau, end to end: a subject that holds a flat plateau for longer than the warm-up's
 * minimum while a thread named like HotSpot's C2 compiler burns CPU, then rises, is measured after
 * the rise. Its compiler threads' time goes from {@code /proc} through the subject's sampler to the
 * engine's warm-up rule; the throughput alone, flat on the plateau, would have ended the warm-up
 * after 2 s ({@code BrokenWarmupTest} shows that with the compilers left out).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES) // a hang guard only
class WarmupCompilersTest {

    private static final double PLATEAU_S = 6;
    /** The plateau's time per answer, ms: 125 answers/s. */
    private static final double PLATEAU_MS = 8;
    /** After it: 500 answers/s. */
    private static final double FINAL_MS = 2;

    @Test
    void aSubjectsCompilersHoldTheWarmupPastItsPlateau(@TempDir Path tmp) throws Exception {
        Path home = tmp.resolve("home");
        PacedStandIn.installJit(home, "jit", FINAL_MS, PLATEAU_S, PLATEAU_MS);
        Path dir = tmp.resolve("exp");
        ExperimentSpec spec = ExperimentSpec.builder().name("jit").subjects("jit").workloads("plaintext").rounds(1)
                .duration(Duration.ofSeconds(1)).warmup(new Warmup.Steady(Duration.ofSeconds(1), Duration.ofSeconds(30)))
                .cooldown(Duration.ZERO).connections(4).build();
        try {
            Runner.Outcome out = Experiment.create(home, spec, dir, List.of("test"), new Runner.Progress() { }).execute();
            assertEquals("completed", out.status());
        } finally {
            assertEquals(List.of(), PacedStandIn.leftRunning(home), "stand-in servers left running");
        }
        Map<String, String> row = ExperimentRunTest.rows(dir).get(0);
        assertEquals("ok", row.get("status"), row.get("error"));
        double warmup = Double.parseDouble(row.get("warmup_s"));
        double rps = Double.parseDouble(row.get("rps"));
        assertTrue(warmup > PLATEAU_S, "the warm-up outlasted the plateau: " + warmup + " s, then " + rps + "/s");
        assertEquals("true", row.get("steady"), "steady once the compiler was done");
        assertTrue(rps > 1.5 * 1000 / PLATEAU_MS, "the window measured the final level, not the plateau's: " + rps + "/s");
    }
}
