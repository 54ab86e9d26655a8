package io.loadlab.stats;

import io.loadlab.data.AnalysisGroups;
import io.loadlab.data.Group;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;
import io.loadlab.data.RunColumn;

/**
 * A runs table (the columns of {@code runs.csv}) read into groups, the way every statistic of
 * this package groups it ({@link AnalysisGroups}). Metric columns may be double, long or int
 * columns; a missing or non-finite value counts as not measured and is skipped. Optional columns
 * (those an older experiment lacks) read as not measured when absent.
 */
final class RunData {

    /**
     * One round's value of a metric.
     *
     * @param row   the row in the table
     * @param block the round as a block of the design: experiment and round (rounds of two
     *              experiments are different blocks)
     * @param round the round number
     * @param value the value
     */
    record Obs(int row, String block, int round, double value) {
    }

    private static final List<String> REQUIRED = List.of(RunColumn.SUBJECT.id(), RunColumn.VARIANT.id(),
            RunColumn.WORKLOAD.id(), RunColumn.STATUS.id(), RunColumn.ROUND.id());

    private final Table runs;
    private final AnalysisGroups groups;

    private RunData(Table runs) {
        this.runs = runs;
        this.groups = AnalysisGroups.of(runs);
    }

    /**
     * Reads a runs table.
     *
     * @throws StatsException when it is null or lacks a column every statistic needs
     */
    static RunData of(Table runs) {
        if (runs == null) {
            throw new StatsException("no runs table given");
        }
        List<String> missing = REQUIRED.stream().filter(c -> !runs.containsColumn(c)).toList();
        if (!missing.isEmpty()) {
            throw new StatsException("the runs table lacks the column(s) " + String.join(", ", missing)
                    + " of runs.csv; it has: " + String.join(", ", runs.columnNames()));
        }
        return new RunData(runs);
    }

    Table table() {
        return runs;
    }

    /** The numeric column of a metric, or an exception listing the numeric columns there are. */
    NumericColumn<?> metric(String metric) {
        if (metric == null || !runs.containsColumn(metric) || !(runs.column(metric) instanceof NumericColumn)) {
            String numeric = runs.numericColumns().stream().map(Column::name)
                    .filter(n -> !n.equals("round")).collect(Collectors.joining(", "));
            throw new StatsException("unknown metric '" + metric + "': not a numeric column of the runs table; "
                    + "numeric columns: " + (numeric.isEmpty() ? "(none)" : numeric));
        }
        return (NumericColumn<?>) runs.column(metric);
    }

    /** Row indexes of the successful runs, per group, groups in order. */
    SortedMap<Group, List<Integer>> okRows() {
        return rows(true);
    }

    /**
     * The metric's values of the successful runs, each group's under two keys made from the group and
     * its first row: the unit compared ({@code key}) and what is compared within it ({@code within}:
     * an engine, a protocol), the latter in {@code order}. Groups without a value are left out.
     */
    <K extends Comparable<K>> java.util.Map<K, java.util.Map<String, List<Obs>>> valuesBy(String metric,
            java.util.function.BiFunction<Group, Integer, K> key,
            java.util.function.BiFunction<Group, Integer, String> within, Comparator<String> order) {
        NumericColumn<?> column = metric(metric);
        java.util.Map<K, java.util.Map<String, List<Obs>>> out = new TreeMap<>();
        for (java.util.Map.Entry<Group, List<Integer>> e : okRows().entrySet()) {
            List<Obs> obs = values(column, e.getValue());
            if (!obs.isEmpty()) {
                int first = e.getValue().get(0);
                out.computeIfAbsent(key.apply(e.getKey(), first), x -> new TreeMap<>(order))
                        .put(within.apply(e.getKey(), first), obs);
            }
        }
        return out;
    }

    /** Row indexes of the runs that did not succeed, per group, groups in order. */
    SortedMap<Group, List<Integer>> failedRows() {
        return rows(false);
    }

    private SortedMap<Group, List<Integer>> rows(boolean ok) {
        Column<?> status = runs.column(RunColumn.STATUS.id());
        SortedMap<Group, List<Integer>> out = new TreeMap<>();
        for (int i = 0; i < runs.rowCount(); i++) {
            if (isOk(status.getString(i)) == ok) {
                out.computeIfAbsent(group(i), g -> new ArrayList<>()).add(i);
            }
        }
        return out;
    }

