package io.loadlab.stats;

import io.loadlab.data.RunColumn;
import io.loadlab.data.RunHistograms;
import io.loadlab.format.Figure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Latency–throughput curves of a latency sweep ({@code loadlab run --latency-sweep}): for each
 * subject, variant and workload, one row per fixed-rate point with the achieved throughput and
 * the p50, p99 and p99.9 of the corrected latency (from each request's due time) and of the
 * service time (from its actual send), each from the merged histograms of the point's runs over
 * the rounds, with a 95% interval from a bootstrap over rounds ({@link RoundBootstrap}).
 *
 * <p>Below capacity the two agree and sit near the server's own service time; where they part,
 * requests start to wait for a free connection: queueing has started, and past the capacity the
 * corrected latency grows with the window's length. Stateless and thread-safe.
 */
public final class LatencyCurves {

    private LatencyCurves() {
    }

    /**
     * The curves as a table, rows by subject, variant, workload, then ascending target rate.
     * Columns: subject, variant, workload, point ({@code 50%} or {@code 1000/s}), role
     * ({@code fraction} or {@code rate}), n (runs), target_rps, rps (mean achieved), rps_ci_low,
     * rps_ci_high, capacity_rps (mean capacity measured against, NaN when not recorded),
     * capacity_fraction (mean target / capacity), missed (mean per run), then for each of
     * lat_p50, lat_p99, lat_p999, svc_p50, svc_p99, svc_p999: {@code X_us}, {@code X_ci_low_us},
     * {@code X_ci_high_us}, in µs. Intervals are NaN with fewer than 2 rounds.
     *
     * @param runs       a runs table holding a sweep (other rows are ignored)
     * @param histograms the runs' histograms ({@link RunHistograms#load})
     * @param seed       the bootstrap's seed ({@link CompareOptions#seed()})
     * @throws StatsException when the table holds no sweep columns
     */
    public static Table curves(Table runs, RunHistograms histograms, long seed) {
        Map<String, StringColumn> text = new LinkedHashMap<>();
        for (String c : List.of(RunColumn.SUBJECT.id(), RunColumn.VARIANT.id(), RunColumn.WORKLOAD.id(),
                StatsColumn.POINT.id(), StatsColumn.ROLE.id())) {
            text.put(c, StringColumn.create(c));
        }
        IntColumn n = IntColumn.create(StatsColumn.N.id());
        Map<String, DoubleColumn> num = new LinkedHashMap<>();
        for (String c : columns()) {
            num.put(c, DoubleColumn.create(c));
        }
        for (SweepSeries.Series s : SweepSeries.of(runs, histograms)) {
            double[][] ci = intervals(s, seed);
            for (int i = 0; i < s.points().size(); i++) {
                SweepSeries.Point p = s.points().get(i);
                double[] all = PointStats.of(p, RoundBootstrap.ones(s.blocks().size()), s.blocks());
                List<String> values = List.of(s.group().subject(), s.group().variant(), s.group().workload(), p.label(),
                        p.role());
                int k = 0;
                for (StringColumn c : text.values()) {
                    c.append(values.get(k++));
                }
                n.append((int) all[PointStats.RUNS]);
                append(num, p, all, ci, i);
            }
        }
        Table t = Table.create("latency curves", text.values().toArray(StringColumn[]::new));
        t.addColumns(n);
        num.values().forEach(t::addColumns);
        // Its name does not say it is a share: show it as a percentage.
        t.doubleColumn(RunColumn.CAPACITY_FRACTION.id()).setPrintFormatter(Figure.PERCENT.formatter());
        return t;
    }

    /** The numeric columns of {@link #curves}, in order. */
    private static List<String> columns() {
        List<String> out = new ArrayList<>(List.of(RunColumn.TARGET_RPS.id(), RunColumn.RPS.id(),
                StatsColumn.RPS_CI_LOW.id(), StatsColumn.RPS_CI_HIGH.id(), RunColumn.CAPACITY_RPS.id(),
                RunColumn.CAPACITY_FRACTION.id(), RunColumn.MISSED.id()));
        for (String kind : List.of("lat", "svc")) {
            for (String p : PointStats.NAMES) {
                // The merged percentile keeps the name of the runs' own (lat_p99_us), as the summary's metric does.
                RunColumn c = RunColumn.of(kind + "_" + p + "_us").orElseThrow();
                out.addAll(List.of(c.id(), StatsColumn.ciLow(c), StatsColumn.ciHigh(c)));
            }
        }
        return out;
    }

    private static void append(Map<String, DoubleColumn> num, SweepSeries.Point p, double[] all, double[][] ci, int i) {
        double capacity = p.runs().stream().mapToDouble(SweepSeries.PointRun::capacity).filter(c -> !Double.isNaN(c))
                .average().orElse(Double.NaN);
        int base = i * FIGURES.length;
        List<Double> v = new ArrayList<>(List.of(all[PointStats.TARGET], all[PointStats.RPS], ci[base][0], ci[base][1],
                capacity, all[PointStats.TARGET] / capacity, all[PointStats.MISSED]));
        for (int k = 1; k < FIGURES.length; k++) {
            v.addAll(List.of(all[FIGURES[k]], ci[base + k][0], ci[base + k][1]));
        }
        int k = 0;
        for (DoubleColumn c : num.values()) {
            c.append(v.get(k++));
        }
    }

    /** The figures of each point whose intervals the curves show: rps, then the latency and service percentiles. */
    private static final int[] FIGURES = figures();

    private static int[] figures() {
        int[] f = new int[1 + 2 * PointStats.PERCENTILES.length];
        f[0] = PointStats.RPS;
        for (int k = 0; k < PointStats.PERCENTILES.length; k++) {
            f[1 + k] = PointStats.LATENCY + k;
            f[1 + PointStats.PERCENTILES.length + k] = PointStats.SERVICE + k;
        }
        return f;
    }

    /** The intervals of every point's {@link #FIGURES}, from one bootstrap of the series' rounds. */
    private static double[][] intervals(SweepSeries.Series s, long seed) {
        return RoundBootstrap.intervals(s.blocks().size(), counts -> {
            double[] out = new double[s.points().size() * FIGURES.length];
            for (int i = 0; i < s.points().size(); i++) {
                double[] all = PointStats.of(s.points().get(i), counts, s.blocks());
                for (int k = 0; k < FIGURES.length; k++) {
                    out[i * FIGURES.length + k] = all[FIGURES[k]];
                }
            }
            return out;
        }, seed);
    }
}
