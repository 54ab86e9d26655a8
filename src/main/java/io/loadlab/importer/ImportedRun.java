package io.loadlab.importer;

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
    public static final List<String> FIELDS = List.of("requests", "duration_s", "rps", "bytes_read", "connections",
            "threads", "load_model", "engine", "errors_connect", "errors_read", "errors_write", "errors_timeout",
            "errors_status", "errors_protocol", "lat_mean_us", "lat_stdev_us", "lat_p50_us", "lat_p75_us",
            "lat_p90_us", "lat_p99_us", "lat_p999_us", "lat_max_us", "svc_p50_us", "svc_p90_us", "svc_p99_us",
            "svc_p999_us", "errors_tls", "protocol");

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
