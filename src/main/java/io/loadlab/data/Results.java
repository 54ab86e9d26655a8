package io.loadlab.data;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * One or more experiments loaded for analysis: the runs as a Tablesaw table (typed columns named
 * as in {@code runs.csv}; unmeasured values missing), the per-second intervals from
 * {@code latency.hlog}, and latency histograms merged over the successful runs of each subject,
 * variant and workload. Percentiles across rounds come from those merged histograms, never
 * from averaged percentiles.
 *
 * <p>Loading reads the runs; the logs are read when their figures are first asked for (the
 * merged histograms per group, the intervals table), streamed a chunk at a time, and what was
 * built is kept. So the folders must stay in place while a {@code Results} is in use. Thread-safe;
 * accessors return copies.
 */
public final class Results {

    private static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};
    private static final String[] PERCENTILE_COLUMNS = {"p50_us", "p90_us", "p99_us", "p999_us", "p9999_us"};

    private final List<Path> experiments;
    private final Table runs;
    private final List<HlogSource> logs;
    private final MergedLatency merged;
    private Table intervals;
    private GroupNames names;

    private Results(List<Path> experiments, Table runs, List<HlogSource> logs) {
        this.experiments = List.copyOf(experiments);
        this.runs = runs;
        this.logs = List.copyOf(logs);
        this.merged = new MergedLatency(logs, runs);
    }

    /**
     * Loads experiment folders (each with {@code runs.csv}; {@code latency.hlog} optional).
     *
     * @throws DataException for a folder that is not an experiment, a folder given twice, two
     *                       folders of one experiment name, or a damaged row, naming the file and line
     */
    public static Results load(Path... dirs) {
        if (dirs.length == 0) {
            throw new DataException("give at least one experiment folder, such as data/sample");
        }
        RunsCsv csv = new RunsCsv();
        List<RunsCsv.Rows> rows = new ArrayList<>();
        for (Path dir : dirs) {
            rows.add(csv.read(dir));
        }
        Table runs = csv.table();
        List<HlogSource> logs = new ArrayList<>();
        for (int i = 0; i < dirs.length; i++) {
            logs.add(HlogSource.of(dirs[i], runs, rows.get(i).from(), rows.get(i).to()));
        }
        return new Results(List.of(dirs), runs, logs);
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
        return runs.where(runs.stringColumn(RunColumn.STATUS.id()).isEqualTo(RunColumn.Status.OK.value()));
    }

    /**
     * The column of {@link #intervals()} that holds the start of each second within the run's
     * window, in seconds; its other columns are named after the runs.csv columns they come from.
     */
    public static final String INTERVAL_T_S = "t_s";

    /**
     * One row per run and second: experiment, run_id, subject, variant, workload, round, t_s
     * (start of the second within the window, s), requests, rps, lat_p50_us, lat_p90_us,
     * lat_p99_us, lat_max_us. Built on first use: its per-second percentiles cost more than the
     * whole load.
     *
     * @throws DataException for a damaged line of a {@code latency.hlog}, naming the file and line
     */
    public synchronized Table intervals() {
        if (intervals == null) {
            intervals = IntervalsTable.build(logs, runs);
        }
        return intervals.copy();
    }

    /**
     * The latency histogram (µs) of all successful runs of a subject, variant and workload; empty when
     * they recorded none (imported runs). The variant is the analysis variant label ({@link AnalysisGroups}), as the statistics'
     * tables show it: e.g. {@code durability=memory,connections=16} for a group split by connection count.
     *
     * @throws DataException for a damaged line of a {@code latency.hlog}, naming the file and line, or
     *                       when subject, variant or workload names nothing in the runs (the message
     *                       lists the names there are)
     */
    public Histogram latency(String subject, String variant, String workload) {
        Group group = names().check(subject, variant == null ? "" : variant, workload);
        return merged.get(group).map(Histogram::copy).orElseGet(() -> new Histogram(3));
    }

    /**
     * The latency of a subject on a workload, merged over its successful runs, when the subject has one
     * variant there: {@code results.latency("java-netty", "json").p(99.9)}.
     *
     * @throws DataException for a subject or workload that matches nothing, listing the names there are;
     *                       for a subject with several variants on the workload, naming them; or for a
     *                       damaged line of a {@code latency.hlog}
     */
    public GroupLatency latency(String subject, String workload) {
        Group group = names().only(subject, workload);
        return new GroupLatency(group, merged.get(group).orElseGet(() -> new Histogram(3)));
    }

    private synchronized GroupNames names() {
        if (names == null) {
            names = new GroupNames(runs);
        }
        return names;
    }

    /**
     * The merged histograms of one workload by series label: {@link Group#subjectLabel()}, such as
     * {@code nginx [tuned]}. Ready for {@code Charts.latencySpectrum}.
     *
     * @throws DataException for a damaged line of a {@code latency.hlog}, naming the file and line
     */
    public Map<String, Histogram> latencyByLabel(String workload) {
        Map<String, Histogram> out = new LinkedHashMap<>();
        merged.build(g -> g.workload().equals(workload)).forEach((g, h) ->
                out.put(g.subjectLabel(), h.copy()));
        return out;
    }

    /**
     * Latency percentiles (µs) per subject, variant and workload from the merged histograms:
     * subject, variant, workload, requests, p50_us, p90_us, p99_us, p999_us, p9999_us, max_us.
     *
     * @throws DataException for a damaged line of a {@code latency.hlog}, naming the file and line
     */
    public Table latencyPercentiles() {
        StringColumn s = StringColumn.create(RunColumn.SUBJECT.id());
        StringColumn v = StringColumn.create(RunColumn.VARIANT.id());
        StringColumn w = StringColumn.create(RunColumn.WORKLOAD.id());
        LongColumn n = LongColumn.create(RunColumn.REQUESTS.id());
        LongColumn[] pc = new LongColumn[PERCENTILES.length];
        for (int i = 0; i < pc.length; i++) {
            pc[i] = LongColumn.create(PERCENTILE_COLUMNS[i]);
        }
        LongColumn max = LongColumn.create("max_us");
        SortedMap<Group, Histogram> all = merged.build(g -> true);
        all.forEach((g, h) -> {
            s.append(g.subject());
            v.append(g.variant());
            w.append(g.workload());
            n.append(h.getTotalCount());
            for (int i = 0; i < pc.length; i++) {
                pc[i].append(h.getValueAtPercentile(PERCENTILES[i]));
            }
            max.append(h.getMaxValue());
        });
        Table t = Table.create("latency percentiles (merged over rounds)", s, v, w, n);
        return t.addColumns(pc).addColumns(max);
    }

    /** What is loaded, in one line: {@code Results[data/sample: 45 runs, 3 subjects × 3 workloads]}. */
    @Override
    public String toString() {
        String folders = experiments.size() <= 3
                ? experiments.stream().map(Path::toString).collect(Collectors.joining(", "))
                : experiments.size() + " folders (" + experiments.get(0) + ", …)";
        int failed = runs.rowCount() - runs.stringColumn(RunColumn.STATUS.id()).isEqualTo(RunColumn.Status.OK.value()).size();
        return String.format(Locale.ROOT, "Results[%s: %,d runs%s, %s × %s]", folders, runs.rowCount(),
                failed == 0 ? "" : String.format(Locale.ROOT, " (%,d failed)", failed),
                count(runs.stringColumn(RunColumn.SUBJECT.id()).countUnique(), "subject"),
                count(runs.stringColumn(RunColumn.WORKLOAD.id()).countUnique(), "workload"));
    }

    private static String count(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
