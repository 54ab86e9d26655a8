package io.loadlab.cli;

import io.loadlab.data.ExperimentJson;
import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import io.loadlab.data.RunHistograms;
import io.loadlab.format.Figure;
import io.loadlab.format.TextTable;
import io.loadlab.format.Units;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.EqualRates;
import io.loadlab.stats.Knee;
import io.loadlab.stats.Knees;
import io.loadlab.stats.LatencyCurves;
import io.loadlab.stats.StatsColumn;
import io.loadlab.stats.SweepRuns;
import io.loadlab.time.Durations;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tech.tablesaw.api.Table;

/**
 * The latency section of {@code loadlab compare} for experiments with a latency sweep
 * ({@code loadlab run --latency-sweep / --rates}): the latency–throughput curves, the knee at a p99
 * objective, and the p99 compared at equal absolute rates.
 */
final class SweepSection {

    private SweepSection() {
    }

    /**
     * The objective: {@code --slo} when given, else the one the first experiment's sweep was run
     * with ({@code loadlab run --slo}), else {@link SweepRuns#DEFAULT_SLO}.
     */
    static Duration slo(String option, List<Path> dirs) {
        if (option != null) {
            return Durations.parse(option);
        }
        for (Path dir : dirs) {
            try {
                Optional<String> slo = ExperimentJson.read(dir).spec().slo();
                if (slo.isPresent()) {
                    return Durations.parse(slo.get());
                }
            } catch (RuntimeException e) {
                // No readable spec (an imported folder): the default objective serves.
            }
        }
        return SweepRuns.DEFAULT_SLO;
    }

    /** The tables {@code compare --format csv --table NAME} writes, besides {@code main}. */
    static final List<String> TABLES = List.of("curves", "knees", "rates");

    private static RunHistograms histograms(Results results) {
        return RunHistograms.load(SweepRuns.windows(results.runs()), results.experiments());
    }

    /** Prints the three tables and what they mean. */
    static void print(PrintWriter out, Results results, String baseline, Duration slo, CompareOptions options) {
        Table runs = results.runs();
        RunHistograms histograms = histograms(results);
        curves(out, LatencyCurves.curves(runs, histograms, options.seed()));
        knees(out, Knees.find(runs, histograms, slo.toNanos() / 1000.0, options.seed()), slo);
        if (SweepRuns.hasRates(runs)) {
            rates(out, EqualRates.compare(runs, histograms, baseline, options));
        }
        out.printf(Locale.ROOT, "%nLatency is corrected for coordinated omission (from each request's due time);"
                + " svc is the service time (from its actual send). Where they part, requests wait: queueing has"
                + " started. Intervals: 95%%, a bootstrap over rounds of the merged histograms.%n");
    }

    /**
     * One of the section's tables as CSV at full precision (a value not measured, such as an
     * interval with one round, is empty): {@code curves} ({@link LatencyCurves#curves}), {@code knees}
     * ({@link Knees#toTable}) or {@code rates} ({@link EqualRates#compare}); one header line, then a
     * row per line, so that {@code pandas.read_csv} or Tablesaw reads it as it is.
     *
     * @param table one of {@link #TABLES}; {@code rates} only when {@link SweepRuns#hasRates}
     */
    static void csv(PrintWriter out, Results results, String table, String baseline, Duration slo,
                    CompareOptions options) {
        Table runs = results.runs();
        RunHistograms histograms = histograms(results);
        Table t = switch (table) {
            case "curves" -> LatencyCurves.curves(runs, histograms, options.seed());
            case "knees" -> Knees.toTable(Knees.find(runs, histograms, slo.toNanos() / 1000.0, options.seed()));
            case "rates" -> EqualRates.compare(runs, histograms, baseline, options);
            default -> throw new IllegalArgumentException("no sweep table '" + table + "'");
        };
        out.print(t.write().toString("csv"));
    }

