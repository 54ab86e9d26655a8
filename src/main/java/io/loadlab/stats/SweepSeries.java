package io.loadlab.stats;

import io.loadlab.data.RunColumn;
import io.loadlab.data.Group;
import io.loadlab.data.RunHistograms;
import io.loadlab.data.RunRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;
import tech.tablesaw.api.Table;

/**
 * A latency sweep read for analysis: per subject, variant and workload (a series), its fixed-rate
 * points, each with its successful runs and their histograms. A share of capacity is one point
 * over the rounds even though its absolute rate follows each round's capacity. The capacity runs
 * themselves (closed loops) are not points. Rounds are blocks as in the comparison: experiment and
 * round.
 */
final class SweepSeries {

    /**
     * One successful run of a point.
     *
     * @param block    experiment and round
     * @param round    the round number
     * @param target   target rate, requests/s
     * @param rps      achieved rate, requests/s
     * @param missed   requests due but never sent in the window
     * @param capacity the capacity it was measured against, requests/s; NaN when not recorded
     * @param latency  corrected latency, µs
     * @param service  service time, µs (empty when not recorded)
     */
    record PointRun(String block, int round, double target, double rps, double missed, double capacity,
                    Histogram latency, Optional<Histogram> service) {
    }

    /**
     * One point of a series.
     *
     * @param label {@code 50%} for a share of capacity, {@code 1000/s} for an absolute rate
     * @param role  {@code fraction} or {@code rate}
     * @param runs  its runs, by round
     */
    record Point(String label, String role, List<PointRun> runs) {
        Point {
            runs = List.copyOf(runs);
        }

        double meanTarget() {
            return runs.stream().mapToDouble(PointRun::target).average().orElse(Double.NaN);
        }
    }

    /**
     * One subject, variant and workload: its points by ascending mean target rate, and every block
     * any of them ran in, in order.
     */
    record Series(Group group, List<Point> points, List<String> blocks) {
        Series {
            points = List.copyOf(points);
            blocks = List.copyOf(blocks);
        }
    }

    private SweepSeries() {
    }

    /**
     * The series of a runs table: its successful runs whose {@code sweep_role} is {@code fraction}
     * or {@code rate} and whose histograms are in {@code histograms}.
     *
     * @throws StatsException when the table lacks the sweep's columns
     */
    static List<Series> of(Table runs, RunHistograms histograms) {
        RunData data = RunData.of(runs);
        if (!runs.containsColumn(RunColumn.SWEEP_ROLE.id())) {
            throw new StatsException("the runs table has no sweep_role column: it holds no latency sweep"
                    + " (loadlab run --latency-sweep 25,50,75,90,100,110)");
        }
        Map<Group, Map<String, List<PointRun>>> byGroup = new TreeMap<>();
        Map<String, String> roles = new LinkedHashMap<>();
        for (int i = 0; i < runs.rowCount(); i++) {
            String role = data.text(RunColumn.SWEEP_ROLE.id(), i);
            Optional<RunHistograms.Run> h = data.isOk(i) && (role.equals(RunColumn.SweepRole.FRACTION.value()) || role.equals(RunColumn.SweepRole.RATE.value()))
                    ? histograms.of(data.experiment(i), (int) data.number(RunColumn.RUN_ID.id(), i).orElse(-1)) : Optional.empty();
            if (h.isEmpty() || data.number(RunColumn.TARGET_RPS.id(), i).isEmpty()) {
                continue;
            }
            String label = label(data, i, role);
            roles.put(label, role);
            Group g = new Group(data.text(RunColumn.SUBJECT.id(), i), RunRow.analysisVariant(data.text(RunColumn.VARIANT.id(), i),
                    data.text(RunColumn.ENGINE.id(), i)), data.text(RunColumn.WORKLOAD.id(), i));
            byGroup.computeIfAbsent(g, k -> new LinkedHashMap<>()).computeIfAbsent(label, k -> new ArrayList<>())
                    .add(new PointRun(data.experiment(i) + "\u0000" + data.round(i), data.round(i),
                            data.number(RunColumn.TARGET_RPS.id(), i).getAsDouble(), data.number(RunColumn.RPS.id(), i).orElse(Double.NaN),
                            data.number(RunColumn.MISSED.id(), i).orElse(0), data.number(RunColumn.CAPACITY_RPS.id(), i).orElse(Double.NaN),
                            h.get().latency(), h.get().service()));
        }
        List<Series> out = new ArrayList<>();
        byGroup.forEach((g, points) -> {
            List<Point> list = new ArrayList<>();
            TreeSet<String> blocks = new TreeSet<>();
            points.forEach((label, rs) -> {
                rs.sort(Comparator.comparingInt(PointRun::round).thenComparing(PointRun::block));
                rs.forEach(r -> blocks.add(r.block()));
                list.add(new Point(label, roles.get(label), rs));
            });
            list.sort(Comparator.comparingDouble(Point::meanTarget));
            out.add(new Series(g, list, new ArrayList<>(blocks)));
        });
        return out;
    }

    /** A point's label: the share of capacity for a fraction ({@code 50%}), the rate otherwise ({@code 1000/s}). */
    private static String label(RunData data, int row, String role) {
        if (role.equals(RunColumn.SweepRole.FRACTION.value()) && data.number(RunColumn.CAPACITY_FRACTION.id(), row).isPresent()) {
            return RunRow.num(data.number(RunColumn.CAPACITY_FRACTION.id(), row).getAsDouble() * 100) + "%";
        }
        return RunRow.num(data.number(RunColumn.TARGET_RPS.id(), row).getAsDouble()) + "/s";
    }
}
