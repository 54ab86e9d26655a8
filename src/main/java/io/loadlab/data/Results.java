package io.loadlab.data;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * One or more experiments loaded for analysis: the runs as a Tablesaw table (typed columns named
 * as in {@code runs.csv}; unmeasured values missing), the per-second intervals from
 * {@code latency.hlog}, and latency histograms merged over the successful runs of each subject,
 * variant and workload. Percentiles across rounds come from those merged histograms, never
 * from averaged percentiles. Immutable; accessors return copies.
 */
public final class Results {

    private static final Set<String> STRINGS = Set.of("experiment", "subject", "variant", "workload", "engine",
            "status", "error", "load_model", "load_cpus", "server_cpus", "started_at", "protocol");
    private static final Set<String> INTS = Set.of("run_id", "round", "position", "connections", "threads");
    private static final Set<String> DOUBLES = Set.of("target_rps", "duration_s", "rps", "lat_mean_us",
            "lat_stdev_us", "server_cpu_user_s", "server_cpu_sys_s", "server_cpu_s", "rps_per_server_cpu_s",
            "load_cpu_s", "rps_per_load_cpu_s", "process_cpu_s", "warmup_s", "noise_cpu_s", "steal_s");
    private static final Set<String> BOOLEANS = Set.of("load_bound", "steady");

    private final List<Path> experiments;
    private final Table runs;
    /** Rows of each experiment's runs.csv, kept to build the intervals table on first use. */
    private final Map<Path, List<Map<String, String>>> rowsByDir;
    private Table intervals;
    private final Map<String, Histogram> merged;

    private Results(List<Path> experiments, Table runs, Map<Path, List<Map<String, String>>> rowsByDir,
                    Map<String, Histogram> merged) {
        this.experiments = List.copyOf(experiments);
        this.runs = runs;
        this.rowsByDir = rowsByDir;
        this.merged = merged;
    }

    /**
     * Loads experiment folders (each with {@code runs.csv}; {@code latency.hlog} optional).
     *
     * @throws DataException for a folder that is not an experiment, or a damaged row or log
     *                       line, naming the file and line
     */
    public static Results load(Path... dirs) {
        if (dirs.length == 0) {
            throw new DataException("give at least one experiment folder, such as data/sample");
        }
        List<Map<String, String>> rows = new ArrayList<>();
        Set<String> columns = new LinkedHashSet<>(RunRow.COLUMNS);
        Set<Path> seen = new java.util.HashSet<>();
        Map<String, Path> names = new HashMap<>();
        Map<String, Histogram> byRun = new HashMap<>();
        Map<Path, List<Map<String, String>>> rowsByDir = new LinkedHashMap<>();
        for (Path dir : dirs) {
            Path csv = dir.resolve(ExperimentStore.RUNS_FILE);
            if (!Files.isRegularFile(csv)) {
                throw new DataException(dir + " is not an experiment folder: it has no " + ExperimentStore.RUNS_FILE
                        + " (experiments are the folders under data/, such as data/sample)");
            }
            try {
                if (!seen.add(dir.toRealPath())) {
                    throw new DataException(dir + " is given twice: its rounds would count double");
                }
            } catch (IOException e) {
                throw new DataException("cannot read " + dir + ": " + e.getMessage(), e);
            }
            List<Map<String, String>> these = readCsv(csv, columns);
            for (Map<String, String> r : these) {
                // Within one load an experiment is known by its name: two folders may not share one.
                Path other = names.putIfAbsent(r.get("experiment"), dir);
                if (other != null && !other.equals(dir)) {
                    throw new DataException(dir + " and " + other + " both hold experiment '" + r.get("experiment")
                            + "': their run ids would collide; load them separately or rename one");
                }
            }
            rows.addAll(these);
            rowsByDir.put(dir, these);
            Path hlog = dir.resolve(ExperimentStore.HLOG_FILE);
            if (Files.isRegularFile(hlog)) {
                readHlog(hlog, these, byRun, null);
            }
        }
        Table runs = runsTable(rows, columns);
        // The statistics' groups, so that a merged histogram never pools connection counts or rates they keep apart.
        AnalysisGroups groups = AnalysisGroups.of(runs);
        Map<String, Histogram> merged = new TreeMap<>();
        for (int i = 0; i < rows.size(); i++) {
            Map<String, String> r = rows.get(i);
            Histogram h = byRun.get(r.get("experiment") + "\u0000" + r.get("run_id"));
            if ("ok".equals(r.get("status")) && h != null) {
                merged.computeIfAbsent(key(r.get("subject"), groups.variant(i), r.get("workload")),
                        k -> new Histogram(3)).add(h);
            }
        }
        return new Results(List.of(dirs), runs, rowsByDir, merged);
    }

