package io.loadlab.cli;

import io.loadlab.data.ExperimentRecord;
import io.loadlab.data.RunColumn;
import io.loadlab.format.Figure;
import io.loadlab.format.TextTable;
import io.loadlab.format.Units;
import io.loadlab.stats.ReconcileRow;
import io.loadlab.stats.Reconciliation;
import io.loadlab.stats.StatsColumn;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.Table;

/**
 * {@code loadlab compare A B} as people read it (environment, rankings, ratio of ratios, the facts
 * next to each disagreement, rounded by {@code io.loadlab.format}) and as CSV (full precision).
 */
final class ReconcileOutput {

    /** The CSV columns: those of {@link Reconciliation#pairs()}, the documented ones first. */
    static final List<String> CSV_COLUMNS = Reconciliation.PAIR_COLUMNS;

    private ReconcileOutput() {
    }

    /** One row per pair and workload; {@code agree} is true, false, or empty with too few rounds. */
    static void csv(PrintWriter out, Reconciliation r) {
        out.println(String.join(",", CSV_COLUMNS));
        for (ReconcileRow row : r.rows()) {
            List<String> cells = new ArrayList<>(List.of(row.workload(), row.subject(), row.baseline()));
            for (double v : new double[] {row.ratioA(), row.ratioB(), row.ratioOfRatios(), row.ciLow(), row.ciHigh()}) {
                cells.add(CompareCommand.n(v));
            }
            cells.add(row.agreement().agree().map(String::valueOf).orElse(""));
            cells.addAll(List.of(row.agreement().label(), CompareCommand.n(row.p()), Integer.toString(row.nA()),
                    Integer.toString(row.nB()), row.testA().label(), row.testB().label(), row.engines(), row.experimentA(),
                    row.experimentB(), row.note(), String.join("; ", row.differences())));
            out.println(String.join(",", cells.stream().map(CompareCommand::quote).toList()));
        }
    }

    /** The environment, the rankings, the pairs and the facts next to each disagreement, then the rule. */
    static void text(PrintWriter out, Reconciliation r) {
        out.printf(Locale.ROOT, "Reconciling %s across %d experiments: %s%n%n", r.metric(), r.labels().size(),
                String.join("; ", names(r)));
        out.printf(Locale.ROOT, "Environment and set-up (differs: yes where they differ, unknown where one of them did"
                + " not record it)%n%n");
        print(out, r.environment(), 1, r.environment().columnCount());
        out.printf(Locale.ROOT, "%nOrder of the subjects by %s in each (best first)%n%n", r.metric());
        List<List<String>> ranks = new ArrayList<>();
        Table t = r.rankings();
        for (int i = 0; i < t.rowCount(); i++) {
            String only = join(t.stringColumn(StatsColumn.ONLY_IN_A.id()).get(i),
                    t.stringColumn(StatsColumn.ONLY_IN_B.id()).get(i));
            ranks.add(List.of(t.stringColumn(RunColumn.WORKLOAD.id()).get(i),
                    t.stringColumn(StatsColumn.EXPERIMENTS.id()).get(i),
                    t.stringColumn(StatsColumn.ENGINES.id()).get(i),
                    t.stringColumn(StatsColumn.ORDER_A.id()).get(i), t.stringColumn(StatsColumn.ORDER_B.id()).get(i),
                    t.booleanColumn(StatsColumn.SAME_ORDER.id()).get(i) ? "yes" : "NO",
                    t.stringColumn(StatsColumn.SWAPPED.id()).get(i), only));
        }
        String other = r.labels().size() == 2 ? r.labels().get(1) : "the other";
        printWithout(out, List.of("workload", "experiments", "engines", "order in A", "order in " + other, "same",
                "swapped", "measured in one only"), ranks, r.labels().size() == 2);
        out.printf(Locale.ROOT, "%nRatio of ratios: subject / baseline in A, divided by the same in %s (above 1: the"
                + " subject did relatively better in A)%n%n", other);
        pairs(out, r.rows(), other, r.labels().size() == 2);
        facts(out, r);
        out.printf(Locale.ROOT, "%n%s%n", r.rule());
    }

