package io.loadlab.plot;

import io.loadlab.data.RunColumn;
import io.loadlab.format.Units;
import io.loadlab.stats.Knee;
import io.loadlab.stats.StatsColumn;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;

/** Latency–throughput curves of a latency sweep ({@code LatencyCurves.curves}). */
final class CurveCharts {

    private static final double MICROS_PER_MS = 1000.0;
    private static final List<String> PERCENTILES = List.of("p50", "p99", "p999");
    /** Pixels between x ticks that XChart aims for: room for a label of six digits and a separator. */
    static final int X_TICK_SPACING_PX = 110;
    private static final java.awt.Color OBJECTIVE = new java.awt.Color(0x555555);

    private CurveCharts() {
    }

    static XYChart latencyThroughput(Table curves, String percentile, String workloadOrNull) {
        return draw(curves, percentile, workloadOrNull, List.of());
    }

    /** The p99 curves with the knees' objective as a dashed line and each knee between points marked. */
    static XYChart withKnees(Table curves, List<Knee> knees, String workloadOrNull) {
        if (knees.isEmpty()) {
            throw new PlotException("no knee to mark: give the knees of the curves (Knees.find)");
        }
        return draw(curves, "p99", workloadOrNull, knees);
    }

    private static XYChart draw(Table curves, String percentile, String workloadOrNull, List<Knee> knees) {
        if (!PERCENTILES.contains(percentile)) {
            throw new PlotException("percentile must be one of " + PERCENTILES + ", got '" + percentile + "'");
        }
        RunColumn column = RunColumn.of("lat_" + percentile + "_us").orElseThrow();
        Columns.require(curves, "curves", Columns.SUBJECT, Columns.VARIANT, Columns.WORKLOAD, RunColumn.RPS.id(),
                column.id(), StatsColumn.ciLow(column), StatsColumn.ciHigh(column));
        List<Integer> rows = Columns.oneWorkload(curves, "curves", Columns.all(curves), workloadOrNull);
        String workload = Columns.text(curves, Columns.WORKLOAD, rows.get(0));
        NumericColumn<?> rps = Columns.numbers(curves, "curves", RunColumn.RPS.id());
        NumericColumn<?>[] lat = {Columns.numbers(curves, "curves", column.id()),
            Columns.numbers(curves, "curves", StatsColumn.ciLow(column)),
            Columns.numbers(curves, "curves", StatsColumn.ciHigh(column))};
        // Per series: achieved rps -> {value, low, high} in ms, in ascending throughput.
        Map<SeriesKey, TreeMap<Double, double[]>> series = new TreeMap<>();
        for (int row : rows) {
            double x = Columns.number(rps, row);
            double y = Columns.number(lat[0], row);
            if (Double.isFinite(x) && Double.isFinite(y) && y > 0) {
                series.computeIfAbsent(Columns.key(curves, row), k -> new TreeMap<>()).put(x, new double[] {
                    y / MICROS_PER_MS, Columns.number(lat[1], row) / MICROS_PER_MS,
                    Columns.number(lat[2], row) / MICROS_PER_MS});
            }
        }
        if (series.isEmpty()) {
            throw new PlotException("the curves of workload '" + workload + "' have no point with a " + percentile
                    + ": nothing to plot");
        }
        String shown = percentile.equals("p999") ? "p99.9" : percentile;
        XYChart chart = Look.xy(new LoadlabXYChart(), "Latency " + shown + " against throughput — " + workload
                + " (dotted: 95% CI over rounds)", "achieved throughput (requests/s)", "latency " + shown + " (ms)");
        Variants variants = new Variants(series.keySet());
        double low = Double.POSITIVE_INFINITY;
        double high = 0;
        for (Map.Entry<SeriesKey, TreeMap<Double, double[]>> e : series.entrySet()) {
            TreeMap<Double, double[]> points = e.getValue();
            double[] xs = points.keySet().stream().mapToDouble(Double::doubleValue).toArray();
            XYSeries line = chart.addSeries(e.getKey().label(), xs, column(points, 0));
            line.setLineColor(Palette.colorFor(e.getKey().subject()));
            line.setLineStyle(Look.stroke(2.2f, variants.index(e.getKey())));
            line.setMarker(SeriesMarkers.CIRCLE);
            line.setMarkerColor(Palette.colorFor(e.getKey().subject()));
            for (double[] v : points.values()) {
                low = Math.min(low, Double.isFinite(v[1]) && v[1] > 0 ? Math.min(v[0], v[1]) : v[0]);
                high = Math.max(high, Double.isFinite(v[2]) ? Math.max(v[0], v[2]) : v[0]);
            }
            bounds(chart, e.getKey(), xs, points);
        }
        if (!knees.isEmpty()) {
            double slo = knees.get(0).sloUs() / MICROS_PER_MS;
            low = Math.min(low, slo);
            high = Math.max(high, slo);
            double maxX = series.values().stream().mapToDouble(TreeMap::lastKey).max().orElseThrow();
            objective(chart, knees.stream().filter(k -> k.workload().equals(workload)).toList(), slo, maxX);
        }
        axes(chart, low, high);
        return chart;
    }

