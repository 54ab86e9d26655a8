package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.Results;
import io.loadlab.data.RunHistograms;
import io.loadlab.experiment.CsvFields;
import io.loadlab.experiment.Experiment;
import io.loadlab.experiment.ExperimentSpec;
import io.loadlab.experiment.PacedStandIn;
import io.loadlab.experiment.Runner;
import io.loadlab.experiment.Sweep;
import io.loadlab.load.Warmup;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.LatencyCurves;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * {@code loadlab compare} of a sweep of two stand-ins (10 and 20 ms per request): the main table
 * compares their closed-loop capacity runs only, one row per subject against the baseline, and
 * says so; the fixed-rate windows are in the latency section, not variants of the main table
 * without a baseline.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES) // a hang guard only
class SweepCompareTest {

    @TempDir
    static Path tmp;
    private static Path home;
    private static Path dir;

    @BeforeAll
    static void sweepTwoStandIns() throws IOException {
        home = tmp.resolve("home");
        PacedStandIn.install(home, "paced", 10);
        PacedStandIn.install(home, "paced-b", 20);
        dir = tmp.resolve("sweep");
        ExperimentSpec spec = ExperimentSpec.builder().name("sweep").subjects("paced|paced-b").workloads("plaintext")
                .rounds(2).duration(Duration.ofSeconds(1)).warmup(new Warmup.Fixed(Duration.ofMillis(300)))
                .cooldown(Duration.ZERO).connections(4)
                .sweep(new Sweep(List.of(50.0), List.of(20.0), new Sweep.Measured(), Optional.empty())).build();
        assertEquals("completed", Experiment.create(home, spec, dir, List.of("test"), new Runner.Progress() { })
                .execute().status());
    }

    @AfterAll
    static void nothingLeftRunning() throws IOException {
        assertEquals(List.of(), PacedStandIn.leftRunning(home), "stand-in servers left running");
    }

    @Test
    void theMainTableComparesTheCapacityRunsOnlyAndSaysSo() {
        CliRun r = CliRun.of("compare", dir.toString());
        assertEquals(0, r.code(), r.err());
        String out = r.out();
        assertTrue(out.contains("this table holds its closed-loop capacity runs only (4 of 12 runs)"), out);
        String main = out.substring(0, out.indexOf("Warnings") >= 0 ? out.indexOf("Warnings") : out.indexOf("No warnings"));
        List<String> rows = main.lines().filter(l -> l.startsWith("plaintext")).toList();
        assertEquals(2, rows.size(), main);
        assertTrue(rows.get(0).contains("paced ") && rows.get(0).contains("baseline"), main);
        assertTrue(rows.get(1).contains("paced-b"), main);
        assertFalse(main.contains("paced [") || main.contains("paced-b [") || main.contains("no baseline"),
                "no sweep point as a variant: " + main);
        assertTrue(out.indexOf("Latency-throughput curves") > out.indexOf("paced-b"), "the latency section follows");
    }

    @Test
    void itsCsvHoldsTheMeanOfEachSubjectsCapacityRuns() {
        Table runs = Results.load(dir).runs();
        Map<String, double[]> capacity = new HashMap<>();
        for (int i = 0; i < runs.rowCount(); i++) {
            if (runs.stringColumn("sweep_role").get(i).equals("capacity")) {
                double[] s = capacity.computeIfAbsent(runs.stringColumn("subject").get(i), k -> new double[2]);
                s[0] += runs.doubleColumn("rps").getDouble(i);
                s[1]++;
            }
        }
        CliRun r = CliRun.of("compare", dir.toString(), "--format", "csv");
        assertEquals(0, r.code(), r.err());
        List<Map<String, String>> rows = csv(r.out());
        assertEquals(2, rows.size(), r.out());
        for (Map<String, String> row : rows) {
            double[] s = capacity.get(row.get("subject"));
            assertEquals(2, s[1], row.get("subject") + ": a capacity run a round");
            assertEquals("2", row.get("n"));
            assertEquals("", row.get("variant"));
            assertEquals(s[0] / s[1], Double.parseDouble(row.get("mean")), 1e-3 * s[0] / s[1], r.out());
        }
    }

