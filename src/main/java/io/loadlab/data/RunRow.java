package io.loadlab.data;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One row of {@code runs.csv}: a value per column, as text. A value that was not measured is
 * the empty string, never 0. The column names and their order are fixed (see {@link #COLUMNS});
 * notebooks and users' scripts depend on them.
 */
public record RunRow(Map<String, String> values) {

    /** The fixed columns, in order; units are in the suffixes (_s, _us, _bytes). */
    public static final List<String> FIXED_COLUMNS = List.of(
            "experiment", "run_id", "round", "position", "subject", "variant", "workload", "engine",
            "connections", "threads", "target_rps", "duration_s", "requests", "rps", "bytes_read",
            "errors_connect", "errors_read", "errors_write", "errors_timeout", "errors_status", "errors_protocol",
            "lat_mean_us", "lat_stdev_us", "lat_p50_us", "lat_p75_us", "lat_p90_us", "lat_p99_us",
            "lat_p999_us", "lat_max_us", "server_cpu_user_s", "server_cpu_sys_s", "server_cpu_s",
            "rps_per_server_cpu_s", "server_peak_rss_bytes", "load_cpu_s", "rps_per_load_cpu_s",
            "load_bound", "status", "error");

    /**
     * Columns after the fixed ones. The last three are a latency sweep's (empty outside one):
     * {@code sweep_role} ({@code capacity}, {@code fraction} or {@code rate}), {@code capacity_rps}
     * (the closed-loop capacity the point was measured against: a capacity run's own rps) and
     * {@code capacity_fraction} (target_rps / capacity_rps: the planned share for a fraction).
     */
    public static final List<String> EXTRA_COLUMNS = List.of(
            "load_model", "warmup_s", "bytes_written", "svc_p50_us", "svc_p90_us", "svc_p99_us", "svc_p999_us",
            "process_cpu_s", "load_cpus", "server_cpus", "started_at", "steady", "missed", "noise_cpu_s", "steal_s",
            "sweep_role", "capacity_rps", "capacity_fraction", "errors_tls", "protocol");

    /** Every column of a row written by this version, in order. */
    public static final List<String> COLUMNS = concat(FIXED_COLUMNS, EXTRA_COLUMNS);

    public RunRow {
        for (String k : values.keySet()) {
            if (!COLUMNS.contains(k)) {
                throw new IllegalArgumentException("unknown runs.csv column '" + k + "'");
            }
        }
        Map<String, String> ordered = new LinkedHashMap<>();
        for (String c : COLUMNS) {
            String v = values.get(c);
            ordered.put(c, v == null ? "" : v);
        }
        values = Collections.unmodifiableMap(ordered);
    }

    /** A value, empty when not measured. */
    public String get(String column) {
        String v = values.get(column);
        if (v == null) {
            throw new IllegalArgumentException("unknown runs.csv column '" + column + "'");
        }
        return v;
    }

    /** The CSV line (without line end), values quoted where needed. */
    public String toCsv() {
        return String.join(",", COLUMNS.stream().map(c -> escape(values.get(c))).toList());
    }

    /** The header line. */
    public static String csvHeader() {
        return String.join(",", COLUMNS);
    }

    static String escape(String v) {
        if (v.indexOf(',') < 0 && v.indexOf('"') < 0 && v.indexOf('\n') < 0 && v.indexOf('\r') < 0) {
            return v;
        }
        return '"' + v.replace("\"", "\"\"") + '"';
    }

    /**
     * The variant label analyses group runs by: the variant, followed by {@code engine=E} for
     * runs of another engine than the built-in one (for example {@code durability=fsync,engine=wrk}
     * or {@code engine=h2load}), so that runs of different engines are never pooled and show as
     * variants of their subject in tables and charts.
     *
     * @param engine the engine column's value; empty or {@code builtin} adds nothing
     */
    public static String analysisVariant(String variant, String engine) {
        String e = engine == null ? "" : engine.trim();
        if (e.isEmpty() || e.equals("builtin")) {
            return variant;
        }
        return variant.isEmpty() ? "engine=" + e : variant + ",engine=" + e;
    }

    /** Formats a number for the CSV: integers plainly, others with up to 6 decimals. */
    public static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = String.format(Locale.ROOT, "%.6f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        java.util.ArrayList<String> out = new java.util.ArrayList<>(a);
        out.addAll(b);
        return List.copyOf(out);
    }
}
