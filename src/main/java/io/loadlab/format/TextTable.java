package io.loadlab.format;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Plain aligned text tables for the terminal and JShell: columns two spaces apart, no trailing blanks. */
public final class TextTable {

    private TextTable() {
    }

    /**
     * Prints a header and rows; the first {@code leftColumns} columns are left-aligned, the rest
     * (numbers) right-aligned.
     */
    public static void print(PrintWriter w, String[] header, List<String[]> rows, int leftColumns) {
        List<Boolean> right = new ArrayList<>();
        for (int i = 0; i < header.length; i++) {
            right.add(i >= leftColumns);
        }
        w.print(lines(Arrays.asList(header), rows.stream().map(Arrays::asList).toList(), right));
    }

    /**
     * A header and rows as lines, each ending with {@code \n}.
     *
     * @param rightAligned per column, whether it is right-aligned (numbers) or left-aligned (text)
     * @throws IllegalArgumentException when a row or the alignments do not have one entry per column
     */
    public static String lines(List<String> header, List<List<String>> rows, List<Boolean> rightAligned) {
        int[] width = new int[header.size()];
        if (rightAligned.size() != width.length || rows.stream().anyMatch(r -> r.size() != width.length)) {
            throw new IllegalArgumentException("every row and the alignments need " + width.length + " entries");
        }
        for (int i = 0; i < width.length; i++) {
            width[i] = header.get(i).length();
            for (List<String> r : rows) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        StringBuilder b = new StringBuilder();
        line(b, header, width, rightAligned);
        rows.forEach(r -> line(b, r, width, rightAligned));
        return b.toString();
    }

    private static void line(StringBuilder b, List<String> cells, int[] width, List<Boolean> rightAligned) {
        int start = b.length();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                b.append("  ");
            }
            String cell = cells.get(i);
            String pad = " ".repeat(width[i] - cell.length());
            b.append(rightAligned.get(i) ? pad + cell : cell + pad);
        }
        int end = b.length();
        while (end > start && b.charAt(end - 1) == ' ') {
            end--;
        }
        b.setLength(end);
        b.append('\n');
    }
}
