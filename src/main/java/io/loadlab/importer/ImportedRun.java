package io.loadlab.importer;

import io.loadlab.data.RunRow;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one tool output reported, as {@code runs.csv} values (column to text, units as the column
 * suffixes say). Columns the tool did not report are absent, so they stay empty in the row.
 */
public record ImportedRun(Tool tool, Map<String, String> values) {

    public ImportedRun {
        for (String c : values.keySet()) {
            if (!RunRow.COLUMNS.contains(c)) {
                throw new IllegalArgumentException("unknown runs.csv column '" + c + "'");
            }
        }
        values = Map.copyOf(new TreeMap<>(values));
    }

    /** The value of a column, or the empty string when the tool did not report it. */
    public String get(String column) {
        return values.getOrDefault(column, "");
    }
}
