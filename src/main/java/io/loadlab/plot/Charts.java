package io.loadlab.plot;

import io.loadlab.data.RunColumn;
import io.loadlab.stats.Knee;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * The charts of an experiment, built from the tables of {@code io.loadlab.data} and
 * {@code io.loadlab.stats}. Every chart is {@value #WIDTH} × {@value #HEIGHT} pixels (the
 * width of a report's page), on white, with titles, units and a legend outside the plot, prints
 * as one line ({@link #describe}), and gives each subject its
 * {@link Palette} colour; variants of a subject share its colour and differ by line style (lines)
 * or tint (bars), and are labelled {@code "subject [variant]"}. Save or render them with
 * {@link ChartFiles}.
 *
 * <p>Each call builds a new, independent chart (a mutable XChart object the caller may restyle);
 * the functions are thread-safe as long as the input tables are not modified meanwhile. Bad input
 * throws {@link PlotException}: a missing column (named, with the columns present), a non-numeric
 * column where numbers are needed, an empty table, or a filter that leaves nothing to plot.
 */
public final class Charts {

    /** Width of every chart in pixels, also the width of a report's content (notebooks/report.ipynb). */
    public static final int WIDTH = Look.WIDTH;
    /** Height of every chart in pixels. */
    public static final int HEIGHT = Look.HEIGHT;

    private Charts() {
    }

    /**
     * A chart in one line, as JShell and a notebook's text show it: its XChart type, title and size,
     * {@code CategoryChart Throughput (1200×600 px)}.
     */
    public static String describe(Chart<?, ?> chart) {
        Class<?> type = chart.getClass();
        while (!type.getPackageName().startsWith("org.knowm.xchart") && type.getSuperclass() != null) {
            type = type.getSuperclass();
        }
        String title = chart.getTitle() == null || chart.getTitle().isBlank() ? "(untitled)" : chart.getTitle();
        return type.getSimpleName() + " " + title + " (" + chart.getWidth() + "×" + chart.getHeight() + " px)";
    }

    /**
     * Mean throughput per subject with 95% confidence intervals.
     *
     * @param summary        the summary table ({@code Stats.summarize}): string columns subject,
     *                       variant, workload, metric; numeric mean, ci_low, ci_high (others ignored)
     * @param workloadOrNull one workload to show, or null for one group of bars per workload
     * @return bars of mean requests/s, grouped by workload, with error bars of the interval's
     *         half-width; title "Throughput"
     */
    public static CategoryChart throughput(Table summary, String workloadOrNull) {
        return metricBars(summary, RunColumn.RPS.id(), workloadOrNull);
    }

    /**
     * Efficiency: mean requests per second of server CPU time, with 95% confidence intervals.
     *
     * @param summary the summary table, as for {@link #throughput}
     * @return bars of metric {@code rps_per_server_cpu_s}, one group per workload
     */
    public static CategoryChart perServerCpu(Table summary) {
        return metricBars(summary, RunColumn.RPS_PER_SERVER_CPU_S.id(), null);
    }

    /**
     * Bars of any metric of the summary table: mean per subject and workload, with error bars of
     * half the 95% interval (NaN bounds draw none). An error bar never reaches below 0: it is cut at
     * the axis, and the title says so with the n of those groups ({@code "Throughput — error bars cut
     * at 0 for n = 2"}; the summary's {@code n} column, {@code ?} without one). Title and unit follow the metric: latencies
     * stored in µs are shown in ms, bytes in MiB; unknown metrics as they are stored.
     *
     * @param summary        the summary table, as for {@link #throughput}
     * @param metric         a value of its metric column, such as {@code "lat_p99_us"}
     * @param workloadOrNull one workload to show, or null for all
     */
    public static CategoryChart metricBars(Table summary, String metric, String workloadOrNull) {
        return BarCharts.metricBars(summary, metric, workloadOrNull);
    }

    /**
     * The latency spectrum: latency (ms) against percentile on the "nines" scale, where
     * percentile p is drawn at x = 1 / (1 − p/100) on a log axis labelled 0%, 50%, 90%, 99%, 99.9%,
     * 99.99%. Each line samples its histogram about ten times a decade up to 99.99% (only as far
     * as its count allows) and ends at its maximum, drawn at x = count. The y axis is logarithmic
     * when the latencies span a factor of 10 or more, linear from 0 otherwise.
     *
     * @param bySeries histograms with values in µs, keyed by series label ({@code "java-netty"}
     *                 or {@code "java-netty [variant]"}); empty histograms are left out
     * @param workload shown in the title; may be null
     * @throws PlotException when there is no histogram, or every one is empty
     */
    public static XYChart latencySpectrum(Map<String, Histogram> bySeries, String workload) {
        return Spectrum.chart(bySeries, workload);
    }

    /**
     * One metric per second through each run, one line per run (series named
     * {@code "subject r<round>"}), all runs of a subject in its colour; the legend names each
     * subject once, with its number of runs.
     *
     * @param intervals the intervals table of one workload: string subject, variant, workload;
     *                  numeric run_id, round, t_s (s since the run's window start) and the metric
     * @param metric    a numeric column such as {@code "rps"} or {@code "lat_p99_us"} (shown in ms)
     * @throws PlotException also when the table holds more than one workload (filter it first)
     */
    public static XYChart timeSeries(Table intervals, String metric) {
        return LineCharts.timeSeries(intervals, metric);
    }

    /**
     * A metric of each ok run against its round, one line with markers per subject: shows drift
     * across the experiment and the noise between rounds.
     *
     * @param runs     the runs table: string subject, variant, workload, status; numeric round
     *                 and the metric; rows whose status is not "ok" are left out
     * @param metric   a numeric column such as {@code "rps"}
     * @param workload the workload to show; null is allowed when the table holds only one
     */
    public static XYChart perRound(Table runs, String metric, String workload) {
        return LineCharts.perRound(runs, metric, workload);
    }

    /**
     * Mean peak resident memory of the server process tree (MiB) per subject, one group of bars
     * per workload, over the ok runs that sampled it.
     *
     * @param runs the runs table with a numeric {@code server_peak_rss_bytes} column
     */
    public static CategoryChart peakRss(Table runs) {
        return BarCharts.peakRss(runs);
    }

    /**
     * Latency against achieved throughput from a latency sweep: one line with markers per subject
     * through its fixed-rate points (achieved requests/s on x, latency in ms on y, logarithmic when
     * the values span a factor of 10 or more), its 95% round-bootstrap interval as two thin dotted
     * lines in its colour. Where the line turns upwards is the knee.
     *
     * @param curves         the curves table ({@code LatencyCurves.curves}): string subject,
     *                       variant, workload; numeric rps and {@code lat_<percentile>_us} with its
     *                       {@code _ci_low_us} and {@code _ci_high_us}
     * @param percentile     {@code p50}, {@code p99} or {@code p999}
     * @param workloadOrNull the workload; null when the table holds only one
     * @throws PlotException for another percentile, missing columns, or no point to plot
     */
    public static XYChart latencyThroughput(Table curves, String percentile, String workloadOrNull) {
        return CurveCharts.latencyThroughput(curves, percentile, workloadOrNull);
    }

    /**
     * The p99 curves of {@link #latencyThroughput} with the knees found on them: the p99
     * objective as a grey dashed line and each knee that lies between two measured points as a
     * diamond on it, at its throughput (a knee above or below the sweep's range is not drawn; the
     * knee table says {@code >} or {@code <}).
     *
     * @param curves         the curves table ({@code LatencyCurves.curves})
     * @param knees          their knees ({@code Knees.find}), all at one objective; those of other
     *                       workloads are left out
     * @param workloadOrNull the workload; null when the table holds only one
     * @throws PlotException with no knee, missing columns, or no point to plot
     */
    public static XYChart latencyThroughputWithKnees(Table curves, List<Knee> knees, String workloadOrNull) {
        return CurveCharts.withKnees(curves, knees, workloadOrNull);
    }

    /**
     * The cost of protocols ({@code Protocols.cost} or {@code Protocols.compare}): for one metric,
     * each protocol's ratio to the same subject's h1 runs as a bar per subject (one colour per
     * protocol: h1-tls, h2-tls, h2c), beside a grey bar of 1 for h1 itself, where a protocol costs
     * nothing.
     * The error bars reach the farther end of the ratio's 95% bootstrap interval on both sides
     * (XChart draws symmetric ones; the interval itself need not be), so they never look narrower
     * than it. Rows without a ratio (no h1 runs) are left out; with several workloads each bar is
     * labelled {@code workload: subject}.
     *
     * @param cost   the table: string subject, variant, workload, protocol, metric; numeric ratio,
     *               ratio_ci_low, ratio_ci_high
     * @param metric the rows to show, {@code rps_per_server_cpu_s} or {@code rps}
     * @throws PlotException for missing columns, or when no row of that metric has a ratio
     */
    public static CategoryChart protocolCost(Table cost, String metric) {
        return ProtocolChart.chart(cost, metric);
    }
}
