package io.loadlab.stats;

import io.loadlab.data.RunColumn;
import io.loadlab.data.Group;
import io.loadlab.data.RunHistograms;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.selection.Selection;

/**
 * The p99 latency of subjects compared at equal absolute rates: the points of a sweep given with
 * {@code --rates}, where every server was offered the same load. Each rate is compared on its own
 * by {@link PercentileRatios}: the per-round ratio of the rounds' own p99 ({@code lat_p99_us}), paired
 * by round, with {@link Comparison}'s one verdict rule (lower is better, so {@code faster} means a
 * lower p99), and the p99 of the merged histograms is shown beside it as the figure to report. A subject that could not hold the rate shows it in its
 * achieved rate and missed requests, and its p99 holds the backlog. Stateless and thread-safe.
 */
public final class EqualRates {

    /** The metric compared: the rounds' corrected p99. */
    public static final String METRIC = "lat_p99_us";

    private EqualRates() {
    }

    /**
     * The comparison as a table, rows by ascending rate, then as {@link Comparison#rows} orders
     * them. Columns: rate_rps, subject, variant, workload, n, rps (mean achieved), missed (mean per
     * run), lat_p99_us (of the merged histograms), p99_mean_us, p99_ci_low_us, p99_ci_high_us (the
     * rounds' own p99: their mean and its 95% CI), ratio (the mean of the per-round p99 ratios to the
     * baseline's, {@link PercentileRatios}),
     * ratio_ci_low, ratio_ci_high, test, p_test, verdict, baseline, note.
     *
     * @param baseline the subject the others are held against at each rate (or {@code subject [variant]});
     *                 at a rate where it has no successful run, every row says {@code no baseline}
     * @throws StatsException for a table without a sweep
     */
    public static Table compare(Table runs, RunHistograms histograms, String baseline, CompareOptions options) {
        if (!runs.containsColumn(RunColumn.SWEEP_ROLE.id())) {
            throw new StatsException("the runs table has no sweep_role column: it holds no latency sweep");
        }
        Table fixed = runs.where(runs.stringColumn(RunColumn.SWEEP_ROLE.id()).isEqualTo(RunColumn.SweepRole.RATE.value()));
        List<SweepSeries.Series> series = SweepSeries.of(fixed, histograms);
        Columns c = new Columns();
        TreeSet<Double> rates = new TreeSet<>();
        fixed.doubleColumn(RunColumn.TARGET_RPS.id()).forEach(r -> {
            if (r != null && !Double.isNaN(r)) {
                rates.add(r);
            }
        });
        for (double rate : rates) {
            Table at = fixed.where(fixed.doubleColumn(RunColumn.TARGET_RPS.id()).isEqualTo(rate));
            for (ComparisonRow r : rowsAt(at, baseline, options)) {
                c.add(rate, r, at, series);
            }
        }
        return c.table();
    }

    /** The comparison at one rate; without a successful baseline run there, every group without one. */
    private static List<ComparisonRow> rowsAt(Table at, String baseline, CompareOptions options) {
        String subject = Group.subjectOf(baseline);
        boolean hasBaseline = at.where(at.stringColumn(RunColumn.SUBJECT.id()).isEqualTo(subject)
                .and(at.stringColumn(RunColumn.STATUS.id()).isEqualTo(RunColumn.Status.OK.value()))).rowCount() > 0;
        if (hasBaseline) {
            return PercentileRatios.rows(at, PercentileRatios.Percentile.P99, baseline, options);
        }
        List<ComparisonRow> out = new ArrayList<>();
        Table summary = Stats.summarize(at, METRIC);
        for (int i = 0; i < summary.rowCount(); i++) {
            out.add(new ComparisonRow(summary.stringColumn(RunColumn.SUBJECT.id()).get(i), summary.stringColumn(RunColumn.WORKLOAD.id()).get(i),
                    METRIC, summary.intColumn(StatsColumn.N.id()).get(i), summary.doubleColumn(StatsColumn.MEAN.id()).get(i),
                    summary.doubleColumn(StatsColumn.SD.id()).get(i), summary.doubleColumn(StatsColumn.CI_LOW.id()).get(i),
                    summary.doubleColumn(StatsColumn.CI_HIGH.id()).get(i), Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Verdict.NO_BASELINE, summary.stringColumn(RunColumn.VARIANT.id()).get(i), baseline,
                    "the baseline has no successful run at this rate", Design.NONE, Double.NaN, Double.NaN,
                    options.adjustment(), Double.NaN, Double.NaN, Double.NaN));
        }
        return out;
    }

