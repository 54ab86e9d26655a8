package io.loadlab.data;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.HdrHistogram.Histogram;
import tech.tablesaw.api.Table;

/**
 * The latency histograms of single runs, read from {@code latency.hlog}: each run's corrected
 * latency (from the due time at a fixed rate) and, for fixed-rate runs, its service time (from
 * the actual send), each the sum of the run's interval histograms, in µs. Analyses that resample
 * rounds (a latency sweep's curves) need them one run at a time, where {@link Results} keeps
 * them merged per group. Only the runs asked for are kept: a decoded histogram takes tens of KiB.
 * Immutable; accessors return copies.
 */
public final class RunHistograms {

    private static final String SERVICE = "-service";

    /**
     * One run's histograms.
     *
     * @param latency the run's latency (coordinated-omission corrected at a fixed rate), µs
     * @param service its service time, µs; empty for a closed loop
     */
    public record Run(Histogram latency, Optional<Histogram> service) {
        public Run {
            latency = latency.copy();
            service = service.map(Histogram::copy);
        }

        @Override
        public Histogram latency() {
            return latency.copy();
        }

        @Override
        public Optional<Histogram> service() {
            return service.map(Histogram::copy);
        }

        /** {@code Run[12,345 requests, service time recorded]}: the histograms' own text is huge. */
        @Override
        public String toString() {
            return "Run[" + String.format(java.util.Locale.ROOT, "%,d", latency.getTotalCount()) + " requests, "
                    + (service.isPresent() ? "service time recorded" : "no service time") + "]";
        }
    }

    private final Map<String, Run> runs;

    private RunHistograms(Map<String, Run> runs) {
        this.runs = Map.copyOf(runs);
    }

    /**
     * Reads the histograms of the runs listed in {@code wanted} (its {@code experiment} and
     * {@code run_id} columns) from the experiment folders that hold them.
     *
     * @param wanted a runs table, e.g. {@link Results#runs()} filtered to the runs of interest
     * @param dirs   the experiment folders, such as {@link Results#experiments()}; one without
     *               {@code latency.hlog} contributes nothing
     * @throws DataException for a folder without runs.csv, or a damaged log line (file and line named)
     */
    public static RunHistograms load(Table wanted, List<Path> dirs) {
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < wanted.rowCount(); i++) {
            keys.add(key(wanted.stringColumn(RunColumn.EXPERIMENT.id()).get(i), wanted.column(RunColumn.RUN_ID.id()).getString(i)));
        }
        Map<String, Histogram[]> sums = new HashMap<>();
        for (Path dir : dirs) {
            Optional<String> experiment = experimentOf(dir);
            Path hlog = dir.resolve(ExperimentStore.HLOG_FILE);
            if (experiment.isEmpty() || !Files.isRegularFile(hlog)) {
                continue;
            }
            read(hlog, experiment.get(), keys, sums);
        }
        Map<String, Run> out = new HashMap<>();
        sums.forEach((k, h) -> {
            if (h[0] != null) {
                out.put(k, new Run(h[0], Optional.ofNullable(h[1])));
            }
        });
        return new RunHistograms(out);
    }

    /** A run's histograms; empty when the run was not asked for or has none (a failed or external run). */
    public Optional<Run> of(String experiment, int runId) {
        return Optional.ofNullable(runs.get(key(experiment, Integer.toString(runId))));
    }

    /** How many runs have histograms here. */
    public int size() {
        return runs.size();
    }

    @Override
    public String toString() {
        return "RunHistograms[" + runs.size() + " runs]";
    }

    private static void read(Path hlog, String experiment, Set<String> keys, Map<String, Histogram[]> sums) {
        // The log is streamed and decoded as Results reads it (HlogReader): only the lines of runs
        // asked for are decoded. Each run and kind gets an id when its first line is picked, on the
        // reading thread; decoded lines then arrive from several threads, one histogram lock each.
        List<Histogram> slots = new ArrayList<>();
        Map<String, Integer> ids = new HashMap<>();
        HlogReader.read(hlog, new HlogReader.Visitor() {
            @Override
            public int pick(String tag, LineChunks.Chunk chunk, int line) {
                boolean service = tag.endsWith(SERVICE);
                String key = key(experiment, service ? tag.substring(0, tag.length() - SERVICE.length()) : tag);
                if (!keys.contains(key)) {
                    return -1;
                }
                return ids.computeIfAbsent(service ? key + SERVICE : key, k -> {
                    Histogram[] h = sums.computeIfAbsent(key, x -> new Histogram[2]);
                    int slot = service ? 1 : 0;
                    if (h[slot] == null) {
                        h[slot] = new Histogram(3);
                    }
                    slots.add(h[slot]);
                    return slots.size() - 1;
                });
            }

            @Override
            public void decoded(int k, int id, HlogLines.Interval interval) {
                Histogram h = slots.get(id);
                synchronized (h) {
                    interval.counts().addTo(h);
                }
            }
        });
    }

    /** The experiment a folder's runs.csv names in its first row; empty when it has no row. */
    private static Optional<String> experimentOf(Path dir) {
        Path csv = dir.resolve(ExperimentStore.RUNS_FILE);
        try (java.io.BufferedReader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            String header = r.readLine();
            String first = r.readLine();
            if (header == null || first == null || first.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(CsvLines.split(first).get(CsvLines.split(header).indexOf("experiment")));
        } catch (IOException | RuntimeException e) {
            throw new DataException(dir + " is not an experiment folder with rows (" + csv + ": " + e.getMessage() + ")", e);
        }
    }

    private static String key(String experiment, String runId) {
        return experiment + "\u0000" + runId;
    }
}
