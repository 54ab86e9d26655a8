package io.loadlab.cli;

import io.loadlab.data.RunColumn;
import io.loadlab.format.Figure;
import io.loadlab.format.TextTable;
import io.loadlab.format.Units;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.Protocols;
import io.loadlab.stats.StatsColumn;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.Table;

/**
 * The cost-of-protocols section of {@code loadlab compare} for experiments with protocol variants
 * ({@code loadlab run --variants 'protocol=.*'}, {@code --protocols}): each protocol of a subject
 * against its own h1 runs, per server CPU-second and per second ({@link Protocols}).
 */
final class ProtocolSection {

    /** The name of the table {@code compare --format csv --table protocols} writes. */
    static final String TABLE = "protocols";

    private ProtocolSection() {
    }

    /** The section as text, one table per metric of {@link Protocols#METRICS}. */
    static void print(PrintWriter out, Table runs, CompareOptions options) {
        Table cost = Protocols.cost(runs, options);
        out.printf(Locale.ROOT, "%nCost of protocols: each protocol against the same subject's h1 runs (HTTP/1.1 over"
                + " plain TCP), same workload and other variants%n");
        for (String metric : Protocols.METRICS) {
            Table t = cost.where(cost.stringColumn(StatsColumn.METRIC.id()).isEqualTo(metric));
            out.printf(Locale.ROOT, "%n%s%n%n", metric.equals(RunColumn.RPS.id()) ? "requests per second"
                    : "requests per server CPU-second (below 1: each request costs the server more CPU than over h1)");
            if (t.rowCount() == 0) {
                out.println("(no successful run of a protocol variant has a value)");
                continue;
            }
            TextTable.print(out, new String[] {"workload", "subject", "protocol", "n", "mean", "CV", "h1 mean", "h1 CV",
                "ratio", "ratio 95% CI", "test", "p_test", "verdict"}, rows(t, metric), 3);
        }
        out.printf(Locale.ROOT, "%nratio: the protocol's mean over h1's; the same verdict rule as above, paired by"
                + " round when both ran in the same rounds.%n");
    }

    private static List<String[]> rows(Table t, String metric) {
        Figure figure = Figure.of(metric);
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < t.rowCount(); i++) {
            String v = t.stringColumn(RunColumn.VARIANT.id()).get(i);
            rows.add(new String[] {t.stringColumn(RunColumn.WORKLOAD.id()).get(i),
                t.stringColumn(RunColumn.SUBJECT.id()).get(i) + (v.isEmpty() ? "" : " [" + v + "]"), t.stringColumn(RunColumn.PROTOCOL.id()).get(i),
                Integer.toString(t.intColumn(StatsColumn.N.id()).get(i)), figure.format(t.doubleColumn(StatsColumn.MEAN.id()).get(i)),
                percent(t.doubleColumn(StatsColumn.CV.id()).get(i)), figure.format(t.doubleColumn(StatsColumn.H1_MEAN.id()).get(i)),
                percent(t.doubleColumn(StatsColumn.H1_CV.id()).get(i)), Units.ratio(t.doubleColumn(StatsColumn.RATIO.id()).get(i)),
                Units.interval(t.doubleColumn(StatsColumn.RATIO_CI_LOW.id()).get(i), t.doubleColumn(StatsColumn.RATIO_CI_HIGH.id()).get(i), Figure.RATIO),
                t.stringColumn(StatsColumn.TEST.id()).get(i), Units.p(t.doubleColumn(StatsColumn.P_TEST.id()).get(i)), t.stringColumn(StatsColumn.VERDICT.id()).get(i)});
        }
        return rows;
    }

    private static String percent(double fraction) {
        return Double.isNaN(fraction) ? "" : Units.percent(fraction);
    }

    /** The section's table at full precision, both metrics, for {@code --format csv --table protocols}. */
    static void csv(PrintWriter out, Table runs, CompareOptions options) {
        out.print(Protocols.cost(runs, options).write().toString("csv"));
    }
}