    private static List<String> names(Reconciliation r) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < r.labels().size(); i++) {
            ExperimentRecord e = r.records().get(i);
            out.add(r.labels().get(i) + " = " + e.dir() + " (" + e.name() + (e.imported() ? ", imported" : "")
                    + (e.started().isEmpty() ? "" : ", started " + e.started().replaceFirst("\\.\\d+Z$", "Z")) + ")");
        }
        return out;
    }

    private static String join(String onlyA, String onlyB) {
        List<String> parts = new ArrayList<>();
        if (!onlyA.isEmpty()) {
            parts.add("first: " + onlyA);
        }
        if (!onlyB.isEmpty()) {
            parts.add("other: " + onlyB);
        }
        return String.join("; ", parts);
    }

    private static void pairs(PrintWriter out, List<ReconcileRow> rows, String other, boolean two) {
        List<List<String>> lines = new ArrayList<>();
        for (ReconcileRow p : rows) {
            lines.add(List.of(p.workload(), p.experimentA() + "/" + p.experimentB(), p.subject(), p.baseline(),
                    Units.ratio(p.ratioA()), Units.ratio(p.ratioB()), Units.ratio(p.ratioOfRatios()),
                    Units.interval(p.ciLow(), p.ciHigh(), Figure.RATIO), Units.p(p.p()), p.nA() + "/" + p.nB(),
                    p.agreement().label()));
        }
        printWithout(out, List.of("workload", "experiments", "subject", "baseline", "ratio A", "ratio " + other,
                "ratio of ratios", "95% CI", "p", "rounds", "verdict"), lines, two);
    }

    /**
     * Prints text columns left-aligned and figures right-aligned (those after the 4th but the last
     * of a pairs table, none of a rankings table), leaving out the second column (which
     * experiments) when there are only two.
     */
    private static void printWithout(PrintWriter out, List<String> header, List<List<String>> rows, boolean two) {
        boolean figures = header.contains("ratio A");
        List<Boolean> right = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            right.add(figures && i >= 4 && i < header.size() - 1);
        }
        List<Integer> keep = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            if (!(two && i == 1)) {
                keep.add(i);
            }
        }
        out.print(TextTable.lines(keep.stream().map(header::get).toList(),
                rows.stream().map(r -> keep.stream().map(r::get).toList()).toList(), keep.stream().map(right::get).toList()));
    }

    private static void facts(PrintWriter out, Reconciliation r) {
        List<ReconcileRow> disagree = r.disagreements();
        if (disagree.isEmpty()) {
            out.printf(Locale.ROOT, "%nNo pair disagrees beyond the experiments' noise.%n");
            return;
        }
        out.printf(Locale.ROOT, "%nWhat differs next to each pair that disagrees (facts, not causes)%n");
        for (ReconcileRow p : disagree) {
            out.printf(Locale.ROOT, "%n  %s, %s / %s: %s in %s, %s in %s (ratio of ratios %s %s)%n", p.workload(),
                    p.subject(), p.baseline(), Units.ratio(p.ratioA()), p.experimentA(), Units.ratio(p.ratioB()),
                    p.experimentB(), Units.ratio(p.ratioOfRatios()), Units.interval(p.ciLow(), p.ciHigh(), Figure.RATIO));
            if (p.differences().isEmpty()) {
                out.println("    nothing recorded differs: the cause is not in what Loadlab records");
            }
            p.differences().forEach(d -> out.println("    - " + d));
        }
    }

    /** Longest environment value shown in full; experiment.json keeps the whole text. */
    private static final int CELL = 60;

    /** A value cut to {@value #CELL} characters with "...", so that the table fits a terminal. */
    private static String shortened(String v) {
        return v.length() <= CELL ? v : v.substring(0, CELL - 3) + "...";
    }

    /** A table of text columns, all left-aligned (long values shortened). */
    private static void print(PrintWriter out, Table t, int left, int columns) {
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < t.rowCount(); i++) {
            String[] row = new String[columns];
            for (int c = 0; c < columns; c++) {
                row[c] = shortened(t.column(c).getString(i));
            }
            rows.add(row);
        }
        TextTable.print(out, t.columnNames().toArray(String[]::new), rows, Math.max(left, columns));
    }
}
