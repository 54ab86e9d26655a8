package io.loadlab.kernel;

import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/** Small HTML building blocks for the renderers: escaping, tables, number formatting. */
final class Html {

    private Html() {
    }

    /** Escapes text for HTML element content and attribute values. */
    static String escape(String text) {
        StringBuilder b = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /**
     * A Tablesaw table as an HTML table: the table's name as caption, its first {@code maxRows}
     * rows, and a note saying how many rows were left out.
     */
    static String table(Table t, int maxRows) {
        List<Column<?>> columns = t.columns();
        boolean[] numeric = new boolean[columns.size()];
        StringBuilder b = new StringBuilder();
        b.append("<div class=\"loadlab-table\"><table>\n");
        String name = t.name() == null || t.name().isBlank() ? "table" : t.name();
        b.append("<caption>").append(escape(name)).append(" <small>(").append(t.rowCount()).append(" rows × ")
                .append(t.columnCount()).append(" columns)</small></caption>\n<thead><tr>");
        for (int c = 0; c < columns.size(); c++) {
            ColumnType type = columns.get(c).type();
            numeric[c] = type == ColumnType.INTEGER || type == ColumnType.LONG || type == ColumnType.DOUBLE
                    || type == ColumnType.FLOAT || type == ColumnType.SHORT;
            b.append("<th>").append(escape(columns.get(c).name())).append("</th>");
        }
        b.append("</tr></thead>\n<tbody>\n");
        int shown = Math.min(maxRows, t.rowCount());
        for (int r = 0; r < shown; r++) {
            b.append("<tr>");
            for (int c = 0; c < columns.size(); c++) {
                b.append(numeric[c] ? "<td style=\"text-align:right\">" : "<td>")
                        .append(escape(cell(columns.get(c), r))).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</tbody></table>\n");
        if (t.rowCount() > shown) {
            b.append("<p><i>… ").append(t.rowCount() - shown).append(" more rows</i></p>\n");
        }
        return b.append("</div>").toString();
    }

    /** A cell's text: decimals to 6 significant digits (a table is for reading), missing as empty. */
    private static String cell(tech.tablesaw.columns.Column<?> column, int row) {
        if (column.isMissing(row)) {
            return "";
        }
        if (column.type() == ColumnType.DOUBLE || column.type() == ColumnType.FLOAT) {
            return number(((Number) column.get(row)).doubleValue());
        }
        return column.getString(row);
    }

    /** One header row and one data row, for records such as a latency summary. */
    static String keyValueTable(String caption, List<String> keys, List<String> values) {
        StringBuilder b = new StringBuilder("<table>\n<caption>").append(escape(caption)).append("</caption>\n<thead><tr>");
        keys.forEach(k -> b.append("<th>").append(escape(k)).append("</th>"));
        b.append("</tr></thead>\n<tbody><tr>");
        values.forEach(v -> b.append("<td style=\"text-align:right\">").append(escape(v)).append("</td>"));
        return b.append("</tr></tbody>\n</table>").toString();
    }

    /** A number with up to 6 significant digits, without trailing zeros; NaN as "NaN". */
    static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.toString(v);
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = String.format(Locale.ROOT, "%.6g", v);
        if (s.contains("e") || !s.contains(".")) {
            return s;
        }
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
