package io.loadlab.plot;

import io.loadlab.data.RunColumn;
import io.loadlab.stats.StatsColumn;
import java.awt.Color;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;

/** Bar charts: one group of bars per workload, one bar per subject (and variant) in each. */
final class BarCharts {

    /** The y axis ends this far above the highest bar or error bar. */
    private static final double TOP_ROOM = 1.06;

    private BarCharts() {
    }

    static CategoryChart metricBars(Table summary, String metric, String workloadOrNull) {
        Columns.require(summary, "summary", Columns.SUBJECT, Columns.VARIANT, Columns.WORKLOAD,
                StatsColumn.METRIC.id(), StatsColumn.MEAN.id(), StatsColumn.CI_LOW.id(), StatsColumn.CI_HIGH.id());
        List<Integer> all = Columns.all(summary);
        List<Integer> rows = Columns.rowsWhere(summary, StatsColumn.METRIC.id(), metric, all);
        if (rows.isEmpty()) {
            throw new PlotException("the summary table has no rows for metric '" + metric
                    + "'; metrics present: " + Columns.distinct(summary, StatsColumn.METRIC.id(), all));
        }
        rows = Columns.anyWorkload(summary, "summary", rows, workloadOrNull);
        MetricLabel label = MetricLabel.of(metric);
        NumericColumn<?> mean = Columns.numbers(summary, "summary", StatsColumn.MEAN.id());
        NumericColumn<?> low = Columns.numbers(summary, "summary", StatsColumn.CI_LOW.id());
        NumericColumn<?> high = Columns.numbers(summary, "summary", StatsColumn.CI_HIGH.id());
        Groups groups = new Groups(Columns.distinct(summary, Columns.WORKLOAD, rows));
        Set<String> cutAtZero = new TreeSet<>();
        for (int row : rows) {
            // XChart draws symmetric error bars; the half-width of the 95% interval is the honest
            // single number when the interval is (nearly) symmetric, as bootstrap ones about a mean are.
            double half = (Columns.number(high, row) - Columns.number(low, row)) / 2;
            double value = Columns.number(mean, row);
            if (value - half < 0) {
                cutAtZero.add(summary.containsColumn(StatsColumn.N.id()) ? Columns.text(summary, StatsColumn.N.id(), row) : "?");
            }
            groups.put(Columns.key(summary, row), Columns.text(summary, Columns.WORKLOAD, row),
                    value * label.scale(), half * label.scale());
        }
        // A count cannot be negative: the plot's bottom edge cuts such intervals (Look.bars), and the
        // title says so, since they come from too few rounds for the interval to say much.
        String title = cutAtZero.isEmpty() ? label.title()
                : label.title() + " — error bars cut at 0 for n = " + String.join(", ", cutAtZero);
        CategoryChart chart = Look.bars(title, "workload", label.axisTitle() + ", mean ± 95% CI");
        groups.addTo(chart, true);
        return chart;
    }

    static CategoryChart peakRss(Table runs) {
        String column = RunColumn.SERVER_PEAK_RSS_BYTES.id();
        Columns.require(runs, "runs", Columns.SUBJECT, Columns.VARIANT, Columns.WORKLOAD, Columns.STATUS, column);
        NumericColumn<?> rss = Columns.numbers(runs, "runs", column);
        List<Integer> ok = Columns.okRuns(runs);
        Map<SeriesKey, Map<String, double[]>> sums = new TreeMap<>();
        for (int row : ok) {
            double bytes = Columns.number(rss, row);
            if (Double.isNaN(bytes)) {
                continue; // not sampled on this platform
            }
            double[] sum = sums.computeIfAbsent(Columns.key(runs, row), k -> new LinkedHashMap<>())
                    .computeIfAbsent(Columns.text(runs, Columns.WORKLOAD, row), w -> new double[2]);
            sum[0] += bytes;
            sum[1]++;
        }
        if (sums.isEmpty()) {
            throw new PlotException("no ok run has a value in column '" + column + "': nothing to plot");
        }
        MetricLabel label = MetricLabel.of(column);
        Groups groups = new Groups(Columns.distinct(runs, Columns.WORKLOAD, ok));
        sums.forEach((key, byWorkload) -> byWorkload.forEach(
                (workload, sum) -> groups.put(key, workload, sum[0] / sum[1] * label.scale(), 0)));
        CategoryChart chart = Look.bars(label.title(), "workload", "MiB, mean over rounds");
        groups.addTo(chart, false);
        return chart;
    }

    /** Values by series key and workload, in the order charts show them. */
    private static final class Groups {
        private final List<String> workloads;
        private final Map<SeriesKey, Map<String, double[]>> values = new TreeMap<>();

        /** @param workloads the categories in table order, so that every chart lists them alike */
        Groups(List<String> workloads) {
            this.workloads = workloads;
        }

        void put(SeriesKey key, String workload, double value, double error) {
            double[] previous = values.computeIfAbsent(key, k -> new HashMap<>())
                    .put(workload, new double[] {value, error});
            if (previous != null) {
                throw new PlotException("two rows for " + key.label() + " and workload '" + workload
                        + "'; a summary has one row per subject, variant, workload and metric");
            }
        }

        void addTo(CategoryChart chart, boolean withErrors) {
            List<String> categories = workloads;
            Variants variants = new Variants(values.keySet());
            double highest = 0;
            for (Map.Entry<SeriesKey, Map<String, double[]>> e : values.entrySet()) {
                List<Double> ys = new ArrayList<>();
                List<Double> errors = new ArrayList<>();
                for (String category : categories) {
                    // XChart skips a null bar but not its error bar, which shifts the rest of the
                    // error bars one group left; a missing bar is drawn as zero height instead.
                    double[] v = e.getValue().getOrDefault(category, new double[] {0, 0});
                    ys.add(finite(v[0]));
                    errors.add(finite(v[1]));
                    highest = Math.max(highest, finite(v[0]) + finite(v[1]));
                }
                CategorySeries series = withErrors
                        ? chart.addSeries(e.getKey().label(), categories, ys, errors)
                        : chart.addSeries(e.getKey().label(), categories, ys);
                Color color = Palette.tint(Palette.colorFor(e.getKey().subject()), variants.index(e.getKey()));
                series.setFillColor(color);
                series.setLineColor(color);
            }
            chart.getStyler().setYAxisMin(0.0);
            // Room above the highest bar or error bar, which Look.bars' plot no longer leaves by itself.
            chart.getStyler().setYAxisMax(highest > 0 ? highest * TOP_ROOM : 1.0);
            chart.getStyler().setYAxisDecimalPattern(Look.yPattern(highest));
        }

        private static double finite(double v) {
            return Double.isFinite(v) ? v : 0;
        }
    }
}
