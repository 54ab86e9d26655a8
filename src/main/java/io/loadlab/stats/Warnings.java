package io.loadlab.stats;

import io.loadlab.data.AnalysisGroups;
import io.loadlab.data.Group;
import io.loadlab.data.RunColumn;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Finds what makes a runs table's figures less trustworthy, per (subject, variant, workload)
 * group: noisy or drifting rounds, outliers, a cold first round, runs that never became steady,
 * a busy machine, a fixed rate not reached, a saturated load generator, errors, failed runs, and
 * groups split because their runs differ in connection count or rate. Stateless and thread-safe.
 *
 * <p>The kinds:
 * <ul>
 * <li>{@code split_group}: one subject's runs on a workload were made with different connection
 *     counts or target rates (two experiments loaded together, say); they are analysed as separate
 *     groups ({@link io.loadlab.data.AnalysisGroups}), never pooled, and the warning names the
 *     settings and the groups.</li>
 * <li>{@code high_cv}: the coefficient of variation over the rounds is above {@code maxCv} (2+ rounds).</li>
 * <li>{@code outlier}: a round's modified Z-score is above {@code outlierScore} (3+ rounds).</li>
 * <li>{@code slow_first_round}: the first round is worse than every later one by more than
 *     {@code noise} (3+ rounds); the message says what was cold in that run: the load engine (the
 *     experiment's first run), the server (the first workload of its process), and the run's
 *     warm-up and whether it became steady where recorded.</li>
 * <li>{@code drift}: Spearman's rho of the values against the round number is significant at
 *     {@code alpha} (4+ rounds; exact permutation p up to 9 rounds).</li>
 * <li>{@code not_steady}: successful runs whose {@code steady} is false, with their warm-up.</li>
 * <li>{@code noisy_machine}: successful runs where {@code noise_cpu_s / duration_s} is above
 *     {@code maxNoiseCpu} or {@code steal_s / duration_s} above {@code maxSteal}.</li>
 * <li>{@code rate_not_reached}: fixed-rate runs whose {@code rps} is more than
 *     {@code rateShortfall} below {@code target_rps}, or with {@code missed} &gt; 0.</li>
 * <li>{@code load_bound}: successful runs where the load generator was saturated.</li>
 * <li>{@code attached}: runs of a server that Loadlab neither started nor pinned (a project's
 *     {@code url:} subject), saying whether its CPU and RSS were sampled.</li>
 * <li>{@code errors}: successful runs with errors, by category.</li>
 * <li>{@code failed_runs}: runs whose status is not ok, left out of the statistics.</li>
 * </ul>
 * A column an older experiment lacks, or an empty value, is "not measured" and never warns.
 */
public final class Warnings {

    private Warnings() {
    }

    /**
     * All warnings on one metric, by group (in order of subject, variant, workload), then by kind
     * in the order split_group (once per split subject and workload, before the first of its
     * groups), high_cv, outlier, slow_first_round, drift, not_steady, noisy_machine,
     * rate_not_reached, load_bound, attached, errors, failed_runs. The metric-based kinds (high_cv to
     * drift) use the runs whose status is ok and that measured the metric; the others use every
     * ok run of the group whatever the metric.
     *
     * @param runs    one row per run, with the columns of {@code runs.csv}; load_bound, errors_*,
     *                steady, warmup_s, duration_s, noise_cpu_s, steal_s, target_rps, missed and
     *                run_id are optional
     * @param metric  name of a numeric column; its direction decides what a "slow" first round is
     *                (for metrics that are neither throughput nor latency: unlike all the others)
     * @throws StatsException when a runs.csv column is missing or the metric is not a numeric column
     */
    public static List<Warning> find(Table runs, String metric) {
        return find(runs, metric, WarningOptions.defaults());
    }

    /** As {@link #find(Table, String)} ({@link WarningOptions#defaults()}), with the thresholds of {@code options}. */
    public static List<Warning> find(Table runs, String metric, WarningOptions options) {
        RunData data = RunData.of(runs);
        NumericColumn<?> column = data.metric(metric);
        if (options == null) {
            throw new StatsException("no warning options given; use WarningOptions.defaults()");
        }
        SortedMap<Group, List<Integer>> ok = data.okRows();
        SortedMap<Group, List<Integer>> failed = data.failedRows();
        TreeSet<Group> groups = new TreeSet<>(ok.keySet());
        groups.addAll(failed.keySet());
        Set<AnalysisGroups.Split> splitsSeen = new HashSet<>();
        List<Warning> out = new ArrayList<>();
        for (Group g : groups) {
            List<Integer> okRows = ok.getOrDefault(g, List.of());
            int anyRow = okRows.isEmpty() ? failed.get(g).get(0) : okRows.get(0);
            Optional<AnalysisGroups.Split> split = splitOf(data, anyRow);
            if (split.isPresent() && splitsSeen.add(split.get())) {
                out.add(splitGroup(data, split.get(), groups));
            }
            List<RunData.Obs> obs = data.values(column, okRows);
            RoundWarnings.highCv(g, metric, obs, options).ifPresent(out::add);
            RoundWarnings.outliers(g, metric, obs, options).ifPresent(out::add);
            RoundWarnings.slowFirstRound(data, g, metric, obs, options).ifPresent(out::add);
            RoundWarnings.drift(g, metric, obs, options).ifPresent(out::add);
            RunWarnings.notSteady(data, g, okRows).ifPresent(out::add);
            RunWarnings.noisyMachine(data, g, okRows, options).ifPresent(out::add);
            RunWarnings.rateNotReached(data, g, okRows, options).ifPresent(out::add);
            RunWarnings.loadBound(data, g, okRows).ifPresent(out::add);
            RunWarnings.attached(data, g, okRows).ifPresent(out::add);
            RunWarnings.errors(data, g, okRows).ifPresent(out::add);
            if (failed.containsKey(g)) {
                List<Integer> rounds = data.rounds(failed.get(g));
                out.add(warning("failed_runs", g, rounds,
                        g.label() + ": " + RunData.roundList(rounds) + " failed and are left out of the statistics"));
            }
        }
        return out;
    }

    /** The table form: columns kind, subject, variant, workload, rounds ("1,3,5"), message. */
    public static Table toTable(List<Warning> warnings) {
        StringColumn kind = StringColumn.create(StatsColumn.KIND.id());
        StringColumn subject = StringColumn.create(RunColumn.SUBJECT.id());
        StringColumn variant = StringColumn.create(RunColumn.VARIANT.id());
        StringColumn workload = StringColumn.create(RunColumn.WORKLOAD.id());
        StringColumn rounds = StringColumn.create(StatsColumn.ROUNDS.id());
        StringColumn message = StringColumn.create(StatsColumn.MESSAGE.id());
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

    /** The split of the row's subject, variant and workload, if its runs differ in a setting. */
    private static Optional<AnalysisGroups.Split> splitOf(RunData data, int row) {
        AnalysisGroups.Label l = data.label(row);
        return data.splits().stream().filter(s -> s.subject().equals(l.subject()) && s.variant().equals(l.variant())
                && s.workload().equals(l.workload())).findFirst();
    }

    /** The split_group warning of a split: the settings that differ, the groups it became, and every round of its runs. */
    private static Warning splitGroup(RunData data, AnalysisGroups.Split s, Set<Group> groups) {
        List<String> settings = new ArrayList<>();
        if (!s.connections().isEmpty()) {
            settings.add("connection counts (" + String.join(", ", s.connections()) + ")");
        }
        if (!s.rates().isEmpty()) {
            settings.add("target rates (" + String.join(", ", s.rates()) + ")");
        }
        TreeSet<Integer> rounds = new TreeSet<>();
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < data.table().rowCount(); i++) {
            AnalysisGroups.Label l = data.label(i);
            if (l.subject().equals(s.subject()) && l.variant().equals(s.variant()) && l.workload().equals(s.workload())) {
                rounds.add(data.round(i));
                Group part = data.group(i);
                if (groups.contains(part) && !parts.contains(part.subjectLabel())) {
                    parts.add(part.subjectLabel());
                }
            }
        }
        Group base = new Group(s.subject(), s.variant(), s.workload());
        return new Warning("split_group", s.subject(), s.variant(), s.workload(), List.copyOf(rounds),
                base.label() + ": its runs were made with different " + String.join(" and ", settings)
                        + ", so they are analysed apart, never pooled: " + String.join(", ", parts));
    }

    static Warning warning(String kind, Group g, List<Integer> rounds, String message) {
        return new Warning(kind, g.subject(), g.variant(), g.workload(), rounds, message);
    }
}
