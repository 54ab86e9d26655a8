package io.loadlab.data;

import java.util.ArrayList;
import java.util.List;

/** Splits one CSV line (RFC 4180 quoting, no line breaks inside values). Stateless. */
final class CsvLines {

    private CsvLines() {
    }

    /**
     * @throws IllegalArgumentException for an unterminated quote
     */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (true) {
            int comma = line.indexOf(',', i);
            int quote = line.indexOf('"', i);
            if (quote < 0 || (comma >= 0 && comma < quote)) {
                // No quote in this value (the usual case): it is the text up to the comma.
                out.add(line.substring(i, comma < 0 ? line.length() : comma));
                if (comma < 0) {
                    return out;
                }
                i = comma + 1;
            } else {
                i = quoted(line, i, out);
                if (i > line.length()) {
                    return out;
                }
            }
        }
    }

    /** Reads a value with quotes in it from {@code from}; returns where the next value starts. */
    private static int quoted(String line, int from, List<String> out) {
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        int i = from;
        for (; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                break;
            } else {
                cur.append(c);
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("unterminated quoted value");
        }
        out.add(cur.toString());
        return i + 1;
    }
}