    /** The output columns, filled row by row. */
    private static final class Columns {
        final DoubleColumn rate = DoubleColumn.create(StatsColumn.RATE_RPS.id());
        final StringColumn subject = StringColumn.create(RunColumn.SUBJECT.id());
        final StringColumn variant = StringColumn.create(RunColumn.VARIANT.id());
        final StringColumn workload = StringColumn.create(RunColumn.WORKLOAD.id());
        final IntColumn n = IntColumn.create(StatsColumn.N.id());
        final List<DoubleColumn> figures = new ArrayList<>();
        final StringColumn test = StringColumn.create(StatsColumn.TEST.id());
        final DoubleColumn pTest = DoubleColumn.create(StatsColumn.P_TEST.id());
        final StringColumn verdict = StringColumn.create(StatsColumn.VERDICT.id());
        final StringColumn baseline = StringColumn.create(StatsColumn.BASELINE.id());
        final StringColumn note = StringColumn.create(StatsColumn.NOTE.id());

        Columns() {
            for (String name : List.of(RunColumn.RPS.id(), RunColumn.MISSED.id(), RunColumn.LAT_P99_US.id(),
                    StatsColumn.P99_MEAN_US.id(), StatsColumn.P99_CI_LOW_US.id(), StatsColumn.P99_CI_HIGH_US.id(),
                    StatsColumn.RATIO.id(), StatsColumn.RATIO_CI_LOW.id(), StatsColumn.RATIO_CI_HIGH.id())) {
                figures.add(DoubleColumn.create(name));
            }
        }

        void add(double r, ComparisonRow row, Table at, List<SweepSeries.Series> series) {
            rate.append(r);
            subject.append(row.subject());
            variant.append(row.variant());
            workload.append(row.workload());
            n.append(row.n());
            Selection mine = at.stringColumn(RunColumn.SUBJECT.id()).isEqualTo(row.subject())
                    .and(at.stringColumn(RunColumn.VARIANT.id()).isEqualTo(row.variant()))
                    .and(at.stringColumn(RunColumn.WORKLOAD.id()).isEqualTo(row.workload()))
                    .and(at.stringColumn(RunColumn.STATUS.id()).isEqualTo(RunColumn.Status.OK.value()));
            Table runs = at.where(mine);
            double[] values = {mean(runs.doubleColumn(RunColumn.RPS.id())), mean(runs.column(RunColumn.MISSED.id())), mergedP99(series, row, r),
                row.mean(), row.ciLow(), row.ciHigh(), row.ratio(), row.ratioCiLow(), row.ratioCiHigh()};
            for (int k = 0; k < values.length; k++) {
                figures.get(k).append(values[k]);
            }
            test.append(row.design().label());
            pTest.append(row.pTest());
            verdict.append(row.verdict().label());
            baseline.append(row.baseline());
            note.append(row.note());
        }

        Table table() {
            Table t = Table.create(METRIC + " at equal rates", rate, subject, variant, workload, n);
            figures.forEach(t::addColumns);
            return t.addColumns(test, pTest, verdict, baseline, note);
        }
    }

    private static double mean(tech.tablesaw.columns.Column<?> c) {
        return c instanceof tech.tablesaw.api.NumericColumn<?> n && n.countMissing() < n.size() ? n.mean() : Double.NaN;
    }

    /** The p99 of all the group's requests at this rate, from the merged histograms. */
    private static double mergedP99(List<SweepSeries.Series> series, ComparisonRow row, double rate) {
        String label = io.loadlab.data.RunRow.num(rate) + "/s";
        for (SweepSeries.Series s : series) {
            Group g = s.group();
            if (g.subject().equals(row.subject()) && g.variant().equals(row.variant())
                    && g.workload().equals(row.workload())) {
                for (SweepSeries.Point p : s.points()) {
                    if (p.label().equals(label)) {
                        return PointStats.of(p, RoundBootstrap.ones(s.blocks().size()), s.blocks())
                                [PointStats.LATENCY + PointStats.NAMES.indexOf("p99")];
                    }
                }
            }
        }
        return Double.NaN;
    }
}
