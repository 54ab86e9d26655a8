package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.RunRow;
import io.loadlab.load.Warmup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --resume} of an interrupted latency sweep: the shares left of a round whose capacity run
 * was recorded before the interruption take their rate from that run's row in {@code runs.csv}
 * (the plan holds no rates), so the resumed experiment completes with the shares it was planned
 * with, each of its own round's capacity, and measures no capacity twice.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES) // a hang guard only
class SweepResumeTest {

    private static final List<Double> PERCENTS = List.of(30.0, 60.0);
    /** What this test writes into the capacity row of round 1 before resuming, requests/s. */
    private static final double RECORDED = 77.7;

    @Test
    void aResumedSweepTakesItsRoundsCapacitiesFromRunsCsv(@TempDir Path tmp) throws Exception {
        Path home = tmp.resolve("home");
        PacedStandIn.install(home, 10); // at most 100/s: 60% of what a busy machine measures is below it
        Path dir = tmp.resolve("sweep");
        ExperimentSpec spec = ExperimentSpec.builder().name("sweep").subjects("paced").workloads("plaintext").rounds(2)
                .duration(Duration.ofSeconds(1)).warmup(new Warmup.Fixed(Duration.ofMillis(300)))
                .cooldown(Duration.ZERO).connections(4)
                .sweep(new Sweep(PERCENTS, List.of(), new Sweep.Measured(), Optional.empty())).build();
        CompletableFuture<Void> capacityDone = new CompletableFuture<>();
        Experiment exp = Experiment.create(home, spec, dir, List.of("test"), new Runner.Progress() {
            @Override
            public void runFinished(Plan.Run run, RunRow row, int done, int total) {
                capacityDone.complete(null);
            }
        });
        assertEquals(6, exp.plan().runs().size(), "a capacity run and two shares a round");
        try {
            CompletableFuture<Runner.Outcome> running = CompletableFuture.supplyAsync(exp::execute);
            capacityDone.get(2, TimeUnit.MINUTES);
            assertTrue(exp.stop(Duration.ofSeconds(60)), "stopped cleanly");
            assertEquals("interrupted", running.get(1, TimeUnit.MINUTES).status());
            List<Map<String, String>> first = ExperimentRunTest.rows(dir);
            assertEquals("capacity", first.get(0).get("sweep_role"));
            assertTrue(first.size() < 3, "round 1's shares are not all done: " + first.size() + " rows");

            // The capacity as runs.csv holds it is what the resumed shares must use: a value no run measures.
            setCapacity(dir.resolve("runs.csv"), RECORDED);
            Experiment again = Experiment.resume(home, dir, new Runner.Progress() { });
            assertEquals(first.size(), again.done().size());
            Runner.Outcome second = again.execute();
            assertEquals("completed", second.status());
            assertEquals(6 - first.size(), second.rows().size(), "finished runs are not repeated");
        } finally {
            assertEquals(List.of(), PacedStandIn.leftRunning(home), "stand-in servers left running");
        }

        List<Map<String, String>> rows = ExperimentRunTest.rows(dir);
        assertEquals(List.of("1", "2", "3", "4", "5", "6"), rows.stream().map(r -> r.get("run_id")).toList());
        for (int round = 1; round <= 2; round++) {
            String rd = Integer.toString(round);
            List<Map<String, String>> mine = rows.stream().filter(r -> r.get("round").equals(rd)).toList();
            assertEquals(List.of("capacity", "fraction", "fraction"), mine.stream().map(r -> r.get("sweep_role")).toList(),
                    "round " + round + ": one capacity run, then the shares");
            double capacity = Double.parseDouble(mine.get(0).get("rps"));
            if (round == 1) {
                assertEquals(RECORDED, capacity, 1e-9);
            }
            for (int i = 1; i < 3; i++) {
                Map<String, String> r = mine.get(i);
                assertEquals("ok", r.get("status"), r.get("run_id") + ": " + r.get("error"));
                double share = PERCENTS.get(i - 1) / 100;
                assertEquals(share, Double.parseDouble(r.get("capacity_fraction")), 1e-9, "the planned share");
                assertEquals(capacity, Double.parseDouble(r.get("capacity_rps")), 1e-6, "its own round's capacity");
                assertEquals(share * capacity, Double.parseDouble(r.get("target_rps")), 1e-3, r.toString());
            }
        }
    }

    /** Sets {@code rps} and {@code capacity_rps} of the first row (round 1's capacity run). */
    private static void setCapacity(Path runsCsv, double rps) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(runsCsv));
        List<String> header = Arrays.asList(lines.get(0).split(","));
        String[] v = lines.get(1).split(",", -1);
        assertEquals(header.size(), v.length, "no quoted comma in a successful capacity row");
        v[header.indexOf("rps")] = RunRow.num(rps);
        v[header.indexOf("capacity_rps")] = RunRow.num(rps);
        lines.set(1, String.join(",", v));
        Files.write(runsCsv, lines);
    }
}
