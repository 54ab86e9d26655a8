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
    private final StringColumn experiment = StringColumn.create("experiment");
    private final IntColumn runId = IntColumn.create("run_id");
    private final StringColumn subject = StringColumn.create("subject");
    private final StringColumn variant = StringColumn.create("variant");
    private final StringColumn workload = StringColumn.create("workload");
    private final IntColumn round = IntColumn.create("round");
    private final DoubleColumn t = DoubleColumn.create("t_s");
    private final LongColumn requests = LongColumn.create("requests");
    private final DoubleColumn rps = DoubleColumn.create("rps");
    /** p50, p90, p99 and max (µs). */
    private final LongColumn[] latency = {LongColumn.create("lat_p50_us"), LongColumn.create("lat_p90_us"),
        LongColumn.create("lat_p99_us"), LongColumn.create("lat_max_us")};
    /** The start (s) of each run's first interval, by row. */
    private final Map<Integer, Double> firstStart = new HashMap<>();

    private IntervalsTable(Table runs) {
        runExperiment = runs.stringColumn("experiment");
        runIds = runs.intColumn("run_id");
        runSubject = runs.stringColumn("subject");
        runVariant = runs.stringColumn("variant");
        runWorkload = runs.stringColumn("workload");
        runRound = runs.intColumn("round");
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