    /** The y range (log when it spans a factor of 10), x from 0, x ticks spaced for their labels. */
    private static void axes(XYChart chart, double low, double high) {
        Spectrum.scaleY(chart, low, high);
        chart.getStyler().setXAxisMin(0.0);
        // Throughput labels such as "75,000" are wider than XChart's default spacing of 74 px allows:
        // with ticks every 5,000 they ran into each other ("5,00010,000...").
        chart.getStyler().setXAxisTickMarkSpacingHint(X_TICK_SPACING_PX);
    }

    /**
     * The objective as a grey dashed line across the chart, and the knees that lie between two
     * points as diamonds on it (a knee beyond the sweep's range has no place on the chart).
     */
    private static void objective(XYChart chart, List<Knee> knees, double sloMs, double maxX) {
        XYSeries line = chart.addSeries("p99 objective " + Units.latency(sloMs * MICROS_PER_MS),
                new double[] {0, maxX}, new double[] {sloMs, sloMs});
        line.setLineColor(OBJECTIVE);
        line.setLineStyle(Look.stroke(1.5f, 1));
        line.setMarker(SeriesMarkers.NONE);
        double[] xs = knees.stream().filter(k -> k.bound() == Knee.Bound.WITHIN && Double.isFinite(k.rps()))
                .mapToDouble(Knee::rps).toArray();
        if (xs.length > 0) {
            double[] ys = new double[xs.length];
            java.util.Arrays.fill(ys, sloMs);
            XYSeries marks = chart.addSeries("knee", xs, ys);
            marks.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            marks.setMarker(SeriesMarkers.DIAMOND);
            marks.setMarkerColor(OBJECTIVE);
        }
    }

    /** The interval's ends as thin dotted lines in the series' colour, left out of the legend. */
    private static void bounds(XYChart chart, SeriesKey key, double[] xs, TreeMap<Double, double[]> points) {
        for (int k = 1; k <= 2; k++) {
            double[] ys = column(points, k);
            if (java.util.Arrays.stream(ys).noneMatch(y -> Double.isFinite(y) && y > 0)) {
                continue; // one round: no interval
            }
            // A log axis cannot draw a missing end: the point's own value stands in for it.
            double[] values = column(points, 0);
            for (int i = 0; i < ys.length; i++) {
                ys[i] = Double.isFinite(ys[i]) && ys[i] > 0 ? ys[i] : values[i];
            }
            XYSeries s = chart.addSeries(key.label() + (k == 1 ? " CI low" : " CI high"), xs, ys);
            s.setLineColor(Palette.colorFor(key.subject()));
            s.setLineStyle(Look.stroke(1f, 2));
            s.setMarker(SeriesMarkers.NONE);
            s.setShowInLegend(false);
        }
    }

    private static double[] column(TreeMap<Double, double[]> points, int k) {
        return points.values().stream().mapToDouble(v -> v[k]).toArray();
    }
}
