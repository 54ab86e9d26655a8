package io.loadlab.plot;

import io.loadlab.data.RunColumn;
import io.loadlab.stats.StatsColumn;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;

/** The cost of protocols as bars: each protocol's ratio to h1 per subject, beside a grey bar of 1 for h1. */
final class ProtocolChart {

    /** Okabe–Ito colours by protocol, the same in every chart; another protocol is grey. */
    private static final Map<String, Color> COLORS = Map.of("h1-tls", new Color(0x0072B2),
            "h2-tls", new Color(0xE69F00), "h2c", new Color(0x009E73));
    private static final Color OTHER = new Color(0x777777);
    private static final Color H1 = new Color(0xC8C8C8);

    private ProtocolChart() {
    }

    static CategoryChart chart(Table cost, String metric) {
        Columns.require(cost, "cost of protocols", Columns.SUBJECT, Columns.VARIANT, Columns.WORKLOAD,
                RunColumn.PROTOCOL.id(), StatsColumn.METRIC.id(), StatsColumn.RATIO.id(), StatsColumn.RATIO_CI_LOW.id(),
                StatsColumn.RATIO_CI_HIGH.id());
        List<Integer> rows = Columns.rowsWhere(cost, StatsColumn.METRIC.id(), metric, Columns.all(cost));
        NumericColumn<?> ratio = Columns.numbers(cost, "cost of protocols", StatsColumn.RATIO.id());
        NumericColumn<?> low = Columns.numbers(cost, "cost of protocols", StatsColumn.RATIO_CI_LOW.id());
        NumericColumn<?> high = Columns.numbers(cost, "cost of protocols", StatsColumn.RATIO_CI_HIGH.id());
        rows.removeIf(r -> Double.isNaN(Columns.number(ratio, r)));
        if (rows.isEmpty()) {
            throw new PlotException("the cost-of-protocols table has no ratio for metric '" + metric
                    + "'; metrics present: " + Columns.distinct(cost, StatsColumn.METRIC.id(), Columns.all(cost)));
        }
        boolean oneWorkload = Columns.distinct(cost, Columns.WORKLOAD, rows).size() == 1;
        Set<String> categories = new LinkedHashSet<>();
        Map<String, Map<String, double[]>> byProtocol = new LinkedHashMap<>();
        double highest = 1;
        for (int r : rows) {
            String v = Columns.text(cost, Columns.VARIANT, r);
            String subject = Columns.text(cost, Columns.SUBJECT, r) + (v.isEmpty() ? "" : " [" + v + "]");
            String category = oneWorkload ? subject : Columns.text(cost, Columns.WORKLOAD, r) + ": " + subject;
            categories.add(category);
            double value = Columns.number(ratio, r);
            // XChart draws symmetric error bars: the farther end of the (bootstrap, uneven) interval, so
            // that the bar covers the whole interval and never claims a narrower one.
            double error = Math.max(finite(value - Columns.number(low, r)), finite(Columns.number(high, r) - value));
            byProtocol.computeIfAbsent(Columns.text(cost, RunColumn.PROTOCOL.id(), r), p -> new LinkedHashMap<>())
                    .put(category, new double[] {value, error});
            highest = Math.max(highest, value + error);
        }
        String title = MetricLabel.of(metric).title() + ": each protocol / the subject's h1";
        CategoryChart chart = Look.bars(title, "subject", "ratio to h1, with its 95% bootstrap CI (farther end)");
        List<String> xs = new ArrayList<>(categories);
        // h1 itself first, as a grey bar of 1 beside each subject's protocols: the level the others are held against.
        CategorySeries h1 = chart.addSeries("h1 (= 1)", xs, xs.stream().map(x -> 1.0).toList(),
                xs.stream().map(x -> 0.0).toList());
        h1.setFillColor(H1);
        h1.setLineColor(H1);
        byProtocol.forEach((protocol, values) -> {
            List<Double> ys = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (String x : xs) {
                // A missing bar as zero height: XChart would shift the later error bars otherwise.
                double[] ve = values.getOrDefault(x, new double[] {0, 0});
                ys.add(ve[0]);
                errors.add(ve[1]);
            }
            CategorySeries s = chart.addSeries(protocol, xs, ys, errors);
            Color c = COLORS.getOrDefault(protocol, OTHER);
            s.setFillColor(c);
            s.setLineColor(c);
        });
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(highest * 1.06);
        chart.getStyler().setYAxisDecimalPattern(Look.yPattern(highest));
        return chart;
    }

    private static double finite(double v) {
        return Double.isFinite(v) ? v : 0;
    }
}
