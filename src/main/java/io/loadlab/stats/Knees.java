package io.loadlab.stats;

import io.loadlab.data.RunColumn;
import io.loadlab.data.RunHistograms;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Finds the knee of each latency–throughput curve of a sweep for a p99 objective ({@link Knee}).
 * The rule, on the points in ascending order of target rate: the first point whose p99 (of the
 * merged histograms) reaches the objective ends the range where it "stays under"; the knee lies
 * between it and the point before, interpolated on log(p99) against achieved throughput. Achieved,
 * not target: past the capacity the target is not reached, and the knee cannot lie above what the
 * server delivered. Stateless and thread-safe.
 */
public final class Knees {

    private Knees() {
    }

    /**
     * The knees of every curve, in the order of {@link LatencyCurves#curves}.
     *
     * @param sloUs the objective: p99 in µs, greater than 0
     * @param seed  the bootstrap's seed
     * @throws StatsException for an objective that is not positive, or a table without a sweep
     */
    public static List<Knee> find(Table runs, RunHistograms histograms, double sloUs, long seed) {
        if (!(sloUs > 0) || Double.isInfinite(sloUs)) {
            throw new StatsException("knee: the p99 objective must be a positive number of µs, got " + sloUs);
        }
        List<Knee> out = new ArrayList<>();
        int p99 = PointStats.LATENCY + PointStats.NAMES.indexOf("p99");
        for (SweepSeries.Series s : SweepSeries.of(runs, histograms)) {
            double[] all = knee(s, RoundBootstrap.ones(s.blocks().size()), p99, sloUs);
            double[][] ci = RoundBootstrap.intervals(s.blocks().size(), c -> new double[] {knee(s, c, p99, sloUs)[0]},
                    seed);
            Knee.Bound bound = all[1] > 0 ? Knee.Bound.ABOVE : all[1] < 0 ? Knee.Bound.BELOW : Knee.Bound.WITHIN;
            out.add(new Knee(s.group().subject(), s.group().variant(), s.group().workload(), sloUs, all[0], ci[0][0],
                    ci[0][1], s.blocks().size(), bound));
        }
        return out;
    }

    /**
     * The table form: subject, variant, workload, slo_us, knee_rps, knee_ci_low_rps,
     * knee_ci_high_rps, bound ({@code above}, {@code below} or ""), rounds, knee (as people read
     * it: {@code > 20,000 rps} for a knee beyond the sweep).
     */
    public static Table toTable(List<Knee> knees) {
        StringColumn subject = StringColumn.create(RunColumn.SUBJECT.id());
        StringColumn variant = StringColumn.create(RunColumn.VARIANT.id());
        StringColumn workload = StringColumn.create(RunColumn.WORKLOAD.id());
        DoubleColumn slo = DoubleColumn.create(StatsColumn.SLO_US.id());
        DoubleColumn rps = DoubleColumn.create(StatsColumn.KNEE_RPS.id());
        DoubleColumn low = DoubleColumn.create(StatsColumn.KNEE_CI_LOW_RPS.id());
        DoubleColumn high = DoubleColumn.create(StatsColumn.KNEE_CI_HIGH_RPS.id());
        StringColumn bound = StringColumn.create(StatsColumn.BOUND.id());
        IntColumn rounds = IntColumn.create(StatsColumn.ROUNDS.id());
        StringColumn shown = StringColumn.create(StatsColumn.KNEE.id());
        for (Knee k : knees) {
            subject.append(k.subject());
            variant.append(k.variant());
            workload.append(k.workload());
            slo.append(k.sloUs());
            rps.append(k.rps());
            low.append(k.ciLow());
            high.append(k.ciHigh());
            bound.append(k.bound().label());
            rounds.append(k.rounds());
            shown.append(k.shown());
        }
        return Table.create("knees", subject, variant, workload, slo, rps, low, high, bound, rounds, shown);
    }

    /**
     * The knee of a series over a draw of rounds: {value, bound}, bound 0 between points, 1 above
     * the highest (value: its throughput), -1 below the lowest (value: its throughput); NaN when the
     * draw holds no point.
     */
    private static double[] knee(SweepSeries.Series s, int[] counts, int p99, double slo) {
        List<double[]> points = new ArrayList<>();
        for (SweepSeries.Point p : s.points()) {
            double[] st = PointStats.of(p, counts, s.blocks());
            if (!Double.isNaN(st[p99]) && !Double.isNaN(st[PointStats.RPS])) {
                points.add(new double[] {st[PointStats.RPS], st[p99]});
            }
        }
        return at(points, slo);
    }

    /**
     * The knee of points {achieved rps, p99 µs} in ascending order of target rate: {value, bound}
     * as {@link #knee}. Package-private for its tests.
     */
    static double[] at(List<double[]> points, double slo) {
        if (points.isEmpty()) {
            return new double[] {Double.NaN, 0};
        }
        for (int i = 0; i < points.size(); i++) {
            if (points.get(i)[1] >= slo) {
                if (i == 0) {
                    return new double[] {points.get(0)[0], -1};
                }
                double[] under = points.get(i - 1);
                double[] over = points.get(i);
                double t = (Math.log(slo) - Math.log(under[1])) / (Math.log(over[1]) - Math.log(under[1]));
                // A server whose throughput fell when overloaded delivered less at the first point
                // over: the knee is then the last point under, not an extrapolation back from it.
                return new double[] {Math.max(under[0], under[0] + t * (over[0] - under[0])), 0};
            }
        }
        return new double[] {points.stream().mapToDouble(p -> p[0]).max().orElseThrow(), 1};
    }
}
