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

    /** The fixed columns, in order ({@link RunColumn} defines them); units are in the suffixes (_s, _us, _bytes). */
    public static final List<String> FIXED_COLUMNS = java.util.Arrays.stream(RunColumn.values()).filter(RunColumn::fixed)
            .map(RunColumn::id).toList();

    /**
     * Columns after the fixed ones. The last three are a latency sweep's (empty outside one):
     * {@code sweep_role} ({@link RunColumn.SweepRole}), {@code capacity_rps}
     * (the closed-loop capacity the point was measured against: a capacity run's own rps) and
     * {@code capacity_fraction} (target_rps / capacity_rps: the planned share for a fraction).
     */
    public static final List<String> EXTRA_COLUMNS = java.util.Arrays.stream(RunColumn.values())
            .filter(c -> !c.fixed()).map(RunColumn::id).toList();

    /** Every column of a row written by this version, in order. */
    public static final List<String> COLUMNS = RunColumn.ids();

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
    public String get(RunColumn column) {
        return get(column.id());
    }

    /** A value by the column's name, empty when not measured. */
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
}
