package io.loadlab.stats;

import io.loadlab.data.AnalysisGroups;
import io.loadlab.data.RunColumn;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.IntStream;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Which runs of a runs table belong to a latency sweep ({@code loadlab run --latency-sweep / --rates}),
 * and the p99 objective its knees are found at when none is given: the rules that
 * {@code loadlab compare}, the report and the notebooks share. A sweep's fixed-rate windows are
 * compared at equal load ({@link LatencyCurves}, {@link Knees}, {@link EqualRates}); the tables of
 * throughput compare the rest, its closed-loop runs ({@link #closedLoop}).
 */
public final class SweepRuns {

    /** The p99 objective in milliseconds when neither the command nor the experiment gives one. */
    public static final long DEFAULT_SLO_MS = 10;

    /** The p99 objective when neither the command nor the experiment gives one: {@value #DEFAULT_SLO_MS} ms. */
    public static final Duration DEFAULT_SLO = Duration.ofMillis(DEFAULT_SLO_MS);

    private static final String ROLE = RunColumn.SWEEP_ROLE.id();

    private SweepRuns() {
    }

    /** Whether the runs hold a sweep's fixed-rate windows (shares of capacity or absolute rates). */
    public static boolean present(Table runs) {
        return runs.containsColumn(ROLE) && runs.stringColumn(ROLE).isIn(RunColumn.SweepRole.windows()).size() > 0;
    }

    /** Whether the runs hold a sweep's absolute-rate windows ({@code --rates}): what {@link EqualRates} compares. */
    public static boolean hasRates(Table runs) {
        return runs.containsColumn(ROLE) && runs.stringColumn(ROLE).isEqualTo(RunColumn.SweepRole.RATE.value()).size() > 0;
    }

    /** A sweep's fixed-rate windows: the runs whose histograms the latency curves are built from. */
    public static Table windows(Table runs) {
        if (!runs.containsColumn(ROLE)) {
            return runs.emptyCopy();
        }
        return runs.where(runs.stringColumn(ROLE).isIn(RunColumn.SweepRole.windows()));
    }

    /**
     * The runs that the throughput tables compare: all but a sweep's fixed-rate windows, so its
     * closed-loop capacity runs and any runs outside a sweep (all of them when there is no sweep). In
     * a throughput table each window would be a variant of its subject ({@code rate=50%}), and a share
     * of one subject's capacity has no counterpart in another subject to hold it against.
     */
    public static ClosedLoop closedLoop(Table runs) {
        if (!runs.containsColumn(ROLE)) {
            return new ClosedLoop(runs, Map.of());
        }
        StringColumn role = runs.stringColumn(ROLE);
        int[] kept = IntStream.range(0, runs.rowCount())
                .filter(i -> !role.get(i).equals(RunColumn.SweepRole.FRACTION.value())
                        && !role.get(i).equals(RunColumn.SweepRole.RATE.value())).toArray();
        Table closed = kept.length == 0 ? runs.emptyCopy() : runs.rows(kept); // rows() of nothing throws
        AnalysisGroups whole = AnalysisGroups.of(runs);
        AnalysisGroups part = AnalysisGroups.of(closed);
        Map<String, String> full = new HashMap<>();
        for (int k = 0; k < kept.length; k++) {
            full.put(ClosedLoop.key(closed.stringColumn(RunColumn.SUBJECT.id()).get(k), part.variant(k),
                    closed.stringColumn(RunColumn.WORKLOAD.id()).get(k)), whole.variant(kept[k]));
        }
        return new ClosedLoop(closed, Map.copyOf(full));
    }

    /**
     * The closed-loop runs of a table, and the analysis variant each of their groups has among all
     * the runs. Among all of them a sweep's capacity runs are split from its windows by rate and carry
     * {@code rate=none}; among these alone they are not. The merged histograms of
     * {@code Results.latency} are labelled among all the runs, so a group of these runs is looked up
     * there by {@link #variantAmongAll}.
     *
     * @param runs        the closed-loop runs
     * @param fullVariant by subject|variant|workload of these runs alone, the variant among all
     */
    public record ClosedLoop(Table runs, Map<String, String> fullVariant) {

        public ClosedLoop {
            fullVariant = Map.copyOf(fullVariant);
        }

        /** The variant to look a group of these runs up by in the experiment's merged histograms. */
        public String variantAmongAll(String subject, String variant, String workload) {
            return fullVariant.getOrDefault(key(subject, variant, workload), variant);
        }

        private static String key(String subject, String variant, String workload) {
            return subject + "|" + variant + "|" + workload;
        }

        /** One line: {@code ClosedLoop[12 runs]}, not the table. */
        @Override
        public String toString() {
            return "ClosedLoop[" + runs.rowCount() + " runs]";
        }
    }
}
