package io.loadlab.stats;

import static io.loadlab.stats.GoldenData.assertRel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class StatsTest {

    @Test
    void oneRowPerGroupSortedWithGoldenFigures() {
        Table runs = new RunsTable("rps")
                .group("beta", "plaintext", GoldenData.B)
                .group("alpha", "plaintext", GoldenData.A)
                .group("alpha", "json", 1, 2, 3)
                .table();
        Table t = Stats.summarize(runs, "rps");
        assertEquals(List.of("subject", "variant", "workload", "metric", "n", "mean", "sd", "cv", "median", "min",
                "max", "ci_low", "ci_high"), t.columnNames());
        assertEquals(3, t.rowCount());
        assertEquals(List.of("alpha", "alpha", "beta"), t.stringColumn("subject").asList());
        assertEquals(List.of("json", "plaintext", "plaintext"), t.stringColumn("workload").asList());
        assertEquals("rps", t.stringColumn("metric").get(1));
        assertEquals(8, t.intColumn("n").get(1));
        assertRel(GoldenData.A_MEAN, t.doubleColumn("mean").get(1), 1e-9, "mean");
        assertRel(GoldenData.A_SD, t.doubleColumn("sd").get(1), 1e-9, "sd");
        assertRel(GoldenData.A_CI_LOW, t.doubleColumn("ci_low").get(1), 1e-9, "ci low");
        assertRel(GoldenData.B_CI_HIGH, t.doubleColumn("ci_high").get(2), 1e-9, "ci high");
        assertEquals(2.0, t.doubleColumn("median").get(0));
    }

    @Test
    void failedRunsAndMissingValuesAreLeftOut() {
        Table runs = new RunsTable("rps")
                .row("alpha", "", "w", 1, "ok", 10, false, 0, 0)
                .row("alpha", "", "w", 2, "failed", 1000, false, 0, 0)
                .row("alpha", "", "w", 3, "ok", Double.NaN, false, 0, 0)
                .row("alpha", "", "w", 4, "ok", 20, false, 0, 0)
                .row("gamma", "", "w", 1, "ok", Double.NaN, false, 0, 0)
                .table();
        Table t = Stats.summarize(runs, "rps");
        assertEquals(1, t.rowCount(), "gamma has no value and no row");
        assertEquals(2, t.intColumn("n").get(0));
        assertEquals(15.0, t.doubleColumn("mean").get(0));
    }

    @Test
    void variantsAreSeparateGroups() {
        Table runs = new RunsTable("rps")
                .group("alpha", "tuned", "w", 5, 7)
                .group("alpha", "", "w", 1, 3)
                .table();
        Table t = Stats.summarize(runs, "rps");
        assertEquals(List.of("", "tuned"), t.stringColumn("variant").asList());
        assertEquals(List.of(2.0, 6.0), t.doubleColumn("mean").asList());
    }

    @Test
    void integerMetricColumnsAreRead() {
        Table runs = Table.create("runs",
                StringColumn.create("subject", "a", "a", "a"),
                StringColumn.create("variant", "", "", ""),
                StringColumn.create("workload", "w", "w", "w"),
                StringColumn.create("status", "ok", "ok", "ok"),
                IntColumn.create("round", 1, 2, 3),
                LongColumn.create("server_peak_rss_bytes", 3_000_000_000L, 3_000_000_002L, 3_000_000_004L),
                IntColumn.create("errors_read", 1, 2, 6));
        runs.longColumn("server_peak_rss_bytes").setMissing(2);
        Table rss = Stats.summarize(runs, "server_peak_rss_bytes");
        assertEquals(2, rss.intColumn("n").get(0));
        assertEquals(3_000_000_001.0, rss.doubleColumn("mean").get(0));
        assertEquals(3.0, Stats.summarize(runs, "errors_read").doubleColumn("mean").get(0));
    }

    @Test
    void unknownMetricNamesItAndListsNumericColumns() {
        Table runs = new RunsTable("rps").group("alpha", "w", 1, 2).table();
        StatsException e = assertThrows(StatsException.class, () -> Stats.summarize(runs, "rsp"));
        assertTrue(e.getMessage().contains("unknown metric 'rsp'"), e.getMessage());
        assertTrue(e.getMessage().contains("numeric columns: rps, errors_connect, errors_timeout"), e.getMessage());
    }

    @Test
    void nonNumericMetricIsUnknown() {
        Table runs = new RunsTable("rps").group("alpha", "w", 1, 2).table();
        StatsException e = assertThrows(StatsException.class, () -> Stats.summarize(runs, "subject"));
        assertTrue(e.getMessage().contains("unknown metric 'subject'"), e.getMessage());
    }

    @Test
    void missingRunColumnsAreNamed() {
        Table runs = Table.create("runs", StringColumn.create("subject", "a"));
        StatsException e = assertThrows(StatsException.class, () -> Stats.summarize(runs, "rps"));
        assertTrue(e.getMessage().contains("variant, workload, status, round"), e.getMessage());
    }
}
