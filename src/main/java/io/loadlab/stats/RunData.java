package io.loadlab.stats;

import io.loadlab.data.RunRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * Reads a runs table (the columns of {@code runs.csv}) into groups. Metric columns may be double,
 * long or int columns; a missing or non-finite value counts as not measured and is skipped.
 */
final class RunData {

    /** One round's value of a metric. */
    record Obs(int round, double value) {
    }

    private static final List<String> REQUIRED = List.of("subject", "variant", "workload", "status", "round");

    private RunData() {
    }

    /** Checks the columns every statistic needs. */
    static void requireRunColumns(Table runs) {
        if (runs == null) {
            throw new StatsException("no runs table given");
        }
        List<String> missing = REQUIRED.stream().filter(c -> !runs.containsColumn(c)).toList();
        if (!missing.isEmpty()) {
            throw new StatsException("the runs table lacks the column(s) " + String.join(", ", missing)
                    + " of runs.csv; it has: " + String.join(", ", runs.columnNames()));
        }
    }

    /** The numeric column of a metric, or an exception listing the numeric columns there are. */
    static NumericColumn<?> metricColumn(Table runs, String metric) {
        if (metric == null || !runs.containsColumn(metric) || !(runs.column(metric) instanceof NumericColumn)) {
            String numeric = runs.numericColumns().stream().map(Column::name)
                    .filter(n -> !n.equals("round")).collect(Collectors.joining(", "));
            throw new StatsException("unknown metric '" + metric + "': not a numeric column of the runs table; "
                    + "numeric columns: " + (numeric.isEmpty() ? "(none)" : numeric));
        }
        return (NumericColumn<?>) runs.column(metric);
    }

    /** Row indexes of the successful runs, per group, groups in order. */
    static SortedMap<Group, List<Integer>> okRows(Table runs) {
        return rows(runs, true);
    }

    /** Row indexes of the runs that did not succeed, per group, groups in order. */
    static SortedMap<Group, List<Integer>> failedRows(Table runs) {
        return rows(runs, false);
    }

    private static SortedMap<Group, List<Integer>> rows(Table runs, boolean ok) {
        Column<?> status = runs.column("status");
        SortedMap<Group, List<Integer>> groups = new TreeMap<>();
        for (int i = 0; i < runs.rowCount(); i++) {
            if (isOk(status.getString(i)) == ok) {
                groups.computeIfAbsent(group(runs, i), g -> new ArrayList<>()).add(i);
            }
        }
        return groups;
    }

    static boolean isOk(String status) {
        return status != null && status.trim().equalsIgnoreCase("ok");
    }

    /** The group of a row; runs of an engine other than the built-in one are a variant of their own. */
    static Group group(Table runs, int row) {
        String engine = runs.containsColumn("engine") ? text(runs, "engine", row) : "";
        return new Group(text(runs, "subject", row), RunRow.analysisVariant(text(runs, "variant", row), engine),
                text(runs, "workload", row));
    }

    private static String text(Table runs, String column, int row) {
        Column<?> c = runs.column(column);
        // A missing value of a string column is already ""; other column types print it as "" as well.
        return c.isMissing(row) ? "" : c.getString(row).trim();
    }

    /** The round number of a row. */
    static int round(Table runs, int row) {
        NumericColumn<?> rounds = runs.numberColumn("round");
        double r = rounds.isMissing(row) ? Double.NaN : rounds.getDouble(row);
        if (!Double.isFinite(r)) {
            throw new StatsException("row " + (row + 1) + " of the runs table has no round number");
        }
        return (int) r;
    }

    /** Rounds of the given rows, ascending. */
    static List<Integer> rounds(Table runs, List<Integer> rows) {
        return rows.stream().map(r -> round(runs, r)).sorted().toList();
    }

    /** The measured values of a metric in the given rows, ordered by round. */
    static List<Obs> values(Table runs, NumericColumn<?> metric, List<Integer> rows) {
        List<Obs> out = new ArrayList<>();
        for (int r : rows) {
            double v = value(metric, r);
            if (!Double.isNaN(v)) {
                out.add(new Obs(round(runs, r), v));
            }
        }
        out.sort(Comparator.comparingInt(Obs::round));
        return out;
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
