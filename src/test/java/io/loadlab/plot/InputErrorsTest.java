package io.loadlab.plot;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** Bad input fails with a message that names what is wrong and what is there instead. */
class InputErrorsTest {

    @Test
    void missingColumnIsNamedWithTheColumnsPresent() {
        Table runs = Fixtures.runs().removeColumns("server_peak_rss_bytes");

        String message = failure(() -> Charts.peakRss(runs));

        assertContains(message, "no column 'server_peak_rss_bytes'");
        assertContains(message, "columns present: [subject, variant, workload, status");
    }

    @Test
    void missingMetricColumnOfPerRoundIsNamed() {
        assertContains(failure(() -> Charts.perRound(Fixtures.runs(), "rps_typo", "json")), "no column 'rps_typo'");
    }

    @Test
    void summaryWithoutConfidenceIntervalsIsRejected() {
        Table summary = Fixtures.summary().removeColumns("ci_high");

        assertContains(failure(() -> Charts.throughput(summary, null)), "summary table has no column 'ci_high'");
    }

    @Test
    void emptyTableSaysThereIsNothingToPlot() {
        Table empty = Fixtures.runs().emptyCopy();

        assertContains(failure(() -> Charts.peakRss(empty)), "runs table is empty: nothing to plot");
        assertContains(failure(() -> Charts.timeSeries(Fixtures.intervals(List.of("nginx"), 1).emptyCopy(), "rps")),
                "intervals table is empty: nothing to plot");
    }

    @Test
    void unknownMetricListsTheMetricsPresent() {
        String message = failure(() -> Charts.metricBars(Fixtures.summary(), "lat_p99_us", null));

        assertContains(message, "no rows for metric 'lat_p99_us'");
        assertContains(message, "[rps, rps_per_server_cpu_s]");
    }

    @Test
    void unknownWorkloadListsTheWorkloadsPresent() {
        assertContains(failure(() -> Charts.throughput(Fixtures.summary(), "upload")),
                "no rows for workload 'upload'; workloads present: [plaintext, json]");
        assertContains(failure(() -> Charts.perRound(Fixtures.runs(), "rps", "upload")),
                "workloads present: [plaintext, json]");
    }

    @Test
    void perRoundNeedsAWorkloadWhenThereAreSeveral() {
        assertContains(failure(() -> Charts.perRound(Fixtures.runs(), "rps", null)),
                "holds 2 workloads [plaintext, json]; name the one to plot");
    }

    @Test
    void timeSeriesOfSeveralWorkloadsAsksForAFilter() {
        Table intervals = Fixtures.intervals(List.of("nginx"), 2);
        StringColumn workload = intervals.stringColumn("workload");
        workload.set(0, "json");

        assertContains(failure(() -> Charts.timeSeries(intervals, "rps")), "several workloads [json, plaintext]");
    }

    @Test
    void textWhereNumbersAreNeededIsNamed() {
        Table runs = Fixtures.runs();
        runs.replaceColumn("rps", StringColumn.create("rps", runs.rowCount()));

        assertContains(failure(() -> Charts.perRound(runs, "rps", "json")),
                "column 'rps' of the runs table must be numeric, but it holds STRING values");
    }

    @Test
    void noOkRunIsNothingToPlot() {
        Table runs = Fixtures.runs();
        runs.stringColumn("status").set(runs.stringColumn("status").isEqualTo("ok"), "failed");

        assertContains(failure(() -> Charts.peakRss(runs)), "no run with status 'ok'");
    }

    private static String failure(Executable chart) {
        return assertThrows(PlotException.class, chart).getMessage();
    }

    private static void assertContains(String message, String part) {
        assertTrue(message.contains(part), "expected '" + part + "' in: " + message);
    }
}
