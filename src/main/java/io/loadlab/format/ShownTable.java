package io.loadlab.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;
import tech.tablesaw.columns.numbers.NumberColumnFormatter;

/**
 * A Tablesaw table as a person reads it: its first rows as text, each number rounded by its
 * column's {@link Figure} (from the column's name and the table's {@code metric} column), missing
 * values empty. A column given a print formatter of its own ({@code setPrintFormatter}) is shown as
 * that formatter says. The kernel's HTML tables and {@link #text()} (JShell's {@code show(table)})
 * both come from here, so they always agree.
 *
 * @param name     the table's name, or {@code "table"} when it has none
 * @param rowCount rows of the whole table
 * @param header   the column names
 * @param numeric  per column, whether it holds numbers (shown right-aligned)
 * @param rows     the rows shown, each with one text per column
 */
public record ShownTable(String name, int rowCount, List<String> header, List<Boolean> numeric,
                         List<List<String>> rows) {

    /** Rows shown at most by the kernel and by {@code show(table)}; a note says how many more there are. */
    public static final int MAX_ROWS = 50;

    public ShownTable {
        Objects.requireNonNull(name, "name");
        header = List.copyOf(header);
        numeric = List.copyOf(numeric);
        rows = rows.stream().map(List::copyOf).toList();
        int columns = header.size();
        if (numeric.size() != columns || rows.stream().anyMatch(r -> r.size() != columns)) {
            throw new IllegalArgumentException("a shown table needs one text per column in every row: "
                    + columns + " columns, " + numeric.size() + " alignments");
        }
    }

    /**
     * The first {@code maxRows} rows of a table, as shown.
     *
     * @param maxRows 0 or more
     */
    public static ShownTable of(Table table, int maxRows) {
        String metric = table.columnNames().contains("metric") && table.rowCount() > 0
                ? table.column("metric").getString(0) : "";
        List<Column<?>> columns = table.columns();
        List<String> header = new ArrayList<>();
        List<Boolean> numeric = new ArrayList<>();
        List<Figure> figures = new ArrayList<>();
        for (Column<?> c : columns) {
            header.add(c.name());
            numeric.add(c instanceof NumericColumn);
            figures.add(figureOf(c, metric));
        }
        int shown = Math.min(Math.max(0, maxRows), table.rowCount());
        List<List<String>> rows = new ArrayList<>(shown);
        for (int r = 0; r < shown; r++) {
            List<String> row = new ArrayList<>(columns.size());
            for (int c = 0; c < columns.size(); c++) {
                row.add(cell(columns.get(c), figures.get(c), r));
            }
            rows.add(row);
        }
        String name = table.name() == null || table.name().isBlank() ? "table" : table.name();
        return new ShownTable(name, table.rowCount(), header, numeric, rows);
    }

    /** Rows of the table that are not shown. */
    public int hiddenRows() {
        return rowCount - rows.size();
    }

    /**
     * The table as aligned text: its name with its size, the header, the rows (text left-aligned,
     * numbers right-aligned) and a last line saying how many rows were left out.
     */
    public String text() {
        StringBuilder b = new StringBuilder().append(name).append(" (").append(rowCount).append(" rows × ")
                .append(header.size()).append(" columns)\n");
        b.append(TextTable.lines(header, rows, numeric));
        if (hiddenRows() > 0) {
            b.append("… ").append(hiddenRows()).append(" more rows\n");
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return text();
    }

    /** The kind of a column: by name, and for integer columns that match no name, the integer as it is. */
    static Figure figureOf(Column<?> column, String metric) {
        Figure f = Figure.of(column.name(), metric);
        return f == Figure.DECIMAL && integral(column) ? Figure.INTEGER : f;
    }

    private static String cell(Column<?> column, Figure figure, int row) {
        if (column.isMissing(row)) {
            return "";
        }
        if (!(column instanceof NumericColumn<?> numbers)) {
            return column.getString(row);
        }
        String own = column.getString(row);
        return own.equals(standard(numbers, row)) ? figure.format(numbers.getDouble(row)) : own;
    }

    /** What Tablesaw's default print formatter of the column's type shows, to tell a formatter set by hand. */
    private static String standard(NumericColumn<?> column, int row) {
        if (integral(column)) {
            return Long.toString((long) column.getDouble(row));
        }
        NumberColumnFormatter f = NumberColumnFormatter.floatingPointDefault();
        f.setColumnType(column.type());
        return f.format(column.getDouble(row));
    }

    private static boolean integral(Column<?> column) {
        ColumnType t = column.type();
        return t == ColumnType.INTEGER || t == ColumnType.LONG || t == ColumnType.SHORT;
    }
}
