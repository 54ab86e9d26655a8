package io.loadlab.data;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * The typed columns of a runs table as they are filled, row by row: {@code IntColumn} for ids,
 * rounds and counts of threads and connections, {@code LongColumn} for the other whole numbers
 * (counts, bytes, µs percentiles), {@code DoubleColumn} for rates and seconds,
 * {@code BooleanColumn} for flags, text for the rest and for columns this version does not know.
 * Every column of {@link RunRow#COLUMNS} is there, in order, then the unknown ones in the order
 * they were first met; a value a file lacks is missing. Not thread-safe.
 */
final class RunColumns {

    /** How a column's text becomes a value. */
    enum Type {
        TEXT("text"), INT("whole number"), LONG("whole number"), DOUBLE("number"), BOOLEAN("true/false value");

        /** What a value of the type is called in an error message. */
        final String description;

        Type(String description) {
            this.description = description;
        }

        Column<?> create(String name) {
            return switch (this) {
                case TEXT -> StringColumn.create(name);
                case INT -> IntColumn.create(name);
                case LONG -> LongColumn.create(name);
                case DOUBLE -> DoubleColumn.create(name);
                case BOOLEAN -> BooleanColumn.create(name);
            };
        }

        /**
         * Appends a value; the empty string is a missing value.
         *
         * @throws IllegalArgumentException when the text is not a value of the type
         */
        void append(Column<?> column, String value) {
            if (value.isEmpty()) {
                column.appendMissing();
                return;
            }
            switch (this) {
                case TEXT -> ((StringColumn) column).append(value);
                case INT -> ((IntColumn) column).append(Integer.parseInt(value));
                case LONG -> ((LongColumn) column).append(Long.parseLong(value));
                case DOUBLE -> ((DoubleColumn) column).append(Double.parseDouble(value));
                case BOOLEAN -> ((BooleanColumn) column).append(bool(value));
            }
        }

        private static boolean bool(String value) {
            if (!value.equals("true") && !value.equals("false")) {
                throw new IllegalArgumentException("not true or false: " + value);
            }
            return value.equals("true");
        }
    }

    private final Map<String, Column<?>> columns = new LinkedHashMap<>();
    private final Map<String, Type> types = new LinkedHashMap<>();
    private int rows;

    RunColumns() {
        RunRow.COLUMNS.forEach(this::add);
    }

    /** The type of a column by its name: the known columns by their unit, unknown ones as text. */
    static Type typeOf(String name) {
        return RunColumn.of(name).map(RunColumn::type).orElse(Type.TEXT);
    }

    /** The column of a name, made (missing in the rows so far) when it is new. */
    Column<?> column(String name) {
        if (!columns.containsKey(name)) {
            add(name);
        }
        return columns.get(name);
    }

    /** The type of a column that is there. */
    Type type(String name) {
        return types.get(name);
    }

    /** The columns not in {@code names}: a row of a file with that header leaves them missing. */
    List<Column<?>> others(List<String> names) {
        return columns.entrySet().stream().filter(e -> !names.contains(e.getKey())).<Column<?>>map(Map.Entry::getValue)
                .toList();
    }

    /** Counts one row as complete: every column got a value. */
    void endRow() {
        rows++;
    }

    /** The rows so far. */
    int rows() {
        return rows;
    }

    /** The table of the rows so far (its columns are these, not copies). */
    Table table() {
        return Table.create("runs", columns.values().toArray(Column<?>[]::new));
    }

    private void add(String name) {
        Type type = typeOf(name);
        Column<?> column = type.create(name);
        for (int i = 0; i < rows; i++) {
            column.appendMissing();
        }
        columns.put(name, column);
        types.put(name, type);
    }
}
