package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.Results;
import io.loadlab.stats.Warning;
import io.loadlab.stats.WarningOptions;
import io.loadlab.stats.Warnings;
import io.loadlab.host.Cpus;
import io.loadlab.host.ProcFs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A busy machine is measured, not guessed: another program's CPU shows in the run's row. */
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hang guard only
class NoiseRunTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir"));

    /** The CPU (s) a process has used so far, from its own /proc/PID/stat. */
    private static double cpuSeconds(Process p) {
        return ProcFs.cpuTicks(Long.toString(p.pid())).map(t -> t[0] + t[1]).orElseThrow() / ProcFs.TICKS_PER_SECOND;
    }

    /**
     * A busy loop pinned to the server's CPU (round 2), then to the load generator's (round 3), in
     * a session of its own, as a build or an apt-get started elsewhere runs (with autogroup
     * scheduling a loop in this JVM's session would share the JVM's weight and starve). The test
     * reads the loop's own CPU time at the window's start and end: the row's noise must be that,
     * within 25%, and the round flagged.
     */
    @Test
    void aBusyLoopOnTheServersOrTheLoadsCpuShowsAsItsNoise(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("noise");
        Cpus.Split split = Cpus.defaultSplit().orElseThrow(
                () -> new org.opentest4j.TestAbortedException("needs two CPUs for the server and the load"));
        Map<Integer, String> cpuOfRun = Map.of(2, split.server(), 3, split.load());
        Map<Integer, Process> loops = new ConcurrentHashMap<>();
        Map<Integer, double[]> loopCpu = new ConcurrentHashMap<>();
        ExperimentSpec spec = ExperimentSpec.builder().name("noise").subjects("python-asyncio").workloads("plaintext")
                .rounds(3).duration(Duration.ofMillis(2000)).warmup(Duration.ofMillis(300)).cooldown(Duration.ZERO)
                .connections(8).build();
        Experiment exp = Experiment.create(HOME, spec, dir, List.of("test"), new Runner.Progress() {
            @Override
            public void runStarting(Plan.Run run, int done, int total) {
                String cpu = cpuOfRun.get(run.runId());
                if (cpu != null) {
                    try {
                        loops.put(run.runId(), new ProcessBuilder("setsid", "taskset", "-c", cpu, "sh", "-c",
                                "while :; do :; done").start());
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }

            @Override
            public void windowStarted(Plan.Run run) {
                Optional.ofNullable(loops.get(run.runId())).ifPresent(p -> loopCpu.put(run.runId(),
                        new double[] {cpuSeconds(p), 0}));
            }

            @Override
            public void windowEnded(Plan.Run run) {
                Optional.ofNullable(loops.get(run.runId())).ifPresent(p -> loopCpu.get(run.runId())[1] = cpuSeconds(p));
            }

            @Override
            public void runFinished(Plan.Run run, io.loadlab.data.RunRow row, int done, int total) {
                stop(loops.get(run.runId()));
            }
        });
        try {
            assertEquals("completed", exp.execute().status());
        } finally {
            loops.values().forEach(NoiseRunTest::stop);
        }
        List<Map<String, String>> rows = ExperimentRunTest.rows(dir);
        assertEquals(3, rows.size());
        double quiet = Double.parseDouble(rows.get(0).get("noise_cpu_s"));
        double quietRate = quiet / Double.parseDouble(rows.get(0).get("duration_s"));
        for (int run : List.of(2, 3)) {
            Map<String, String> row = rows.get(run - 1);
            double noise = Double.parseDouble(row.get("noise_cpu_s"));
            double window = Double.parseDouble(row.get("duration_s"));
            double burned = loopCpu.get(run)[1] - loopCpu.get(run)[0];
            String what = "run " + run + ", the loop on CPU " + cpuOfRun.get(run) + ": noise_cpu_s " + noise
                    + " in a " + window + " s window, the loop's own CPU in it " + burned + " s, the quiet run's noise "
                    + quiet + " s";
            assertTrue(burned > 0.1 * window, "the loop ran: " + what);
            // Whatever else this shared machine runs adds to the figure: the quiet round's rate of it is
            // allowed above the bound, nothing below it.
            assertTrue(noise >= 0.75 * burned && noise <= 1.25 * burned + quietRate * window, what);
        }
        List<Warning> warnings = Warnings.find(Results.load(dir).runs(), "rps", WarningOptions.defaults());
        assertTrue(warnings.stream().anyMatch(w -> w.kind().equals("noisy_machine") && w.rounds().contains(2)
                && w.rounds().contains(3)), "both busy rounds are flagged: " + warnings);
    }

    private static void stop(Process p) {
        if (p != null) {
            try {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
