package io.loadlab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * Finds what makes a runs table's figures less trustworthy, per (subject, variant, workload)
 * group: noisy or drifting rounds, outliers, a cold first round, a saturated load generator,
 * errors and failed runs. Stateless and thread-safe.
 */
public final class Warnings {

    /** Iglewicz and Hoaglin's constant: 0.6745 * (x - median) / MAD is comparable to a Z-score. */
    private static final double MAD_TO_Z = 0.6745;

    private Warnings() {
    }

    /**
     * All warnings on one metric, by group (in order of subject, variant, workload), then by kind
     * in the order high_cv, outlier, slow_first_round, drift, load_bound, errors, failed_runs.
     * The metric-based kinds use the runs whose status is ok and that measured the metric;
     * high_cv needs 2 rounds, outlier and slow_first_round 3, drift 4.
     *
     * @param runs    one row per run, with the columns of {@code runs.csv}; load_bound and
     *                errors_* are optional
     * @param metric  name of a numeric column; its direction decides what a "slow" first round is
     *                (for metrics that are neither throughput nor latency: unlike all the others)
     * @param options thresholds
     * @throws StatsException when a runs.csv column is missing or the metric is not a numeric column
     */
    public static List<Warning> find(Table runs, String metric, WarningOptions options) {
        RunData.requireRunColumns(runs);
        NumericColumn<?> column = RunData.metricColumn(runs, metric);
        if (options == null) {
            throw new StatsException("no warning options given; use WarningOptions.defaults()");
        }
        SortedMap<Group, List<Integer>> ok = RunData.okRows(runs);
        SortedMap<Group, List<Integer>> failed = RunData.failedRows(runs);
        TreeSet<Group> groups = new TreeSet<>(ok.keySet());
        groups.addAll(failed.keySet());
        Direction direction = Direction.of(metric);
        List<Warning> out = new ArrayList<>();
        for (Group g : groups) {
            List<Integer> okRows = ok.getOrDefault(g, List.of());
            List<RunData.Obs> obs = RunData.values(runs, column, okRows);
            highCv(g, metric, obs, options).ifPresent(out::add);
            outliers(g, metric, obs, options).ifPresent(out::add);
            slowFirstRound(g, metric, direction, obs, options).ifPresent(out::add);
            drift(g, metric, obs, options).ifPresent(out::add);
            loadBound(runs, g, okRows).ifPresent(out::add);
            errors(runs, g, okRows).ifPresent(out::add);
            if (failed.containsKey(g)) {
                List<Integer> rounds = RunData.rounds(runs, failed.get(g));
                out.add(new Warning("failed_runs", g.subject(), g.variant(), g.workload(), rounds,
                        g.label() + ": " + RunData.roundList(rounds) + " failed and are left out of the statistics"));
            }
        }
        return out;
    }

    /** The table form: columns kind, subject, variant, workload, rounds ("1,3,5"), message. */
    public static Table toTable(List<Warning> warnings) {
        StringColumn kind = StringColumn.create("kind");
        StringColumn subject = StringColumn.create("subject");
        StringColumn variant = StringColumn.create("variant");
        StringColumn workload = StringColumn.create("workload");
        StringColumn rounds = StringColumn.create("rounds");
        StringColumn message = StringColumn.create("message");
        for (Warning w : warnings) {
            kind.append(w.kind());
            subject.append(w.subject());
            variant.append(w.variant());
            workload.append(w.workload());
            rounds.append(w.rounds().stream().map(String::valueOf).collect(Collectors.joining(",")));
            message.append(w.message());
        }
        return Table.create("warnings", kind, subject, variant, workload, rounds, message);
    }

    private static Optional<Warning> highCv(Group g, String metric, List<RunData.Obs> obs, WarningOptions o) {
        if (obs.size() < 2) {
            return Optional.empty();
        }
        Summary s = Summary.of(RunData.array(obs));
        if (!(s.cv() > o.maxCv())) {
            return Optional.empty();
        }
        List<Integer> rounds = RunData.roundsOf(obs);
        return Optional.of(warning("high_cv", g, rounds, String.format(Locale.ROOT,
                "%s: %s varies by %.1f%% (cv) over %s, more than %.1f%%; the figures are noisy",
                g.label(), metric, s.cv() * 100, RunData.roundList(rounds), o.maxCv() * 100)));
    }

