package io.loadlab.plot;

import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;

/** Line charts over time and over rounds. */
final class LineCharts {

    private LineCharts() {
    }

    static XYChart timeSeries(Table intervals, String metric) {
        Columns.require(intervals, "intervals", Columns.SUBJECT, Columns.VARIANT, Columns.WORKLOAD,
                RunColumn.RUN_ID.id(), Columns.ROUND, Results.INTERVAL_T_S, metric);
        List<Integer> rows = Columns.all(intervals);
        List<String> workloads = Columns.distinct(intervals, Columns.WORKLOAD, rows);
        if (workloads.size() != 1) {
            // Runs of two workloads would share colours and axes while measuring different things.
            throw new PlotException("the intervals table holds several workloads " + workloads
                    + "; chart one at a time, e.g. intervals.where(intervals.stringColumn(\"workload\")"
                    + ".isEqualTo(\"" + workloads.get(0) + "\"))");
        }
        String workload = workloads.get(0);
        MetricLabel label = MetricLabel.of(metric);
        List<Run> ordered = runsOf(intervals, rows, label);
        if (ordered.isEmpty()) {
            throw new PlotException("column '" + metric + "' of the intervals table has no numbers: nothing to plot");
        }

        XYChart chart = Look.xy(new LoadlabXYChart(), label.title() + " over time — " + workload,
                "time since the window start (s)", label.axisTitle());
        Variants variants = new Variants(ordered.stream().map(Run::key).toList());
        Set<String> names = new HashSet<>();
        Set<SeriesKey> inLegend = new HashSet<>();
        double highest = 0;
        for (Run run : ordered) {
            String name = run.key().label() + " r" + run.round();
            if (!names.add(name)) {
                name = name + " #" + run.id(); // two runs of one subject in one round
                names.add(name);
            }
            XYSeries series = chart.addSeries(name, xs(run.points()), ys(run.points()));
            style(series, run.key(), variants, 1.6f);
            series.setMarker(SeriesMarkers.NONE);
            // The runs of one subject look alike by design, so the legend names the subject once.
            long count = ordered.stream().filter(r -> r.key().equals(run.key())).count();
            series.setLabel(count == 1 ? run.key().label() : run.key().label() + " (" + count + " runs)");
            series.setShowInLegend(inLegend.add(run.key()));
            highest = Math.max(highest, run.points().values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
        }
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern(Look.yPattern(highest));
        Look.roundTicksOnly(chart);
        return chart;
    }

    static XYChart perRound(Table runs, String metric, String workloadOrNull) {
        Columns.require(runs, "runs", Columns.SUBJECT, Columns.VARIANT, Columns.WORKLOAD, Columns.STATUS,
                Columns.ROUND, metric);
        List<Integer> rows = Columns.oneWorkload(runs, "runs", Columns.okRuns(runs), workloadOrNull);
        String workload = Columns.text(runs, Columns.WORKLOAD, rows.get(0));
        NumericColumn<?> round = Columns.numbers(runs, "runs", Columns.ROUND);
        NumericColumn<?> value = Columns.numbers(runs, "runs", metric);
        MetricLabel label = MetricLabel.of(metric);

        // Normally one run per subject and round; should there be more, their mean is drawn.
        Map<SeriesKey, Map<Double, double[]>> sums = new TreeMap<>();
        for (int row : rows) {
            double y = Columns.number(value, row);
            double x = Columns.number(round, row);
            if (Double.isFinite(x) && Double.isFinite(y)) {
                double[] sum = sums.computeIfAbsent(Columns.key(runs, row), k -> new TreeMap<>())
                        .computeIfAbsent(x, k -> new double[2]);
                sum[0] += y * label.scale();
                sum[1]++;
            }
        }
        if (sums.isEmpty()) {
            throw new PlotException("no ok run of workload '" + workload + "' has a value in column '"
                    + metric + "': nothing to plot");
        }
        XYChart chart = Look.xy(new LoadlabXYChart(), label.title() + " by round — " + workload,
                "round", label.axisTitle());
        Variants variants = new Variants(sums.keySet());
        double highest = 0;
        for (Map.Entry<SeriesKey, Map<Double, double[]>> e : sums.entrySet()) {
            Map<Double, Double> means = new TreeMap<>();
            e.getValue().forEach((x, sum) -> means.put(x, sum[0] / sum[1]));
            XYSeries series = chart.addSeries(e.getKey().label(), xs(means), ys(means));
            style(series, e.getKey(), variants, 2.2f);
            series.setMarker(SeriesMarkers.CIRCLE);
            series.setMarkerColor(Palette.colorFor(e.getKey().subject()));
            highest = Math.max(highest, means.values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
        }
        // Rounds are whole numbers; this pattern makes XChart pick whole-number ticks.
        chart.getStyler().setXAxisDecimalPattern("0");
        chart.getStyler().setYAxisDecimalPattern(Look.yPattern(highest));
        Look.roundTicksOnly(chart);
        return chart;
    }

    /** The runs with at least one point, in legend order; values scaled to the label's unit. */
    private static List<Run> runsOf(Table intervals, List<Integer> rows, MetricLabel label) {
        NumericColumn<?> runId = Columns.numbers(intervals, "intervals", RunColumn.RUN_ID.id());
        NumericColumn<?> round = Columns.numbers(intervals, "intervals", Columns.ROUND);
        NumericColumn<?> t = Columns.numbers(intervals, "intervals", Results.INTERVAL_T_S);
        NumericColumn<?> value = Columns.numbers(intervals, "intervals", label.column());
        // Run ids are unique within one experiment only: key by experiment too when there is one.
        boolean hasExperiment = intervals.columnNames().contains(RunColumn.EXPERIMENT.id());
        Map<String, Run> runs = new LinkedHashMap<>();
        for (int row : rows) {
            long id = (long) Columns.number(runId, row);
            String runKey = (hasExperiment ? intervals.stringColumn(RunColumn.EXPERIMENT.id()).get(row) : "") + "\u0000" + id;
            Run run = runs.computeIfAbsent(runKey, unused -> new Run(Columns.key(intervals, row),
                    (int) Columns.number(round, row), id, new TreeMap<>()));
            double y = Columns.number(value, row);
            double x = Columns.number(t, row);
            if (Double.isFinite(x) && Double.isFinite(y)) {
                run.points().put(x, y * label.scale());
            }
        }
        List<Run> ordered = new ArrayList<>(runs.values());
        ordered.removeIf(run -> run.points().isEmpty());
        ordered.sort(Comparator.comparing(Run::key).thenComparingInt(Run::round).thenComparingLong(Run::id));
        return ordered;
    }

    private static void style(XYSeries series, SeriesKey key, Variants variants, float width) {
        series.setLineColor(Palette.colorFor(key.subject()));
        series.setLineStyle(Look.stroke(width, variants.index(key)));
    }

    private static double[] xs(Map<Double, Double> points) {
        return points.keySet().stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double[] ys(Map<Double, Double> points) {
        return points.values().stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** One run's points, t_s → value, sorted by time. */
    private record Run(SeriesKey key, int round, long id, TreeMap<Double, Double> points) {
    }
}
