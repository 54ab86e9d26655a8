package io.loadlab.data;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * The per-second table of {@link Results#intervals()}: one row per run (whatever its status)
 * and latency interval, in the order of the logs. Each interval's percentiles are computed on
 * the decoding threads, so only a few numbers per line outlive its histogram.
 */
final class IntervalsTable {

    private static final double[] PERCENTILES = {50, 90, 99};
    private static final ThreadLocal<Histogram> LAYOUT = new ThreadLocal<>();

    /** The runs' columns an interval row repeats, looked up once (Tablesaw compares every name). */
    private final StringColumn runExperiment;
    private final IntColumn runIds;
    private final StringColumn runSubject;
    private final StringColumn runVariant;
    private final StringColumn runWorkload;
    private final IntColumn runRound;
    private final StringColumn experiment = StringColumn.create(RunColumn.EXPERIMENT.id());
    private final IntColumn runId = IntColumn.create(RunColumn.RUN_ID.id());
    private final StringColumn subject = StringColumn.create(RunColumn.SUBJECT.id());
    private final StringColumn variant = StringColumn.create(RunColumn.VARIANT.id());
    private final StringColumn workload = StringColumn.create(RunColumn.WORKLOAD.id());
    private final IntColumn round = IntColumn.create(RunColumn.ROUND.id());
    private final DoubleColumn t = DoubleColumn.create(Results.INTERVAL_T_S);
    private final LongColumn requests = LongColumn.create(RunColumn.REQUESTS.id());
    private final DoubleColumn rps = DoubleColumn.create(RunColumn.RPS.id());
    /** p50, p90, p99 and max (µs). */
    private final LongColumn[] latency = {LongColumn.create(RunColumn.LAT_P50_US.id()),
        LongColumn.create(RunColumn.LAT_P90_US.id()), LongColumn.create(RunColumn.LAT_P99_US.id()),
        LongColumn.create(RunColumn.LAT_MAX_US.id())};
    /** The start (s) of each run's first interval, by row. */
    private final Map<Integer, Double> firstStart = new HashMap<>();

    private IntervalsTable(Table runs) {
        runExperiment = runs.stringColumn(RunColumn.EXPERIMENT.id());
        runIds = runs.intColumn(RunColumn.RUN_ID.id());
        runSubject = runs.stringColumn(RunColumn.SUBJECT.id());
        runVariant = runs.stringColumn(RunColumn.VARIANT.id());
        runWorkload = runs.stringColumn(RunColumn.WORKLOAD.id());
        runRound = runs.intColumn(RunColumn.ROUND.id());
    }

    /**
     * Reads the logs.
     *
     * @throws DataException for a damaged line, naming the file and line
     */
    static Table build(List<HlogSource> sources, Table runs) {
        IntervalsTable table = new IntervalsTable(runs);
        for (HlogSource source : sources) {
            source.hlog().ifPresent(hlog -> HlogReader.read(hlog, table.new Chunk(source)));
        }
        return table.table();
    }

    private Table table() {
        Table out = Table.create("intervals", experiment, runId, subject, variant, workload, round, t, requests, rps);
        return out.addColumns(latency);
    }

    /** This thread's histogram of the interval's layout (digits and lowest value), never filled. */
    private static Histogram layout(BucketCounts like) {
        Histogram h = LAYOUT.get();
        if (h == null || h.getNumberOfSignificantValueDigits() != like.digits()
                || h.getLowestDiscernibleValue() != like.lowest()) {
            h = new Histogram(like.lowest(), 2 * like.lowest(), like.digits());
            LAYOUT.set(h);
        }
        return h;
    }

    /** Appends one interval of the run in {@code row}; {@code quantiles} is null for an empty interval. */
    private void append(int row, double start, double length, long count, long[] quantiles) {
        experiment.append(runExperiment.get(row));
        runId.append(runIds.getInt(row));
        subject.append(runSubject.get(row));
        variant.append(runVariant.get(row));
        workload.append(runWorkload.get(row));
        appendOrMissing(round, runRound, row);
        double first = firstStart.computeIfAbsent(row, r -> start);
        t.append(Math.round((start - first) * 1000) / 1000.0);
        requests.append(count);
        rps.append(count / Math.max(1e-3, length));
        for (int i = 0; i < latency.length; i++) {
            if (quantiles == null) {
                latency[i].appendMissing();
            } else {
                latency[i].append(quantiles[i]);
            }
        }
    }

    private static void appendOrMissing(IntColumn to, IntColumn from, int row) {
        if (from.isMissing(row)) {
            to.appendMissing();
        } else {
            to.append(from.getInt(row));
        }
    }

    /** One chunk's picked lines: what each decoded to, appended in file order when the chunk is done. */
    private final class Chunk implements HlogReader.Visitor {
        private final HlogSource source;
        private int[] rows = new int[256];
        private double[] starts = new double[256];
        private double[] lengths = new double[256];
        private long[] counts = new long[256];
        private long[][] quantiles = new long[256][];

        Chunk(HlogSource source) {
            this.source = source;
        }

        @Override
        public int pick(String tag, LineChunks.Chunk chunk, int line) {
            int row = source.row(tag);
            if (row >= 0 && chunk.count() > rows.length) {
                int n = Math.max(chunk.count(), 2 * rows.length);
                rows = Arrays.copyOf(rows, n);
                starts = Arrays.copyOf(starts, n);
                lengths = Arrays.copyOf(lengths, n);
                counts = Arrays.copyOf(counts, n);
                quantiles = Arrays.copyOf(quantiles, n);
            }
            return row;
        }

        @Override
        public void decoded(int k, int row, HlogLines.Interval interval) {
            BucketCounts buckets = interval.counts();
            rows[k] = row;
            starts[k] = interval.startSeconds();
            lengths[k] = interval.lengthSeconds();
            counts[k] = buckets.total();
            quantiles[k] = buckets.total() == 0 ? null : Percentiles.of(buckets, layout(buckets), PERCENTILES);
        }

        @Override
        public void chunkDone(int picked) {
            for (int k = 0; k < picked; k++) {
                append(rows[k], starts[k], lengths[k], counts[k], quantiles[k]);
            }
        }
    }
}