    private static void curves(PrintWriter out, Table c) {
        out.printf(Locale.ROOT, "%nLatency-throughput curves (fixed-rate windows of the latency sweep)%n%n");
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < c.rowCount(); i++) {
            String v = c.stringColumn(RunColumn.VARIANT.id()).get(i);
            rows.add(new String[] {c.stringColumn(RunColumn.WORKLOAD.id()).get(i),
                c.stringColumn(RunColumn.SUBJECT.id()).get(i) + (v.isEmpty() ? "" : " [" + v + "]"), c.stringColumn(StatsColumn.POINT.id()).get(i),
                Integer.toString(c.intColumn(StatsColumn.N.id()).get(i)), Units.integer(c.doubleColumn(RunColumn.TARGET_RPS.id()).getDouble(i)),
                Units.integer(c.doubleColumn(RunColumn.RPS.id()).getDouble(i)), Units.integer(c.doubleColumn(RunColumn.MISSED.id()).getDouble(i)),
                latency(c, RunColumn.LAT_P50_US, i), latency(c, RunColumn.LAT_P99_US, i), latency(c, RunColumn.LAT_P999_US, i),
                Units.latency(c.doubleColumn(RunColumn.SVC_P50_US.id()).getDouble(i)), Units.latency(c.doubleColumn(RunColumn.SVC_P99_US.id()).getDouble(i))});
        }
        TextTable.print(out, new String[] {"workload", "subject", "point", "n", "target_rps", "rps", "missed",
            "p50 [95% CI]", "p99 [95% CI]", "p99.9 [95% CI]", "svc_p50", "svc_p99"}, rows, 2);
    }

    /** {@code 2.10ms [2.05ms, 2.20ms]}; without the interval when there is none (one round). */
    private static String latency(Table c, RunColumn percentile, int i) {
        double v = c.doubleColumn(percentile.id()).getDouble(i);
        double low = c.doubleColumn(StatsColumn.ciLow(percentile)).getDouble(i);
        double high = c.doubleColumn(StatsColumn.ciHigh(percentile)).getDouble(i);
        return Units.latency(v) + (Double.isNaN(low) ? "" : " [" + Units.latency(low) + ", " + Units.latency(high) + "]");
    }

    private static void knees(PrintWriter out, List<Knee> knees, Duration slo) {
        out.printf(Locale.ROOT, "%nKnee: the highest throughput at which p99 stays under %s%n%n",
                Units.latency(slo.toNanos() / 1000.0));
        List<String[]> rows = new ArrayList<>();
        for (Knee k : knees) {
            rows.add(new String[] {k.workload(), k.variant().isEmpty() ? k.subject() : k.subject() + " [" + k.variant() + "]",
                k.shown(), Units.interval(k.ciLow(), k.ciHigh(), Figure.COUNT), Integer.toString(k.rounds())});
        }
        TextTable.print(out, new String[] {"workload", "subject", "knee", "95% CI", "rounds"}, rows, 2);
        out.printf(Locale.ROOT, "%n> : p99 stayed under the objective at every rate (the knee is higher);"
                + " < : it was over already at the lowest.%n");
    }

    private static void rates(PrintWriter out, Table t) {
        out.printf(Locale.ROOT, "%np99 at equal offered load (--rates), each subject against the baseline%n%n");
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < t.rowCount(); i++) {
            String v = t.stringColumn(RunColumn.VARIANT.id()).get(i);
            rows.add(new String[] {Units.integer(t.doubleColumn(StatsColumn.RATE_RPS.id()).getDouble(i)), t.stringColumn(RunColumn.WORKLOAD.id()).get(i),
                t.stringColumn(RunColumn.SUBJECT.id()).get(i) + (v.isEmpty() ? "" : " [" + v + "]"),
                Integer.toString(t.intColumn(StatsColumn.N.id()).get(i)), Units.integer(t.doubleColumn(RunColumn.RPS.id()).getDouble(i)),
                Units.integer(t.doubleColumn(RunColumn.MISSED.id()).getDouble(i)), Units.latency(t.doubleColumn(RunColumn.LAT_P99_US.id()).getDouble(i)),
                Units.ratio(t.doubleColumn(StatsColumn.RATIO.id()).getDouble(i)),
                Units.interval(t.doubleColumn(StatsColumn.RATIO_CI_LOW.id()).getDouble(i), t.doubleColumn(StatsColumn.RATIO_CI_HIGH.id()).getDouble(i), Figure.RATIO),
                Units.p(t.doubleColumn(StatsColumn.P_TEST.id()).getDouble(i)), t.stringColumn(StatsColumn.VERDICT.id()).get(i)});
        }
        TextTable.print(out, new String[] {"rate", "workload", "subject", "n", "rps", "missed", "p99 merged", "ratio",
            "ratio 95% CI", "p_test", "verdict"}, rows, 2);
        out.printf(Locale.ROOT, "%n%s Below 1: a lower p99, verdict faster. A subject that could not hold the rate"
                + " shows it in rps and missed.%n", io.loadlab.stats.PercentileRatios.rule(
                io.loadlab.stats.PercentileRatios.Percentile.P99));
    }
}
