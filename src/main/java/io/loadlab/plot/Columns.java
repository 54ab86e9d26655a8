package io.loadlab.plot;

import io.loadlab.data.RunColumn;
import io.loadlab.data.RunRow;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/** Checked access to the input tables, so that bad input fails with a message naming the column. */
final class Columns {

    static final String SUBJECT = RunColumn.SUBJECT.id();
    static final String VARIANT = RunColumn.VARIANT.id();
    static final String WORKLOAD = RunColumn.WORKLOAD.id();
    static final String STATUS = RunColumn.STATUS.id();
    static final String ROUND = RunColumn.ROUND.id();

    private Columns() {
    }

    /**
     * Checks that a table has the named columns and at least one row.
     *
     * @param what the table's name in messages, such as {@code "runs"}
     * @throws PlotException naming the first missing column and listing those present, or saying
     *                       the table is empty
     */
    static void require(Table table, String what, String... names) {
        Objects.requireNonNull(table, what + " table");
        for (String name : names) {
            if (!table.containsColumn(name)) {
                throw new PlotException("the " + what + " table has no column '" + name
                        + "'; columns present: " + table.columnNames());
            }
        }
        if (table.rowCount() == 0) {
            throw new PlotException("the " + what + " table is empty: nothing to plot");
        }
    }

    /** A cell as text, whatever the column type; a missing string is {@code ""}. */
    static String text(Table table, String column, int row) {
        return table.column(column).getString(row);
    }

    /** A numeric column (Double, Float, Long, Int or Short), or an error naming its real type. */
    static NumericColumn<?> numbers(Table table, String what, String column) {
        Column<?> c = table.column(column);
        if (!(c instanceof NumericColumn)) {
            throw new PlotException("column '" + column + "' of the " + what + " table must be numeric, but it holds "
                    + c.type().name() + " values");
        }
        return (NumericColumn<?>) c;
    }

    /** A numeric cell, NaN when missing. */
    static double number(NumericColumn<?> column, int row) {
        return column.isMissing(row) ? Double.NaN : column.getDouble(row);
    }

    /** The rows whose {@code column} holds {@code value}, in table order. */
    static List<Integer> rowsWhere(Table table, String column, String value, List<Integer> among) {
        List<Integer> rows = new ArrayList<>();
        for (int row : among) {
            if (value.equals(text(table, column, row))) {
                rows.add(row);
            }
        }
        return rows;
    }

    /** Every row index of a table. */
    static List<Integer> all(Table table) {
        List<Integer> rows = new ArrayList<>(table.rowCount());
        for (int i = 0; i < table.rowCount(); i++) {
            rows.add(i);
        }
        return rows;
    }

    /** The distinct values of a column over some rows, in order of first appearance. */
    static List<String> distinct(Table table, String column, List<Integer> rows) {
        Set<String> values = new LinkedHashSet<>();
        for (int row : rows) {
            values.add(text(table, column, row));
        }
        return List.copyOf(values);
    }

    /** The runs whose status is {@code ok}; failed runs have no figures worth drawing. */
    static List<Integer> okRuns(Table runs) {
        List<Integer> ok = rowsWhere(runs, STATUS, RunColumn.Status.OK.value(), all(runs));
        if (ok.isEmpty()) {
            throw new PlotException("the runs table has no run with status 'ok' (statuses present: "
                    + distinct(runs, STATUS, all(runs)) + "): nothing to plot");
        }
        return ok;
    }

    /**
     * The rows of one workload.
     *
     * @param workloadOrNull the workload; null is allowed when the rows hold exactly one
     * @throws PlotException when the workload has no rows, or when null is given and the rows hold
     *                       several workloads (the message lists them)
     */
    static List<Integer> oneWorkload(Table table, String what, List<Integer> rows, String workloadOrNull) {
        List<String> present = distinct(table, WORKLOAD, rows);
        if (workloadOrNull == null) {
            if (present.size() != 1) {
                throw new PlotException("the " + what + " table holds " + present.size() + " workloads " + present
                        + "; name the one to plot");
            }
            return rows;
        }
        return someWorkload(table, what, rows, workloadOrNull, present);
    }

    /** The rows of one workload when it is given, otherwise all of them. */
    static List<Integer> anyWorkload(Table table, String what, List<Integer> rows, String workloadOrNull) {
        if (workloadOrNull == null) {
            return rows;
        }
        return someWorkload(table, what, rows, workloadOrNull, distinct(table, WORKLOAD, rows));
    }

    private static List<Integer> someWorkload(Table table, String what, List<Integer> rows, String workload,
                                              List<String> present) {
        List<Integer> kept = rowsWhere(table, WORKLOAD, workload, rows);
        if (kept.isEmpty()) {
            throw new PlotException("the " + what + " table has no rows for workload '" + workload
                    + "'; workloads present: " + present);
        }
        return kept;
    }

    /**
     * The series key of a row: its subject and variant, with the engine added to the variant
     * when the table has an engine column and the run was not made by the built-in engine.
     */
    static SeriesKey key(Table table, int row) {
        String engine = table.containsColumn(RunColumn.ENGINE.id()) ? text(table, RunColumn.ENGINE.id(), row) : "";
        return new SeriesKey(text(table, SUBJECT, row), RunRow.analysisVariant(text(table, VARIANT, row), engine));
    }
}
