package io.loadlab.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** What the charts show, checked on small hand-made tables. */
class ChartContentTest {

    @Test
    void throughputBarsAreMeansWithHalfTheIntervalAsErrorBars() {
        Table summary = summary(
                row("nginx", "", "json", 100, 90, 110),
                row("go-nethttp", "", "json", 80, 70, 86),
                row("go-nethttp", "", "plaintext", 95, Double.NaN, Double.NaN),
                row("go-nethttp", "tuned", "json", 85, 84, 86));

        CategoryChart chart = Charts.throughput(summary, null);

        assertEquals("Throughput", chart.getTitle());
        assertEquals("requests/s, mean ± 95% CI", chart.getYAxisTitle());
        assertEquals(List.of("go-nethttp", "go-nethttp [tuned]", "nginx"), List.copyOf(chart.getSeriesMap().keySet()));
        CategorySeries go = chart.getSeriesMap().get("go-nethttp");
        assertEquals(List.of("json", "plaintext"), List.copyOf(go.getXData()));
        assertEquals(List.of(80.0, 95.0), List.copyOf(go.getYData()));
        assertEquals(List.of(8.0, 0.0), List.copyOf(go.getExtraValues()), "NaN interval → no error bar");
        CategorySeries nginx = chart.getSeriesMap().get("nginx");
        assertEquals(List.of(100.0, 0.0), List.copyOf(nginx.getYData()), "no plaintext row → zero bar");
        assertEquals(List.of(10.0, 0.0), List.copyOf(nginx.getExtraValues()));
        assertEquals(Palette.tint(Palette.colorFor("go-nethttp"), 1),
                chart.getSeriesMap().get("go-nethttp [tuned]").getFillColor());
    }

    @Test
    void oneWorkloadKeepsOnlyItsBars() {
        CategoryChart chart = Charts.throughput(Fixtures.summary(), "json");

        for (CategorySeries series : chart.getSeriesMap().values()) {
            assertEquals(List.of("json"), List.copyOf(series.getXData()));
        }
    }

    @Test
    void perServerCpuUsesItsMetric() {
        Table summary = summary(row("nginx", "", "json", 1, 1, 1));
        summary.stringColumn("metric").set(0, "rps_per_server_cpu_s");

        CategoryChart chart = Charts.perServerCpu(summary);

        assertEquals("requests per server CPU-second, mean ± 95% CI", chart.getYAxisTitle());
    }

    @Test
    void perRoundLeavesOutFailedRunsAndKeepsRoundOrder() {
        XYChart chart = Charts.perRound(Fixtures.runs(), "rps", "json");

        XYSeries node = chart.getSeriesMap().get("node-http");
        assertEquals(List.of(1.0, 2.0, 4.0, 5.0), box(node.getXData()), "round 3 of node-http failed");
        assertEquals(5, chart.getSeriesMap().get("nginx").getXData().length);
        assertEquals("Throughput by round — json", chart.getTitle());
        assertEquals("round", chart.getXAxisTitle());
    }

    @Test
    void perRoundShowsLatencyInMilliseconds() {
        XYChart chart = Charts.perRound(Fixtures.runs(), "lat_p99_us", "json");

        assertEquals("p99 latency (ms)", chart.getYAxisTitle());
        double p99 = chart.getSeriesMap().get("nginx").getYData()[0];
        assertTrue(p99 > 0.5 && p99 < 5, "fixture p99 is about 1-2 ms, got " + p99);
    }

    @Test
    void timeSeriesHasOneLineAPerRunAndOneLegendEntryPerSubject() {
        XYChart chart = Charts.timeSeries(Fixtures.intervals(List.of("java-netty", "nginx"), 3), "rps");

        assertEquals(List.of("java-netty r1", "java-netty r2", "java-netty r3", "nginx r1", "nginx r2", "nginx r3"),
                List.copyOf(chart.getSeriesMap().keySet()));
        long inLegend = chart.getSeriesMap().values().stream().filter(s -> s.isShowInLegend()).count();
        assertEquals(2, inLegend);
        assertEquals("java-netty (3 runs)", chart.getSeriesMap().get("java-netty r1").getLabel());
        assertFalse(chart.getSeriesMap().get("java-netty r2").isShowInLegend());
        assertEquals(30, chart.getSeriesMap().get("nginx r2").getXData().length);
        assertEquals("time since the window start (s)", chart.getXAxisTitle());
        assertEquals("requests/s", chart.getYAxisTitle());
    }

