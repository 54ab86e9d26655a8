package io.loadlab.stats;

import io.loadlab.data.Group;
import io.loadlab.data.RunColumn;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Per-group descriptive statistics of a runs table. Stateless and thread-safe (Tablesaw tables
 * are not, so do not change a table while it is being summarized).
 */
public final class Stats {

    private Stats() {
    }

    /**
     * Summarizes one metric per (subject, variant, workload) group, over the runs whose status is
     * {@code ok}; runs where the metric was not measured are left out, and so are groups with no
     * value at all. Groups are those of {@link io.loadlab.data.AnalysisGroups}: the variant label
     * carries {@code engine=E} for another engine's runs and {@code connections=N} / {@code rate=R}
     * where one subject's runs on a workload differ in that setting.
     *
     * @param runs   one row per run, with the columns of {@code runs.csv}
     * @param metric name of a numeric column, e.g. {@code rps}; values stay in its unit
     * @return one row per group, sorted by subject, variant, workload, with the columns subject,
     *         variant, workload, metric, n, mean, sd, cv (a fraction), median, min, max, ci_low,
     *         ci_high (95% CI of the mean); NaN (shown as missing) where undefined, e.g. sd when n = 1
     * @throws StatsException when a runs.csv column is missing or the metric is not a numeric column
     */
    public static Table summarize(Table runs, String metric) {
        RunData data = RunData.of(runs);
        NumericColumn<?> column = data.metric(metric);
        StringColumn subject = StringColumn.create(RunColumn.SUBJECT.id());
        StringColumn variant = StringColumn.create(RunColumn.VARIANT.id());
        StringColumn workload = StringColumn.create(RunColumn.WORKLOAD.id());
        StringColumn metricName = StringColumn.create(StatsColumn.METRIC.id());
        IntColumn n = IntColumn.create(StatsColumn.N.id());
        List<StatsColumn> figures = List.of(StatsColumn.MEAN, StatsColumn.SD, StatsColumn.CV, StatsColumn.MEDIAN,
                StatsColumn.MIN, StatsColumn.MAX, StatsColumn.CI_LOW, StatsColumn.CI_HIGH);
        DoubleColumn[] values = figures.stream().map(f -> DoubleColumn.create(f.id())).toArray(DoubleColumn[]::new);
        for (Map.Entry<Group, List<Integer>> e : data.okRows().entrySet()) {
            double[] sample = RunData.array(data.values(column, e.getValue()));
            if (sample.length == 0) {
                continue;
            }
            Summary s = Summary.of(sample);
            Group g = e.getKey();
            subject.append(g.subject());
            variant.append(g.variant());
            workload.append(g.workload());
            metricName.append(metric);
            n.append(s.n());
            double[] row = {s.mean(), s.sd(), s.cv(), s.median(), s.min(), s.max(), s.ciLow(), s.ciHigh()};
            for (int i = 0; i < row.length; i++) {
                values[i].append(row[i]);
            }
        }
        Table out = Table.create(metric + " summary", subject, variant, workload, metricName, n);
        return out.addColumns(values);
    }
}