    /** The folders loaded. */
    public List<Path> experiments() {
        return experiments;
    }

    /** Every run (a copy). */
    public Table runs() {
        return runs.copy();
    }

    /** The runs with status {@code ok}. */
    public Table okRuns() {
        return runs.where(runs.stringColumn("status").isEqualTo("ok"));
    }

    /**
     * One row per run and second: experiment, run_id, subject, variant, workload, round, t_s
     * (start of the second within the window, s), requests, rps, lat_p50_us, lat_p90_us,
     * lat_p99_us, lat_max_us.
     */
    public synchronized Table intervals() {
        if (intervals == null) {
            // Built on first use: its per-second percentiles cost more than the whole load.
            List<Object[]> rows = new ArrayList<>();
            rowsByDir.forEach((dir, these) -> {
                Path hlog = dir.resolve(ExperimentStore.HLOG_FILE);
                if (Files.isRegularFile(hlog)) {
                    readHlog(hlog, these, null, rows);
                }
            });
            intervals = intervalsTable(rows);
        }
        return intervals.copy();
    }

    /**
     * The latency histogram (µs) of all successful runs of a subject, variant and workload; empty if
     * none. The variant is the analysis variant label ({@link AnalysisGroups}), as the statistics'
     * tables show it: e.g. {@code durability=memory,connections=16} for a group split by connection count.
     */
    public Histogram latency(String subject, String variant, String workload) {
        Histogram h = merged.get(key(subject, variant, workload));
        return h == null ? new Histogram(3) : h.copy();
    }

    /**
     * The merged histograms of one workload by series label: the subject, plus {@code [variant]}
     * when the variant is not empty. Ready for {@code Charts.latencySpectrum}.
     */
    public Map<String, Histogram> latencyByLabel(String workload) {
        Map<String, Histogram> out = new LinkedHashMap<>();
        merged.forEach((k, h) -> {
            String[] p = k.split("\u0000", -1);
            if (p[2].equals(workload)) {
                out.put(p[1].isEmpty() ? p[0] : p[0] + " [" + p[1] + "]", h.copy());
            }
        });
        return out;
    }

    /**
     * Latency percentiles (µs) per subject, variant and workload from the merged histograms:
     * subject, variant, workload, requests, p50_us, p90_us, p99_us, p999_us, p9999_us, max_us.
     */
    public Table latencyPercentiles() {
        StringColumn s = StringColumn.create("subject");
        StringColumn v = StringColumn.create("variant");
        StringColumn w = StringColumn.create("workload");
        LongColumn n = LongColumn.create("requests");
        double[] ps = {50, 90, 99, 99.9, 99.99};
        String[] names = {"p50_us", "p90_us", "p99_us", "p999_us", "p9999_us"};
        List<LongColumn> pc = new ArrayList<>();
        for (String name : names) {
            pc.add(LongColumn.create(name));
        }
        LongColumn max = LongColumn.create("max_us");
        merged.forEach((k, h) -> {
            String[] p = k.split("\u0000", -1);
            s.append(p[0]);
            v.append(p[1]);
            w.append(p[2]);
            n.append(h.getTotalCount());
            for (int i = 0; i < ps.length; i++) {
                pc.get(i).append(h.getValueAtPercentile(ps[i]));
            }
            max.append(h.getMaxValue());
        });
        Table t = Table.create("latency percentiles (merged over rounds)", s, v, w, n);
        pc.forEach(t::addColumns);
        return t.addColumns(max);
    }

    private static String key(String subject, String variant, String workload) {
        return subject + "\u0000" + (variant == null ? "" : variant) + "\u0000" + workload;
    }