    @Test
    void evenlySpacedSecondsDoNotGetATickLabelEach() {
        // XChart labelled all 30 one-second points ("1011121314…"); ending the axis half a step
        // late makes it fall back to round ticks.
        XYChart chart = Charts.timeSeries(Fixtures.intervals(List.of("nginx"), 1), "rps");

        assertEquals(30.5, chart.getStyler().getXAxisMax());
        assertEquals(null, Charts.perRound(Fixtures.runs(), "rps", "json").getStyler().getXAxisMax(),
                "five rounds keep a tick each");
    }

    @Test
    void timeSeriesSkipsMissingSeconds() {
        Table intervals = Fixtures.intervals(List.of("nginx"), 1);
        intervals.doubleColumn("lat_p99_us").setMissing(4);

        XYChart chart = Charts.timeSeries(intervals, "lat_p99_us");

        assertEquals(29, chart.getSeriesMap().get("nginx r1").getXData().length);
        assertEquals("nginx", chart.getSeriesMap().get("nginx r1").getLabel());
    }

    @Test
    void peakRssIsTheMeanOfOkRunsInMebibytes() {
        CategoryChart chart = Charts.peakRss(Fixtures.runs());

        assertEquals("MiB, mean over rounds", chart.getYAxisTitle());
        double netty = chart.getSeriesMap().get("java-netty").getYData().iterator().next().doubleValue();
        assertEquals(8.0, netty, 0.5);
    }

    @Test
    void metricLabelsConvertUnits() {
        assertEquals(new MetricLabel("lat_p999_us", "p99.9 latency", "p99.9 latency (ms)", 1e-3),
                MetricLabel.of("lat_p999_us"));
        assertEquals("Mean service time", MetricLabel.of("svc_mean_us").title());
        assertEquals(1.0 / (1024 * 1024), MetricLabel.of("server_peak_rss_bytes").scale());
        assertEquals("requests", MetricLabel.of("requests").axisTitle());
    }

    @Test
    void throughputColumnsHaveTheirOwnTitles() {
        assertEquals(new MetricLabel("rps", "Throughput", "requests/s", 1), MetricLabel.of("rps"));
        assertEquals("Throughput per server CPU-second", MetricLabel.of("rps_per_server_cpu_s").title());
        assertEquals("requests per load CPU-second", MetricLabel.of("rps_per_load_cpu_s").axisTitle());
        assertEquals("Server peak memory (RSS)", MetricLabel.of("server_peak_rss_bytes").title());
        assertEquals(new MetricLabel("not_a_column", "not_a_column", "not_a_column", 1), MetricLabel.of("not_a_column"));
    }

    private static Object[] row(String subject, String variant, String workload, double mean, double low, double high) {
        return new Object[] {subject, variant, workload, mean, low, high};
    }

    private static Table summary(Object[]... rows) {
        StringColumn subject = StringColumn.create("subject");
        StringColumn variant = StringColumn.create("variant");
        StringColumn workload = StringColumn.create("workload");
        StringColumn metric = StringColumn.create("metric");
        IntColumn n = IntColumn.create("n");
        DoubleColumn mean = DoubleColumn.create("mean");
        DoubleColumn sd = DoubleColumn.create("sd");
        DoubleColumn low = DoubleColumn.create("ci_low");
        DoubleColumn high = DoubleColumn.create("ci_high");
        for (Object[] r : rows) {
            subject.append((String) r[0]);
            variant.append((String) r[1]);
            workload.append((String) r[2]);
            metric.append("rps");
            n.append(5);
            mean.append((double) r[3]);
            sd.append(1.0);
            low.append((double) r[4]);
            high.append((double) r[5]);
        }
        return Table.create("summary", subject, variant, workload, metric, n, mean, sd, low, high);
    }

    private static List<Double> box(double[] values) {
        return java.util.Arrays.stream(values).boxed().toList();
    }
}