    static boolean isOk(String status) {
        return status != null && status.trim().equalsIgnoreCase(RunColumn.Status.OK.value());
    }

    /** Whether a row's status is ok. */
    boolean isOk(int row) {
        return isOk(runs.column(RunColumn.STATUS.id()).getString(row));
    }

    /** The group of a row: subject, analysis variant (engine and split settings included), workload. */
    Group group(int row) {
        AnalysisGroups.Label l = groups.label(row);
        return new Group(l.subject(), l.analysisVariant(), l.workload());
    }

    /** Where a row belongs: its engine and settings besides the group. */
    AnalysisGroups.Label label(int row) {
        return groups.label(row);
    }

    /** The groups whose runs differ in connection count or rate, and were split. */
    List<AnalysisGroups.Split> splits() {
        return groups.splits();
    }

    /** The round number of a row. */
    int round(int row) {
        NumericColumn<?> rounds = runs.numberColumn(RunColumn.ROUND.id());
        double r = rounds.isMissing(row) ? Double.NaN : rounds.getDouble(row);
        if (!Double.isFinite(r)) {
            throw new StatsException("row " + (row + 1) + " of the runs table has no round number");
        }
        return (int) r;
    }

    /** The experiment of a row, "" when the table has no experiment column. */
    String experiment(int row) {
        return text(RunColumn.EXPERIMENT.id(), row);
    }

    /** A string column's value, "" when the column is absent or the value missing. */
    String text(String column, int row) {
        if (!runs.containsColumn(column)) {
            return "";
        }
        Column<?> c = runs.column(column);
        return c.isMissing(row) ? "" : c.getString(row).trim();
    }

    /** Rounds of the given rows, ascending. */
    List<Integer> rounds(List<Integer> rows) {
        return rows.stream().map(this::round).sorted().toList();
    }

    /** The measured values of a metric in the given rows, ordered by round (then experiment). */
    List<Obs> values(NumericColumn<?> metric, List<Integer> rows) {
        List<Obs> out = new ArrayList<>();
        for (int r : rows) {
            double v = value(metric, r);
            if (!Double.isNaN(v)) {
                out.add(new Obs(r, experiment(r) + "\u0000" + round(r), round(r), v));
            }
        }
        out.sort(Comparator.comparingInt(Obs::round).thenComparing(Obs::block));
        return out;
    }

    /** An optional numeric column's value; empty when the column is absent, not numeric, or the value missing. */
    OptionalDouble number(String column, int row) {
        if (!runs.containsColumn(column) || !(runs.column(column) instanceof NumericColumn)) {
            return OptionalDouble.empty();
        }
        double v = value((NumericColumn<?>) runs.column(column), row);
        return Double.isNaN(v) ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    /** An optional flag column's value: 1 true, 0 false, -1 not recorded (absent column or missing value). */
    int flag(String column, int row) {
        if (!runs.containsColumn(column) || runs.column(column).isMissing(row)) {
            return -1;
        }
        return isTrue(runs.column(column), row) ? 1 : 0;
    }

    /** A value, NaN when it was not measured. */
    static double value(NumericColumn<?> column, int row) {
        if (column.isMissing(row)) {
            return Double.NaN;
        }
        double v = column.getDouble(row);
        return Double.isFinite(v) ? v : Double.NaN;
    }

    static double[] array(List<Obs> obs) {
        return obs.stream().mapToDouble(Obs::value).toArray();
    }

    static List<Integer> roundsOf(List<Obs> obs) {
        return obs.stream().map(Obs::round).toList();
    }

    /** Whether a row's flag column (e.g. {@code load_bound}) is true; a missing value is not. */
    static boolean isTrue(Column<?> flag, int row) {
        if (flag.isMissing(row)) {
            return false;
        }
        if (flag instanceof BooleanColumn) {
            return Boolean.TRUE.equals(((BooleanColumn) flag).get(row));
        }
        if (flag instanceof NumericColumn) {
            return ((NumericColumn<?>) flag).getDouble(row) != 0;
        }
        return flag.getString(row).trim().toLowerCase(Locale.ROOT).equals("true");
    }

    /** Rounds as a message shows them: "round 3" or "rounds 1, 2, 5". */
    static String roundList(List<Integer> rounds) {
        String joined = rounds.stream().map(String::valueOf).collect(Collectors.joining(", "));
        return (rounds.size() == 1 ? "round " : "rounds ") + joined;
    }
}
