package io.loadlab.cli;

import io.loadlab.data.RunColumn;
import io.loadlab.format.Figure;
import io.loadlab.format.TextTable;
import io.loadlab.format.Units;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.Comparison;
import io.loadlab.stats.Engines;
import io.loadlab.stats.StatsColumn;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.Table;

/**
 * {@code loadlab compare --engines}: each engine's figure against the built-in engine's on the same
 * subject and workload ({@link Engines#compare}), then the order of the subjects by each engine
 * against the built-in one's ({@link Engines#rankings}); CSV is the first table alone, at full
 * precision.
 */
final class CompareEngines {

    private CompareEngines() {
    }

    /** Prints the comparison of {@code runs} by {@code metric}, as text or ({@code csv}) CSV, and flushes. */
    static void print(PrintWriter out, Table runs, String metric, CompareOptions options, boolean csv) {
        Table byEngine = Engines.compare(runs, metric, options);
        if (csv) {
            out.print(byEngine.write().toString("csv"));
            out.flush();
            return;
        }
        out.printf(Locale.ROOT, "%s by engine, each against the built-in engine on the same subject and workload%n%n",
                metric);
        byEngine(out, byEngine, Figure.of(metric));
        out.printf(Locale.ROOT, "%nOrder of the subjects by %s (best first)%n%n", metric);
        rankings(out, Engines.rankings(runs, metric, options));
        out.printf(Locale.ROOT, "%nThe tools measure differently (wrk, h2load and oha count from their own start,"
                + " h2load walks its keys in a fixed order); what should agree is the order of the subjects and their"
                + " ratios, not each absolute figure. A swap of two subjects is clear when either engine tells them"
                + " apart (the others are within the noise). %s%n", Comparison.rule(options));
        out.flush();
    }

    private static void byEngine(PrintWriter out, Table t, Figure figure) {
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < t.rowCount(); i++) {
            String v = t.stringColumn(RunColumn.VARIANT.id()).get(i);
            String subject = t.stringColumn(RunColumn.SUBJECT.id()).get(i) + (v.isEmpty() ? "" : " [" + v + "]");
            rows.add(new String[] {t.stringColumn(RunColumn.WORKLOAD.id()).get(i), subject,
                    t.stringColumn(RunColumn.ENGINE.id()).get(i), Integer.toString(t.intColumn(StatsColumn.N.id()).get(i)),
                    figure.format(t.doubleColumn(StatsColumn.MEAN.id()).getDouble(i)),
                    figure.format(t.doubleColumn(StatsColumn.BUILTIN_MEAN.id()).getDouble(i)),
                    Units.ratio(t.doubleColumn(StatsColumn.RATIO.id()).getDouble(i)),
                    Units.interval(t.doubleColumn(StatsColumn.RATIO_CI_LOW.id()).getDouble(i),
                            t.doubleColumn(StatsColumn.RATIO_CI_HIGH.id()).getDouble(i), Figure.RATIO),
                    t.stringColumn(StatsColumn.TEST.id()).get(i), Units.p(t.doubleColumn(StatsColumn.P_TEST.id()).getDouble(i)),
                    t.stringColumn(StatsColumn.VERDICT.id()).get(i)});
        }
        TextTable.print(out, new String[] {"workload", "subject", "engine", "n", "mean", "builtin", "ratio",
            "ratio 95% CI", "test", "p_test", "verdict"}, rows, 2);
    }

    private static void rankings(PrintWriter out, Table t) {
        List<String[]> ranks = new ArrayList<>();
        for (int i = 0; i < t.rowCount(); i++) {
            String swaps = t.stringColumn(StatsColumn.CLEAR_SWAPS.id()).get(i);
            ranks.add(new String[] {t.stringColumn(RunColumn.WORKLOAD.id()).get(i), t.stringColumn(RunColumn.ENGINE.id()).get(i),
                    t.stringColumn(StatsColumn.ORDER.id()).get(i),
                    t.stringColumn(StatsColumn.BUILTIN_ORDER.id()).get(i),
                    t.booleanColumn(StatsColumn.SAME_ORDER.id()).get(i) ? "yes" : "no",
                    swaps.isEmpty() ? "none" : swaps,
                    Units.ratio(t.doubleColumn(StatsColumn.SPEARMAN.id()).getDouble(i))});
        }
        TextTable.print(out, new String[] {"workload", "engine", "order", "builtin order", "same", "clear swaps", "spearman"},
                ranks, 2);
    }
}
