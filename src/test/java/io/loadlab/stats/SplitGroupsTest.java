package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Groups whose runs differ in connection count or rate are split, never pooled, and every
 * analysis agrees on the split (issue 11).
 */
class SplitGroupsTest {

    private static final CompareOptions DEFAULTS = CompareOptions.defaults();

    /**
     * Two experiments loaded together: "low" at 16 connections (web and api), "high" at 256 (web
     * only), 3 rounds each; web does 1000/s at 16 and 3000/s at 256, api 900/s.
     */
    private static Table twoExperiments() {
        RunsTable t = new RunsTable("rps");
        IntColumn connections = IntColumn.create("connections");
        t.experiment("low");
        for (int r = 1; r <= 3; r++) {
            t.row("web", "", "json", r, "ok", 1000 + r, false, 0, 0);
            t.row("api", "", "json", r, "ok", 900 + 2 * r, false, 0, 0);
            connections.append(16).append(16);
        }
        t.experiment("high");
        for (int r = 1; r <= 3; r++) {
            t.row("web", "", "json", r, "ok", 3000 + r, false, 0, 0);
            connections.append(256);
        }
        return t.table().addColumns(connections);
    }

    @Test
    void aSummaryKeepsTwoConnectionCountsApartAndLeavesOthersUnlabelled() {
        Table s = Stats.summarize(twoExperiments(), "rps");
        assertEquals(List.of("api", "web", "web"), s.stringColumn("subject").asList());
        assertEquals(List.of("", "connections=16", "connections=256"), s.stringColumn("variant").asList());
        assertEquals(List.of(3, 3, 3), s.intColumn("n").asList());
        assertEquals(3002.0, s.doubleColumn("mean").get(2), 1e-9, "never pooled with the 1000/s rounds");
    }

    @Test
    void aSplitGroupIsWarnedAboutOnceWithItsSettingsAndParts() {
        List<Warning> split = Warnings.find(twoExperiments(), "rps", WarningOptions.defaults()).stream()
                .filter(w -> w.kind().equals("split_group")).toList();
        assertEquals(1, split.size(), split.toString());
        Warning w = split.get(0);
        assertEquals("web", w.subject());
        assertEquals("", w.variant());
        assertEquals(List.of(1, 2, 3), w.rounds());
        assertEquals("web / json: its runs were made with different connection counts (16, 256), so they are"
                + " analysed apart, never pooled: web [connections=16], web [connections=256]", w.message());
    }

    @Test
    void eachPartIsComparedWithTheBaselineAtItsOwnSetting() {
        List<ComparisonRow> rows = Comparison.rows(twoExperiments(), "rps", "api", DEFAULTS);
        ComparisonRow low = rows.stream().filter(r -> r.variant().equals("connections=16")).findFirst().orElseThrow();
        ComparisonRow high = rows.stream().filter(r -> r.variant().equals("connections=256")).findFirst().orElseThrow();
        assertEquals("api", low.baseline(), "api ran at 16 connections only, so it is not split");
        assertEquals(Verdict.FASTER, low.verdict());
        assertEquals(Design.PAIRED, low.design(), "same experiment, same rounds");
        assertEquals(Verdict.NO_BASELINE, high.verdict(), "api never ran at 256 connections");
        assertEquals("baseline has no ok run on workload json with connections=256,rate=none, and runs at another"
                + " setting are not comparable", high.note());
    }

    @Test
    void theBaselineSubjectsOwnPartsAreComparedWithItsFirstOne() {
        List<ComparisonRow> rows = Comparison.rows(twoExperiments(), "rps", "web", DEFAULTS);
        ComparisonRow high = rows.stream().filter(r -> r.variant().equals("connections=256")).findFirst().orElseThrow();
        assertEquals("web [connections=16]", high.baseline());
        assertEquals(Design.WELCH, high.design(), "rounds of different experiments are not pairs");
        assertEquals(3.0, high.ratio(), 0.01);
    }

    @Test
    void fixedRatesAndAClosedLoopAreSplitByRate() {
        RunsTable t = new RunsTable("lat_p99_us");
        DoubleColumn rate = DoubleColumn.create("target_rps");
        for (int r = 1; r <= 3; r++) {
            t.row("web", "", "json", r, "ok", 800, false, 0, 0);
            rate.appendMissing();
            t.row("web", "", "json", r, "ok", 900, false, 0, 0);
            rate.append(2000);
            t.row("web", "", "json", r, "ok", 700, false, 0, 0);
            rate.append(1000);
        }
        Table runs = t.table().addColumns(rate);
        assertEquals(List.of("rate=1000", "rate=2000", "rate=none"),
                Stats.summarize(runs, "lat_p99_us").stringColumn("variant").asList());
        Warning w = Warnings.find(runs, "lat_p99_us", WarningOptions.defaults()).get(0);
        assertEquals("split_group", w.kind());
        assertTrue(w.message().contains("different target rates (1000, 2000, none)"), w.message());
    }

