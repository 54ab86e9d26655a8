package io.loadlab.cli;

import io.loadlab.data.ExperimentJson;
import io.loadlab.data.Group;
import io.loadlab.data.RoundsAutoOutcome;
import io.loadlab.data.RunColumn;
import io.loadlab.data.RunRow;
import io.loadlab.experiment.Runner;
import io.loadlab.format.TextTable;
import io.loadlab.format.Units;
import io.loadlab.stats.Summary;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/** The table that {@code loadlab run} prints after its runs, from the rows the runner wrote. */
final class RunSummary {

    private RunSummary() {
    }

    /**
     * The short table at the end: one row per {@link Group} of this session's runs (subject, variant,
     * workload, engine and a sweep's point), the runner's groups, so each finds its merged histogram.
     */
    static void print(PrintWriter out, Runner.Outcome outcome) {
        Map<Group, List<RunRow>> byGroup = new LinkedHashMap<>();
        for (RunRow r : outcome.rows()) {
            byGroup.computeIfAbsent(Group.of(r), k -> new ArrayList<>()).add(r);
        }
        List<String[]> rows = new ArrayList<>();
        byGroup.forEach((g, runs) -> rows.add(summaryRow(runs, outcome.latency().get(g))));
        out.println();
        List<String> header = new ArrayList<>(List.of("subject", "workload", "engine", "point", "ok_runs", "rps_mean",
                "rps_cv", "p99_us_merged", "rps_per_server_cpu_s", "load_bound_runs"));
        if (outcome.rows().stream().allMatch(r -> point(r).isEmpty())) {
            // Outside a latency sweep the point column says nothing.
            header.remove(3);
            rows.replaceAll(r -> Stream.concat(Arrays.stream(r, 0, 3), Arrays.stream(r, 4, r.length)).toArray(String[]::new));
        }
        TextTable.print(out, header.toArray(String[]::new), rows, 2);
        roundsAuto(out, outcome.dir());
    }

    /**
     * With {@code --rounds auto}: the rounds it took, why it stopped, and each comparison's verdict at
     * the last look (from experiment.json); nothing otherwise.
     */
    static void roundsAuto(PrintWriter out, java.nio.file.Path dir) {
        Optional<RoundsAutoOutcome> auto;
        try {
            auto = ExperimentJson.read(dir).roundsAuto();
        } catch (io.loadlab.data.DataException e) {
            return; // the table above is what this session can still say
        }
        if (auto.isEmpty()) {
            return;
        }
        out.printf(java.util.Locale.ROOT, "%n%s%n", auto.get().line());
        List<String[]> rows = new ArrayList<>();
        for (RoundsAutoOutcome.Compared c : auto.get().comparisons()) {
            rows.add(new String[] {c.workload(), c.subject(), Units.ratio(c.ratio()), Units.p(c.pTest()), c.verdict(),
                c.decided() ? "yes" : "no"});
        }
        if (!rows.isEmpty()) {
            out.printf(java.util.Locale.ROOT, "%s against %s at the last look:%n", auto.get().metric(),
                    auto.get().baseline());
            TextTable.print(out, new String[] {"workload", "subject", "ratio", "p_test", "verdict", "decided"}, rows, 2);
        }
    }

    /** The summary's row of one group's runs; {@code merged} is null when no run of it kept a histogram. */
    private static String[] summaryRow(List<RunRow> runs, Histogram merged) {
        List<RunRow> ok = runs.stream().filter(r -> r.get(RunColumn.STATUS).equals(RunColumn.Status.OK.value())).toList();
        Summary rps = ok.isEmpty() ? null
                : Summary.of(ok.stream().mapToDouble(r -> Double.parseDouble(r.get(RunColumn.RPS))).toArray());
        double perCpu = ok.stream().filter(r -> !r.get(RunColumn.RPS_PER_SERVER_CPU_S).isEmpty())
                .mapToDouble(r -> Double.parseDouble(r.get(RunColumn.RPS_PER_SERVER_CPU_S))).average().orElse(Double.NaN);
        long bound = ok.stream().filter(r -> r.get(RunColumn.LOAD_BOUND).equals(Boolean.TRUE.toString())).count();
        RunRow first = runs.get(0);
        return new String[] {Group.subjectLabel(first.get(RunColumn.SUBJECT), first.get(RunColumn.VARIANT)),
            first.get(RunColumn.WORKLOAD), first.get(RunColumn.ENGINE), point(first).orElse(""), ok.size() + "/" + runs.size(),
            Units.integer(rps == null ? Double.NaN : rps.mean()), rps == null || rps.n() < 2 ? "" : Units.percent(rps.cv()),
            merged == null || merged.getTotalCount() == 0 ? "" : Units.count(merged.getValueAtPercentile(99)),
            Units.integer(perCpu), Long.toString(bound)};
    }

    /**
     * A latency sweep's point as {@link io.loadlab.experiment.SweepPoint#label()} names it
     * ({@code capacity}, {@code 50%}, {@code 1000/s}); empty outside a sweep.
     */
    private static Optional<String> point(RunRow r) {
        return RunColumn.SweepRole.of(r.get(RunColumn.SWEEP_ROLE)).map(role -> switch (role) {
            case CAPACITY -> "capacity";
            case FRACTION -> RunRow.num(Double.parseDouble(r.get(RunColumn.CAPACITY_FRACTION)) * 100) + "%";
            case RATE -> RunRow.num(Double.parseDouble(r.get(RunColumn.TARGET_RPS))) + "/s";
        });
    }
}
