package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadlab.data.Results;
import io.loadlab.experiment.PacedStandIn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * {@code loadlab run}'s latency-sweep options: each misuse of {@code --latency-sweep}, {@code --rates},
 * {@code --capacity-from} and {@code --slo} ends with exit code 2 and one line that names the option,
 * before any subject starts or any folder is written; and {@code --capacity-from DIR} really takes
 * the shares' rates from the closed-loop runs of DIR, running no capacity run of its own.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hang guard only
class SweepOptionsTest {

    @TempDir
    Path tmp;

    /** Runs {@code loadlab run ARGS --out tmp/never} and checks the usage error's one line. */
    private void usageError(String expected, String... args) {
        Path out = tmp.resolve("never");
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(List.of(args));
        all.addAll(List.of("--out", out.toString()));
        CliRun r = CliRun.of(all.toArray(String[]::new));
        String cmd = String.join(" ", all);
        assertEquals(Main.EXIT_USAGE, r.code(), cmd + ": " + r.err());
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.get(0).startsWith("loadlab: ") && lines.get(0).contains(expected),
                cmd + ": expected '" + expected + "' in " + r.err());
        // One line; a parse error of picocli's adds only where to look ("Try 'loadlab run --help'").
        assertTrue(lines.size() == 1 || lines.size() == 2 && lines.get(1).startsWith("Try 'loadlab run --help'"),
                cmd + ": " + r.err());
        assertEquals("", r.out(), cmd);
        assertFalse(Files.exists(out), cmd + ": nothing written");
    }

    @Test
    void eachMisuseOfTheSweepOptionsIsOneLineAndExitTwo() throws IOException {
        Path capacity = new TinyExperiment("cap", 8, "0").subject("paced", 80).write(tmp);
        usageError("--capacity-from and --slo belong to a latency sweep", "--capacity-from", capacity.toString());
        usageError("--capacity-from and --slo belong to a latency sweep", "--slo", "5ms");
        usageError("add --latency-sweep", "--rates", "100", "--capacity-from", capacity.toString());
        usageError("--latency-sweep: each value once", "--latency-sweep", "50,50");
        usageError("--latency-sweep: values must be positive", "--latency-sweep", "50,0");
        usageError("--rates: values must be positive", "--rates", "0");
        usageError("'--latency-sweep'", "--latency-sweep", "half");
        usageError("--slo must be positive", "--latency-sweep", "50", "--slo", "0ms");
        usageError("soon", "--latency-sweep", "50", "--slo", "soon");
        usageError("a latency sweep sets the rate of each window", "--latency-sweep", "50", "--rate", "100");
        usageError("a latency sweep runs on the built-in engine only", "--rates", "100", "--engine", "builtin,oha");
        usageError(tmp.resolve("nothing").toString(), "--latency-sweep", "50", "--capacity-from",
                tmp.resolve("nothing").toString());
    }

    @Test
    void capacityFromTakesTheSharesOfTheGivenExperimentsClosedLoopRuns() throws IOException {
        // A capacity experiment whose closed-loop runs measured 60 and 100 requests/s: a mean of 80.
        Path capacity = new TinyExperiment("cap", 8, "0").subject("paced", 60, 100).write(tmp);
        Path home = tmp.resolve("home");
        PacedStandIn.install(home, 10); // 100/s at its best: 20% and 40% of 80/s are well below it
        Path dir = tmp.resolve("sweep");
        String before = System.getProperty("loadlab.home");
        CliRun r;
        try {
            System.setProperty("loadlab.home", home.toString());
            r = CliRun.of("run", "--subjects", "paced", "--workloads", "plaintext", "--rounds", "2", "--duration", "1s",
                    "--warmup", "500ms", "--cooldown", "0s", "-c", "4", "--latency-sweep", "20,40",
                    "--capacity-from", capacity.toString(), "--out", dir.toString());
        } finally {
            if (before == null) {
                System.clearProperty("loadlab.home");
            } else {
                System.setProperty("loadlab.home", before);
            }
            assertEquals(List.of(), PacedStandIn.leftRunning(home), "stand-in servers left running");
        }
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals(2, PacedStandIn.started(home), "one subject process a round");

        JsonNode given = new ObjectMapper().readTree(dir.resolve("experiment.json").toFile())
                .path("spec").path("latency_sweep").path("capacity");
        assertEquals(capacity.toString(), given.path("from").asText(), given.toString());
        assertEquals(80.0, given.path("rps").path("paced||plaintext").asDouble(), 1e-9, given.toString());

        Table runs = Results.load(dir).runs();
        assertEquals(4, runs.rowCount(), "two shares a round and no capacity run of its own");
        double[] achieved = new double[2];
        for (int i = 0; i < runs.rowCount(); i++) {
            assertEquals("ok", runs.stringColumn("status").get(i), runs.stringColumn("error").get(i));
            assertEquals("fraction", runs.stringColumn("sweep_role").get(i));
            double share = runs.doubleColumn("capacity_fraction").getDouble(i);
            assertEquals(80.0, runs.doubleColumn("capacity_rps").getDouble(i), 1e-9);
            assertEquals(share * 80, runs.doubleColumn("target_rps").getDouble(i), 1e-6, "a share of the given 80/s");
            // Not asserted against its target: in a 1 s window a late warm-up's catch-up counts (21.8/s at 16/s).
            achieved[share < 0.3 ? 0 : 1] += runs.doubleColumn("rps").getDouble(i);
        }
        assertTrue(achieved[1] > achieved[0], "the 40% windows served more than the 20% ones: "
                + achieved[1] / 2 + " against " + achieved[0] / 2 + "/s");
        assertTrue(r.out().contains("20%") && r.out().contains("40%"), r.out());

        // No closed-loop run to compare across subjects: compare says so and goes on to the latency section.
        CliRun compare = CliRun.of("compare", dir.toString());
        assertEquals(0, compare.code(), compare.err());
        assertTrue(compare.out().startsWith(dir + ": a latency sweep without closed-loop runs"), compare.out());
        assertTrue(compare.out().contains("Latency-throughput curves"), compare.out());
        assertEquals(1, CliRun.of("compare", dir.toString(), "--format", "csv").out().lines().count(), "the header only");
    }
}