    @Test
    void enginesMeetAtTheSameSettingAndCarryItInTheirLabels() {
        StringColumn engine = StringColumn.create("engine");
        IntColumn connections = IntColumn.create("connections");
        RunsTable t = new RunsTable("rps");
        for (int r = 1; r <= 3; r++) {
            t.row("web", "", "json", r, "ok", 1000 + r, false, 0, 0);
            engine.append("builtin");
            connections.append(16);
            t.row("web", "", "json", r, "ok", 1200 + r, false, 0, 0);
            engine.append("wrk");
            connections.append(16);
            t.row("web", "", "json", r, "ok", 3000 + r, false, 0, 0);
            engine.append("builtin");
            connections.append(256);
        }
        Table runs = t.table().addColumns(engine, connections);
        assertEquals(List.of("connections=16", "connections=256", "engine=wrk,connections=16"),
                Stats.summarize(runs, "rps").stringColumn("variant").asList());
        Table e = Engines.compare(runs, "rps");
        assertEquals(1, e.rowCount(), "wrk ran at 16 connections only");
        assertEquals("connections=16", e.stringColumn("variant").get(0));
        assertEquals(1.2, e.doubleColumn("ratio").get(0), 0.001);
        assertEquals("higher", e.stringColumn("verdict").get(0));
        assertEquals("paired", e.stringColumn("test").get(0));
    }

    @Test
    void mergedHistogramsSplitLikeTheStatistics(@TempDir Path tmp) throws IOException {
        // data/sample twice, once as if run at 16 connections: Results' merged histograms and the
        // summary must name the same groups, and each histogram holds only its own runs' requests.
        Path sample = Path.of(System.getProperty("user.dir"), "data", "sample");
        Path low = copy(sample, tmp.resolve("low"), "sample-c16", "16");
        Results r = Results.load(sample, low);
        Table summary = Stats.summarize(r.runs(), "rps");
        Table percentiles = r.latencyPercentiles();
        assertEquals(labels(summary), labels(percentiles));
        assertTrue(labels(summary).contains("java-netty[durability=memory,connections=16] / json"), labels(summary).toString());
        Table runs = r.okRuns();
        for (String c : List.of("16", "64")) {
            Table mine = runs.where(runs.stringColumn("subject").isEqualTo("java-netty")
                    .and(runs.stringColumn("workload").isEqualTo("json"))
                    .and(runs.intColumn("connections").isEqualTo(Integer.parseInt(c))));
            assertEquals(5, mine.rowCount());
            assertEquals((long) mine.longColumn("requests").sum(),
                    r.latency("java-netty", "durability=memory,connections=" + c, "json").getTotalCount(), c);
        }
        // Nothing pooled: the variant before the split names no group, and the error names the parts.
        io.loadlab.data.DataException e = org.junit.jupiter.api.Assertions.assertThrows(io.loadlab.data.DataException.class,
                () -> r.latency("java-netty", "durability=memory", "json"));
        assertTrue(e.getMessage().endsWith("its variants there: durability=memory,connections=16,"
                + " durability=memory,connections=64"), e.getMessage());
    }

    private static List<String> labels(Table t) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < t.rowCount(); i++) {
            String v = t.stringColumn("variant").get(i);
            out.add(t.stringColumn("subject").get(i) + (v.isEmpty() ? "" : "[" + v + "]") + " / "
                    + t.stringColumn("workload").get(i));
        }
        return out.stream().sorted().collect(Collectors.toList());
    }

    /** The experiment renamed and its connections column set, column 0 and 8 of runs.csv. */
    private static Path copy(Path from, Path to, String name, String connections) throws IOException {
        Files.createDirectories(to);
        Files.copy(from.resolve("latency.hlog"), to.resolve("latency.hlog"));
        Files.copy(from.resolve("experiment.json"), to.resolve("experiment.json"));
        List<String> lines = Files.readAllLines(from.resolve("runs.csv"));
        List<String> out = new ArrayList<>(List.of(lines.get(0)));
        for (String line : lines.subList(1, lines.size())) {
            String[] v = line.split(",", -1);
            v[0] = name;
            v[8] = connections;
            out.add(String.join(",", v));
        }
        Files.write(to.resolve("runs.csv"), out);
        return to;
    }
}
