package io.loadlab.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** Plain aligned text tables for the terminal. */
final class TextTable {

    private TextTable() {
    }

    /**
     * Prints a header and rows; the first {@code leftColumns} columns are left-aligned, the rest
     * (numbers) right-aligned.
     */
    static void print(PrintWriter w, String[] header, List<String[]> rows, int leftColumns) {
        int[] width = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            width[i] = header[i].length();
            for (String[] r : rows) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        w.println(line(header, width, leftColumns));
        for (String[] r : rows) {
            w.println(line(r, width, leftColumns));
        }
    }

    private static String line(String[] cells, int[] width, int leftColumns) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {

            if (i > 0) {
                sb.append("  ");
            }
            sb.append(String.format(Locale.ROOT, (i < leftColumns ? "%-" : "%") + width[i] + "s", cells[i]));
        }
        return sb.toString().stripTrailing();
    }
}
