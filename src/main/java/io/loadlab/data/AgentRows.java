package io.loadlab.data;

import java.util.List;
import java.util.Map;

/**
 * {@code agents.csv}: one row per agent of each run whose load ran on agents, beside that run's merged
 * row in {@code runs.csv} (joined on {@code experiment} and {@code run_id}). Fixed columns, units in
 * the suffixes; an unmeasured value is empty.
 */
public final class AgentRows {

    public static final String FILE = "agents.csv";

    /** The columns, in order. */
    public static final List<String> COLUMNS = List.of("experiment", "run_id", "agent", "weight", "connections",
            "threads", "target_rps", "requests", "rps", "errors", "load_cpu_s", "load_bound", "clock_offset_us",
            "clock_rtt_us", "start_lag_ms", "status", "error");

    private AgentRows() {
    }

    /** The header line. */
    public static String header() {
        return String.join(",", COLUMNS);
    }

    /**
     * One agent's line (without line end).
     *
     * @throws IllegalArgumentException for a column that is not one of {@link #COLUMNS}
     */
    public static String line(String experiment, String runId, Map<String, String> values) {
        for (String k : values.keySet()) {
            if (!COLUMNS.contains(k)) {
                throw new IllegalArgumentException("unknown agents.csv column '" + k + "'");
            }
        }
        List<String> out = new java.util.ArrayList<>();
        for (String c : COLUMNS) {
            String v = c.equals("experiment") ? experiment : c.equals("run_id") ? runId : values.getOrDefault(c, "");
            out.add(RunRow.escape(v));
        }
        return String.join(",", out);
    }
}
