package io.loadlab.importer;

import io.loadlab.data.RunColumn;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one tool output reported: a value per field, as text, units as the names' suffixes say
 * (the names are those of the {@code runs.csv} columns they become, so that an import and an
 * engine run fill the same columns; a test keeps the two lists in line). Fields the tool did not
 * report are absent, so they stay empty. The importer only parses: storing is the runner's and
 * {@link ExperimentImport}'s job.
 */
public record ImportedRun(Tool tool, Map<String, String> values) {

    /** Every field a tool's output can give. */
    public static final List<String> FIELDS = java.util.stream.Stream.of(
            RunColumn.REQUESTS, RunColumn.DURATION_S, RunColumn.RPS, RunColumn.BYTES_READ, RunColumn.CONNECTIONS,
            RunColumn.THREADS, RunColumn.LOAD_MODEL, RunColumn.ENGINE, RunColumn.ERRORS_CONNECT,
            RunColumn.ERRORS_READ, RunColumn.ERRORS_WRITE, RunColumn.ERRORS_TIMEOUT, RunColumn.ERRORS_STATUS,
            RunColumn.ERRORS_PROTOCOL, RunColumn.LAT_MEAN_US, RunColumn.LAT_STDEV_US, RunColumn.LAT_P50_US,
            RunColumn.LAT_P75_US, RunColumn.LAT_P90_US, RunColumn.LAT_P99_US, RunColumn.LAT_P999_US,
            RunColumn.LAT_MAX_US, RunColumn.SVC_P50_US, RunColumn.SVC_P90_US, RunColumn.SVC_P99_US,
            RunColumn.SVC_P999_US, RunColumn.ERRORS_TLS, RunColumn.PROTOCOL)
            .map(RunColumn::id).toList();

    public ImportedRun {
        for (String c : values.keySet()) {
            if (!FIELDS.contains(c)) {
                throw new IllegalArgumentException("unknown imported field '" + c + "'");
            }
        }
        values = Map.copyOf(new TreeMap<>(values));
    }

    /** The value of a column, or the empty string when the tool did not report it. */
    public String get(String column) {
        return values.getOrDefault(column, "");
    }
}
