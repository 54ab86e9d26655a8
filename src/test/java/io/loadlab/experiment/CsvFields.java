package io.loadlab.experiment;

import java.util.ArrayList;
import java.util.List;

/** The fields of one line of a CSV file Loadlab wrote, for the tests that read them back. */
public final class CsvFields {

    private CsvFields() {
    }

    /** The fields of {@code line}, quoted ones unquoted (a doubled quote inside is one quote). */
    public static List<String> of(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"' && quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                f.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(f.toString());
                f.setLength(0);
            } else {
                f.append(c);
            }
        }
        out.add(f.toString());
        return out;
    }
}