    private static List<Map<String, String>> readCsv(Path csv, Set<String> columns) {
        List<String> lines;
        try {
            byte[] bytes = Files.readAllBytes(csv);
            int end = bytes.length;
            while (end > 0 && bytes[end - 1] != '\n') {
                end--;
            }
            // A last line without its line feed is a row cut off by a kill while it was appended
            // (at most the run in flight): it is not data. Damage anywhere else is an error.
            lines = new String(bytes, 0, end, StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new DataException("cannot read " + csv + ": " + e.getMessage(), e);
        }
        if (lines.isEmpty() || !lines.get(0).startsWith("experiment,")) {
            throw new DataException(csv + ":1: not a runs.csv header (it starts with 'experiment,run_id,')");
        }
        List<String> header = CsvLines.split(lines.get(0));
        columns.addAll(header);
        for (String required : List.of("experiment", "run_id", "subject", "workload", "status")) {
            if (!header.contains(required)) {
                throw new DataException(csv + ":1: the header lacks the column '" + required + "'");
            }
        }
        List<Map<String, String>> out = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isEmpty()) {
                continue;
            }
            List<String> values;
            try {
                values = CsvLines.split(lines.get(i));
            } catch (IllegalArgumentException e) {
                throw new DataException(csv + ":" + (i + 1) + ": damaged row (" + e.getMessage() + ")");
            }
            if (values.size() != header.size()) {
                throw new DataException(csv + ":" + (i + 1) + ": damaged row: " + values.size() + " values for "
                        + header.size() + " columns");
            }
            Map<String, String> row = new HashMap<>();
            for (int c = 0; c < header.size(); c++) {
                String name = header.get(c);
                String value = values.get(c);
                if (!value.isEmpty() && !checkType(name, value)) {
                    throw new DataException(csv + ":" + (i + 1) + ": column '" + name + "' holds '" + value
                            + "', which is not a " + typeName(name));
                }
                row.put(name, value);
            }
            out.add(row);
        }
        return out;
    }

    private static boolean checkType(String column, String value) {
        try {
            if (INTS.contains(column)) {
                Integer.parseInt(value);
            } else if (DOUBLES.contains(column)) {
                Double.parseDouble(value);
            } else if (BOOLEANS.contains(column)) {
                return value.equals("true") || value.equals("false");
            } else if (isLong(column)) {
                Long.parseLong(value);
            }
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean isLong(String column) {
        return !STRINGS.contains(column) && !INTS.contains(column) && !DOUBLES.contains(column)
                && !BOOLEANS.contains(column) && RunRow.COLUMNS.contains(column);
    }

    private static String typeName(String column) {
        return INTS.contains(column) || isLong(column) ? "whole number" : DOUBLES.contains(column) ? "number"
                : "true/false value";
    }

    private static Table runsTable(List<Map<String, String>> rows, Set<String> columns) {
        Table t = Table.create("runs");
        for (String c : columns) {
            Column<?> col;
            if (INTS.contains(c)) {
                IntColumn ic = IntColumn.create(c);
                rows.forEach(r -> appendOrMissing(ic, r.get(c), v -> ic.append(Integer.parseInt(v))));
                col = ic;
            } else if (DOUBLES.contains(c)) {
                DoubleColumn dc = DoubleColumn.create(c);
                rows.forEach(r -> appendOrMissing(dc, r.get(c), v -> dc.append(Double.parseDouble(v))));
                col = dc;
            } else if (BOOLEANS.contains(c)) {
                BooleanColumn bc = BooleanColumn.create(c);
                rows.forEach(r -> appendOrMissing(bc, r.get(c), v -> bc.append(Boolean.parseBoolean(v))));
                col = bc;
            } else if (isLong(c)) {
                LongColumn lc = LongColumn.create(c);
                rows.forEach(r -> appendOrMissing(lc, r.get(c), v -> lc.append(Long.parseLong(v))));
                col = lc;
            } else {
                StringColumn sc = StringColumn.create(c);
                rows.forEach(r -> sc.append(r.getOrDefault(c, "")));
                col = sc;
            }
            t.addColumns(col);
        }
        return t;
    }

    private static void appendOrMissing(Column<?> col, String value, java.util.function.Consumer<String> append) {
        if (value == null || value.isEmpty()) {
            col.appendMissing();
        } else {
            append.accept(value);
        }
    }

    /**
     * Reads a latency log: merges each run's histograms into {@code byRun}, or adds a row per
     * interval to {@code intervalRows}; whichever is not {@code null}.
     */
    private static void readHlog(Path hlog, List<Map<String, String>> rows, Map<String, Histogram> byRun,
                                 List<Object[]> intervalRows) {
        Map<String, Map<String, String>> runById = new HashMap<>();
        rows.forEach(r -> runById.put(r.get("run_id"), r));
        Map<String, Double> firstStart = new HashMap<>();
        List<String> lines;
        try {
            String text = Files.readString(hlog, StandardCharsets.US_ASCII);
            // As in runs.csv, a last line without its line feed was cut off by a kill.
            lines = text.substring(0, text.lastIndexOf('\n') + 1).lines().toList();
        } catch (IOException e) {
            throw new DataException("cannot read " + hlog + ": " + e.getMessage(), e);
        }
        double[] ps = {50, 90, 99};
        // Decoding dominates: decode a batch of lines in parallel, then consume it in file order.
        // Batches keep memory bounded: a decoded interval histogram can take ~170 KiB.
        int batch = 256;
        for (int from = 0; from < lines.size(); from += batch) {
            List<HlogLines.Interval> parsed = java.util.stream.IntStream.range(from, Math.min(lines.size(), from + batch))
                    .parallel().mapToObj(i -> parseLine(hlog, lines.get(i), i)).toList();
            for (HlogLines.Interval iv : parsed) {
                consume(iv, runById, firstStart, byRun, intervalRows, ps);
            }
        }
    }

    private static HlogLines.Interval parseLine(Path hlog, String line, int index) {
        try {
            return HlogLines.parse(line);
        } catch (RuntimeException ex) {
            throw new DataException(hlog + ":" + (index + 1) + ": damaged interval line (" + ex.getMessage() + ")", ex);
        }
    }

    private static void consume(HlogLines.Interval iv, Map<String, Map<String, String>> runById,
                                Map<String, Double> firstStart, Map<String, Histogram> byRun,
                                List<Object[]> intervalRows, double[] ps) {
        if (iv == null || iv.tag().endsWith("-service")) {
            return;
        }
        Map<String, String> run = runById.get(iv.tag());
        if (run == null) {
            return; // histograms of a run without a row (cut off by a kill): not part of the data
        }
        Histogram h = iv.histogram();
        String runKey = run.get("experiment") + "\u0000" + iv.tag();
        if (byRun != null) {
            byRun.computeIfAbsent(runKey, k -> new Histogram(3)).add(h);
            return;
        }
        double start = firstStart.computeIfAbsent(runKey, k -> iv.startSeconds());
        boolean empty = h.getTotalCount() == 0;
        long[] q = empty ? null : Percentiles.of(h, ps);
        intervalRows.add(new Object[] {run.get("experiment"), Integer.parseInt(iv.tag()), run.get("subject"),
                run.getOrDefault("variant", ""), run.get("workload"),
                run.getOrDefault("round", "").isEmpty() ? null : Integer.valueOf(run.get("round")),
                Math.round((iv.startSeconds() - start) * 1000) / 1000.0, h.getTotalCount(),
                h.getTotalCount() / Math.max(1e-3, iv.lengthSeconds()),
                empty ? null : q[0], empty ? null : q[1], empty ? null : q[2], empty ? null : h.getMaxValue()});
    }

    private static Table intervalsTable(List<Object[]> rows) {
        StringColumn exp = StringColumn.create("experiment");
        IntColumn id = IntColumn.create("run_id");
        StringColumn s = StringColumn.create("subject");
        StringColumn v = StringColumn.create("variant");
        StringColumn w = StringColumn.create("workload");
        IntColumn round = IntColumn.create("round");
        DoubleColumn t = DoubleColumn.create("t_s");
        LongColumn n = LongColumn.create("requests");
        DoubleColumn rps = DoubleColumn.create("rps");
        LongColumn p50 = LongColumn.create("lat_p50_us");
        LongColumn p90 = LongColumn.create("lat_p90_us");
        LongColumn p99 = LongColumn.create("lat_p99_us");
        LongColumn max = LongColumn.create("lat_max_us");
        for (Object[] r : rows) {
            exp.append((String) r[0]);
            id.append((Integer) r[1]);
            s.append((String) r[2]);
            v.append((String) r[3]);
            w.append((String) r[4]);
            if (r[5] == null) {
                round.appendMissing();
            } else {
                round.append((Integer) r[5]);
            }
            t.append((Double) r[6]);
            n.append((Long) r[7]);
            rps.append((Double) r[8]);
            LongColumn[] lat = {p50, p90, p99, max};
            for (int i = 0; i < 4; i++) {
                if (r[9 + i] == null) {
                    lat[i].appendMissing();
                } else {
                    lat[i].append((Long) r[9 + i]);
                }
            }
        }
        return Table.create("intervals", exp, id, s, v, w, round, t, n, rps, p50, p90, p99, max);
    }
}