    private static Optional<Warning> outliers(Group g, String metric, List<RunData.Obs> obs, WarningOptions o) {
        if (obs.size() < 3) {
            return Optional.empty();
        }
        double median = median(RunData.array(obs));
        double mad = median(obs.stream().mapToDouble(x -> Math.abs(x.value() - median)).toArray());
        if (mad == 0) {
            // Over half the rounds are equal; any other value would score infinite.
            return Optional.empty();
        }
        List<Integer> rounds = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (RunData.Obs x : obs) {
            double z = MAD_TO_Z * (x.value() - median) / mad;
            if (Math.abs(z) > o.outlierScore()) {
                rounds.add(x.round());
                details.add(String.format(Locale.ROOT, "round %d: %.6g, score %.1f", x.round(), x.value(), z));
            }
        }
        if (rounds.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(warning("outlier", g, rounds, String.format(Locale.ROOT,
                "%s: %s has outliers in %s (%s; median %.6g, modified Z-score limit %.1f)",
                g.label(), metric, RunData.roundList(rounds), String.join("; ", details), median, o.outlierScore())));
    }

    private static Optional<Warning> slowFirstRound(Group g, String metric, Direction direction,
                                                    List<RunData.Obs> obs, WarningOptions o) {
        if (obs.size() < 3) {
            return Optional.empty();
        }
        RunData.Obs first = obs.get(0);
        double[] rest = RunData.array(obs.subList(1, obs.size()));
        double restMedian = median(rest);
        if (restMedian == 0) {
            return Optional.empty();
        }
        boolean worse = Arrays.stream(rest).allMatch(v -> direction.worse(first.value(), v));
        // A metric without a better direction is flagged when its first round is lower than all others, too.
        boolean lower = direction == Direction.NEUTRAL && Arrays.stream(rest).allMatch(v -> first.value() < v);
        double off = Math.abs(first.value() - restMedian) / Math.abs(restMedian);
        if (!(worse || lower) || !(off > o.noise())) {
            return Optional.empty();
        }
        String how = direction == Direction.NEUTRAL ? (lower ? "lower" : "higher") : "worse";
        return Optional.of(warning("slow_first_round", g, List.of(first.round()), String.format(Locale.ROOT,
                "%s: the first round (round %d) has %s %.6g, %s than every later round and %.1f%% off their median "
                        + "%.6g; warm-up may be too short",
                g.label(), first.round(), metric, first.value(), how, off * 100, restMedian)));
    }

    private static Optional<Warning> drift(Group g, String metric, List<RunData.Obs> obs, WarningOptions o) {
        int n = obs.size();
        if (n < 4) {
            return Optional.empty();
        }
        double[] rounds = obs.stream().mapToDouble(RunData.Obs::round).toArray();
        double rho = new SpearmansCorrelation().correlation(rounds, RunData.array(obs));
        if (Double.isNaN(rho)) {
            return Optional.empty();
        }
        double p = spearmanP(rho, n);
        if (!(p < o.alpha())) {
            return Optional.empty();
        }
        List<Integer> concerned = RunData.roundsOf(obs);
        return Optional.of(warning("drift", g, concerned, String.format(Locale.ROOT,
                "%s: %s %s with the round number over %s (Spearman rho %.2f, p %.2g); something changed while "
                        + "the rounds ran", g.label(), metric, rho > 0 ? "rises" : "falls",
                RunData.roundList(concerned), rho, p)));
    }

    /** Two-sided p of Spearman's rho by the t approximation, t = rho sqrt((n-2)/(1-rho^2)), n-2 df. */
    static double spearmanP(double rho, int n) {
        if (Math.abs(rho) >= 1) {
            return 0;
        }
        double t = rho * Math.sqrt((n - 2) / (1 - rho * rho));
        return 2 * new TDistribution(null, n - 2).cumulativeProbability(-Math.abs(t));
    }

    private static Optional<Warning> loadBound(Table runs, Group g, List<Integer> okRows) {
        if (!runs.containsColumn("load_bound")) {
            return Optional.empty();
        }
        Column<?> flag = runs.column("load_bound");
        List<Integer> rounds = RunData.rounds(runs, okRows.stream().filter(r -> RunData.isTrue(flag, r)).toList());
        if (rounds.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(warning("load_bound", g, rounds, g.label() + ": the load generator was saturated in "
                + RunData.roundList(rounds) + ", so the server may be faster than measured"));
    }

    private static Optional<Warning> errors(Table runs, Group g, List<Integer> okRows) {
        List<NumericColumn<?>> columns = runs.numericColumns().stream()
                .filter(c -> c.name().startsWith("errors_")).toList();
        Map<String, Double> byKind = new LinkedHashMap<>();
        List<Integer> rows = new ArrayList<>();
        for (int r : okRows) {
            double rowTotal = 0;
            for (NumericColumn<?> c : columns) {
                double v = RunData.value(c, r);
                if (v > 0) {
                    rowTotal += v;
                    byKind.merge(c.name().substring("errors_".length()), v, Double::sum);
                }
            }
            if (rowTotal > 0) {
                rows.add(r);
            }
        }
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        double total = byKind.values().stream().mapToDouble(Double::doubleValue).sum();
        String detail = byKind.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s %.0f", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
        List<Integer> rounds = RunData.rounds(runs, rows);
        return Optional.of(warning("errors", g, rounds, String.format(Locale.ROOT,
                "%s: %.0f errors in successful %s (%s)", g.label(), total, RunData.roundList(rounds), detail)));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return Summary.median(sorted);
    }

    private static Warning warning(String kind, Group g, List<Integer> rounds, String message) {
        return new Warning(kind, g.subject(), g.variant(), g.workload(), rounds, message);
    }
}
