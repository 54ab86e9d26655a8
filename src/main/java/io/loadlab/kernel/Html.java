package io.loadlab.kernel;

import io.loadlab.format.ShownTable;
import java.util.List;
import tech.tablesaw.api.Table;

/** Small HTML building blocks for the renderers: escaping and tables. */
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
     * rows with their numbers rounded for reading ({@link ShownTable}), and a note saying how many
     * rows were left out.
     */
    static String table(Table t, int maxRows) {
        ShownTable shown = ShownTable.of(t, maxRows);
        StringBuilder b = new StringBuilder();
        b.append("<div class=\"loadlab-table\"><table>\n");
        b.append("<caption>").append(escape(shown.name())).append(" <small>(").append(shown.rowCount()).append(" rows × ")
                .append(shown.header().size()).append(" columns)</small></caption>\n<thead><tr>");
        shown.header().forEach(h -> b.append("<th>").append(escape(h)).append("</th>"));
        b.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : shown.rows()) {
            b.append("<tr>");
            for (int c = 0; c < row.size(); c++) {
                b.append(shown.numeric().get(c) ? "<td style=\"text-align:right\">" : "<td>")
                        .append(escape(row.get(c))).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</tbody></table>\n");
        if (shown.hiddenRows() > 0) {
            b.append("<p><i>… ").append(shown.hiddenRows()).append(" more rows</i></p>\n");
        }
        return b.append("</div>").toString();
    }

    /** One header row and one data row, for records such as a latency summary. */
    static String keyValueTable(String caption, List<String> keys, List<String> values) {
        StringBuilder b = new StringBuilder("<table>\n<caption>").append(escape(caption)).append("</caption>\n<thead><tr>");
        keys.forEach(k -> b.append("<th>").append(escape(k)).append("</th>"));
        b.append("</tr></thead>\n<tbody><tr>");
        values.forEach(v -> b.append("<td style=\"text-align:right\">").append(escape(v)).append("</td>"));
        return b.append("</tr></tbody>\n</table>").toString();
    }
}