    @Test
    void aLatencyMetricsMergedPercentileIsOfTheCapacityRuns() {
        CliRun r = CliRun.of("compare", dir.toString(), "--metric", "lat_p99_us", "--format", "csv");
        assertEquals(0, r.code(), r.err());
        for (Map<String, String> row : csv(r.out())) {
            // At least one service time: the stand-ins' own, part of the set-up.
            double service = row.get("subject").equals("paced") ? 10_000 : 20_000;
            assertTrue(!row.get("merged_us").isEmpty() && Double.parseDouble(row.get("merged_us")) >= service,
                    "merged p99 of " + row.get("subject") + ": " + r.out());
        }
    }

    @Test
    void csvTableCurvesHoldsEachPointAtFullPrecisionAsTheStatsComputeIt() {
        CliRun r = CliRun.of("compare", dir.toString(), "--format", "csv", "--table", "curves");
        assertEquals(0, r.code(), r.err());
        List<Map<String, String>> rows = csv(r.out());
        Results results = Results.load(dir);
        Table runs = results.runs();
        Table expected = LatencyCurves.curves(runs, RunHistograms.load(runs.where(runs.stringColumn("sweep_role")
                .isIn("fraction", "rate")), results.experiments()), CompareOptions.defaults().seed());
        assertEquals(4, rows.size(), "2 subjects x (50% and 20/s): " + r.out());
        assertEquals(expected.rowCount(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            Map<String, String> row = rows.get(i);
            assertEquals(expected.stringColumn("subject").get(i), row.get("subject"));
            assertEquals(expected.stringColumn("point").get(i), row.get("point"));
            assertEquals("2", row.get("n"), r.out());
            for (String c : List.of("target_rps", "rps", "missed", "lat_p50_us", "lat_p99_us", "lat_p999_us",
                    "lat_p99_ci_low_us", "lat_p99_ci_high_us", "svc_p50_us")) {
                assertEquals(expected.doubleColumn(c).getDouble(i), Double.parseDouble(row.get(c)), 1e-9, c + ": " + r.out());
            }
            double p99 = Double.parseDouble(row.get("lat_p99_us"));
            assertTrue(Double.parseDouble(row.get("lat_p99_ci_low_us")) <= p99
                    && p99 <= Double.parseDouble(row.get("lat_p99_ci_high_us")), "p99 inside its interval: " + row);
            // Below capacity the median is at least the stand-in's own service time (10 or 20 ms).
            double service = row.get("subject").equals("paced") ? 10_000 : 20_000;
            assertTrue(Double.parseDouble(row.get("lat_p50_us")) >= service, row.toString());
        }
        Map<String, String> rate = rows.stream().filter(m -> m.get("point").equals("20/s")).findFirst().orElseThrow();
        assertEquals(20.0, Double.parseDouble(rate.get("target_rps")), 1e-9);
        assertEquals("rate", rate.get("role"));
    }

    @Test
    void csvTableKneesAtAnObjectiveUnderTheServiceTimeIsBelowTheLowestPoint() {
        CliRun r = CliRun.of("compare", dir.toString(), "--format", "csv", "--table", "knees", "--slo", "1ms");
        assertEquals(0, r.code(), r.err());
        List<Map<String, String>> knees = csv(r.out());
        List<Map<String, String>> curves = csv(CliRun.of("compare", dir.toString(), "--format", "csv", "--table",
                "curves").out());
        assertEquals(List.of("paced", "paced-b"), knees.stream().map(m -> m.get("subject")).toList(), r.out());
        for (Map<String, String> k : knees) {
            // Every request takes 10 ms or more: p99 is over 1 ms already at the lowest target (20/s, or
            // 50% of a capacity a busy machine measured under 40/s), and the knee is that point's achieved rate.
            assertEquals("below", k.get("bound"), r.out());
            assertEquals(1000.0, Double.parseDouble(k.get("slo_us")), 1e-9);
            String lowest = curves.stream().filter(c -> c.get("subject").equals(k.get("subject")))
                    .min(java.util.Comparator.comparingDouble(c -> Double.parseDouble(c.get("target_rps"))))
                    .orElseThrow().get("rps");
            assertEquals(Double.parseDouble(lowest), Double.parseDouble(k.get("knee_rps")), 1e-9, r.out());
        }
    }

    @Test
    void csvTableRatesHoldsP99AtEqualRateAgainstTheBaseline() {
        CliRun r = CliRun.of("compare", dir.toString(), "--format", "csv", "--table", "rates");
        assertEquals(0, r.code(), r.err());
        List<Map<String, String>> rows = csv(r.out());
        assertEquals(2, rows.size(), r.out());
        Map<String, String> base = rows.stream().filter(m -> m.get("subject").equals("paced")).findFirst().orElseThrow();
        Map<String, String> other = rows.stream().filter(m -> m.get("subject").equals("paced-b")).findFirst().orElseThrow();
        assertEquals("baseline", base.get("verdict"), r.out());
        assertEquals("", base.get("p_test"), "not measured is empty: " + r.out());
        assertEquals("too few rounds", other.get("verdict"), r.out());
        assertTrue(Double.parseDouble(base.get("lat_p99_us")) >= 10_000, "at least the service time: " + r.out());
        assertTrue(Double.parseDouble(other.get("lat_p99_us")) >= 20_000, "at least the service time: " + r.out());
        // The ratio is the mean of the rounds' own p99 ratios, paired by round (never of averaged p99s, nor of the
        // merged ones, which a stalled round dominates).
        Table runs = io.loadlab.data.Results.load(dir).runs();
        Table rate = runs.where(runs.stringColumn("sweep_role").isEqualTo("rate"));
        double sum = 0;
        int rounds = 0;
        for (int round = 1; round <= 2; round++) {
            Table in = rate.where(rate.intColumn("round").isEqualTo(round));
            Table a = in.where(in.stringColumn("subject").isEqualTo("paced-b"));
            Table b = in.where(in.stringColumn("subject").isEqualTo("paced"));
            if (a.rowCount() == 1 && b.rowCount() == 1) {
                sum += a.numberColumn("lat_p99_us").getDouble(0) / b.numberColumn("lat_p99_us").getDouble(0);
                rounds++;
            }
        }
        assertEquals(sum / rounds, Double.parseDouble(other.get("ratio")), 1e-9, r.out());
    }

    @Test
    void csvTableMisusesAreOneLineUsageErrors() {
        CliRun unknown = CliRun.of("compare", dir.toString(), "--format", "csv", "--table", "knee");
        assertEquals(2, unknown.code());
        assertEquals("loadlab: --table must be main, curves, knees, rates or protocols, got 'knee'", unknown.err().strip());
        CliRun text = CliRun.of("compare", dir.toString(), "--table", "curves");
        assertEquals(2, text.code());
        assertEquals(1, text.err().strip().lines().count(), text.err());
        assertTrue(text.err().contains("--format csv"), text.err());
        CliRun noSweep = CliRun.of("compare", "data/sample", "--format", "csv", "--table", "curves");
        assertEquals(2, noSweep.code());
        assertTrue(noSweep.err().strip().endsWith("data/sample has none"), noSweep.err());
    }

    /** The rows of compare's CSV (a field with a comma is quoted; none here holds a quote). */
    private static List<Map<String, String>> csv(String text) {
        List<String> lines = text.lines().toList();
        List<String> header = CsvFields.of(lines.get(0));
        return lines.subList(1, lines.size()).stream().map(l -> {
            List<String> v = CsvFields.of(l);
            Map<String, String> m = new HashMap<>();
            for (int i = 0; i < header.size(); i++) {
                m.put(header.get(i), i < v.size() ? v.get(i) : "");
            }
            return m;
        }).toList();
    }
}
