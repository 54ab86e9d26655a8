package io.loadlab.data;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * The latency histograms (µs) of the successful runs merged per {@link Group} (subject, analysis variant
 * as {@link AnalysisGroups} labels it, workload), built only when asked for and kept.
 *
 * <p>The first request reads every log once: it decodes the lines of the groups asked for and
 * notes where every other group's lines are (file offset, length, line number: ~20 bytes a line).
 * A later request reads only its groups' lines, by position. So {@code latency()} called for one
 * group after another (as {@code loadlab compare} does) costs one pass over the logs, not one pass
 * per group. A group is there when its runs have at least one latency interval. The logs must stay
 * as they were loaded (the runner only appends, which is fine). Thread-safe.
 */
final class MergedLatency {

    private final List<HlogSource> sources;
    private final Table runs;
    /** By row: the group id of an ok run, -1 for other runs; null until first needed. */
    private int[] groupOfRow;
    private final List<Group> groups = new ArrayList<>();
    private final Map<Group, Integer> ids = new HashMap<>();
    /** By group id: the merged histogram, null until built. */
    private Histogram[] merged;
    /** By source: where each group's lines are; null before the first pass. */
    private Spans[][] index;

    MergedLatency(List<HlogSource> sources, Table runs) {
        this.sources = List.copyOf(sources);
        this.runs = runs;
    }

    /** The merged histogram of a group, or empty when it has none. */
    synchronized Optional<Histogram> get(Group group) {
        SortedMap<Group, Histogram> one = build(group::equals);
        return Optional.ofNullable(one.get(group));
    }

    /** The merged histograms of the groups that pass {@code which} and have intervals, in group order. */
    synchronized SortedMap<Group, Histogram> build(Predicate<Group> which) {
        labelRows();
        boolean[] wanted = new boolean[groups.size()];
        // Made before the decoding threads start, so that they only ever add to them. Kept only
        // once every line is read: after a damaged line the next call reads again.
        GroupCounts[] counts = new GroupCounts[groups.size()];
        for (int g = 0; g < wanted.length; g++) {
            wanted[g] = which.test(groups.get(g)) && merged[g] == null;
            counts[g] = wanted[g] ? new GroupCounts() : null;
        }
        if (index == null) {
            firstPass(wanted, counts);
        } else {
            readIndexed(wanted, counts);
        }
        for (int g = 0; g < wanted.length; g++) {
            merged[g] = wanted[g] ? counts[g].histogram() : merged[g];
        }
        SortedMap<Group, Histogram> out = new TreeMap<>();
        for (int g = 0; g < groups.size(); g++) {
            if (which.test(groups.get(g)) && hasLines(g)) {
                out.put(groups.get(g), merged[g]);
            }
        }
        return out;
    }

    /** The group of each successful run, as the statistics see it. */
    private void labelRows() {
        if (groupOfRow != null) {
            return;
        }
        AnalysisGroups labels = AnalysisGroups.of(runs);
        Column<?> subject = runs.column(RunColumn.SUBJECT.id());
        Column<?> workload = runs.column(RunColumn.WORKLOAD.id());
        Column<?> status = runs.column(RunColumn.STATUS.id());
        groupOfRow = new int[runs.rowCount()];
        for (int i = 0; i < groupOfRow.length; i++) {
            if (!RunColumn.Status.OK.value().equals(status.getString(i))) {
                groupOfRow[i] = -1;
                continue;
            }
            Group g = new Group(subject.getString(i), labels.variant(i), workload.getString(i));
            groupOfRow[i] = ids.computeIfAbsent(g, k -> {
                groups.add(k);
                return groups.size() - 1;
            });
        }
        merged = new Histogram[groups.size()];
    }

    /** Reads every log once: decodes the wanted groups' lines and notes where all groups' lines are. */
    private void firstPass(boolean[] wanted, GroupCounts[] counts) {
        Spans[][] spans = new Spans[sources.size()][];
        for (int s = 0; s < sources.size(); s++) {
            HlogSource source = sources.get(s);
            Spans[] bySource = new Spans[groups.size()];
            Arrays.setAll(bySource, g -> new Spans());
            spans[s] = bySource;
            source.hlog().ifPresent(hlog -> HlogReader.read(hlog, new HlogReader.Visitor() {
                @Override
                public int pick(String tag, LineChunks.Chunk chunk, int line) {
                    int row = source.row(tag);
                    int g = row < 0 ? -1 : groupOfRow[row];
                    if (g < 0) {
                        return -1;
                    }
                    bySource[g].add(chunk.offset() + chunk.start(line), chunk.end(line) - chunk.start(line),
                            chunk.lineNumber(line));
                    return wanted[g] ? g : -1;
                }

                @Override
                public void decoded(int k, int g, HlogLines.Interval interval) {
                    counts[g].add(interval.counts());
                }
            }));
        }
        index = spans;
    }

    /** Reads the wanted groups' lines by position. */
    private void readIndexed(boolean[] wanted, GroupCounts[] counts) {
        for (int s = 0; s < sources.size(); s++) {
            Optional<Path> hlog = sources.get(s).hlog();
            if (hlog.isEmpty()) {
                continue;
            }
            try (FileChannel file = FileChannel.open(hlog.get(), StandardOpenOption.READ)) {
                for (int g = 0; g < wanted.length; g++) {
                    if (wanted[g]) {
                        index[s][g].decode(hlog.get(), file, g, (k, id, interval) -> counts[id].add(interval.counts()));
                    }
                }
            } catch (IOException e) {
                throw new DataException("cannot read " + hlog.get() + ": " + e.getMessage(), e);
            }
        }
    }

    private boolean hasLines(int g) {
        return Arrays.stream(index).anyMatch(bySource -> bySource[g].size > 0);
    }

    /** Where one group's lines are in one log. */
    private static final class Spans {
        private long[] offsets = new long[16];
        private int[] lengths = new int[16];
        private long[] numbers = new long[16];
        private int size;

        void add(long offset, int length, long number) {
            if (size == offsets.length) {
                offsets = Arrays.copyOf(offsets, 2 * size);
                lengths = Arrays.copyOf(lengths, 2 * size);
                numbers = Arrays.copyOf(numbers, 2 * size);
            }
            offsets[size] = offset;
            lengths[size] = length;
            numbers[size++] = number;
        }

        /** Reads and decodes the lines a batch at a time. */
        void decode(Path hlog, FileChannel file, int g, HlogReader.Decoder decoder) {
            int from = 0;
            while (from < size) {
                int to = from;
                long bytes = 0;
                while (to < size && (to == from || bytes + lengths[to] <= HlogReader.BATCH_BYTES)) {
                    bytes += lengths[to++];
                }
                LineChunks.Chunk chunk = HlogReader.read(hlog, file, offsets, lengths, numbers, from, to);
                int[] lines = new int[chunk.count()];
                Arrays.setAll(lines, i -> i);
                int[] ids = new int[chunk.count()];
                Arrays.fill(ids, g);
                HlogReader.decode(hlog, chunk, lines, ids, chunk.count(), decoder);
                from = to;
            }
        }
    }
}
