package io.loadlab.stats;

import io.loadlab.data.Group;
import io.loadlab.format.Figure;
import io.loadlab.format.Units;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The few sentences a report opens with, made from the tables it shows below them: per workload,
 * the fastest subject and every verdict against the baseline; then the warnings, counted by kind
 * with the groups they concern; then the variant settings that every run shared. For a throughput
 * metric (higher is better, as {@code rps}); the figures are rounded as the tables round them.
 */
public final class Headline {

    /** How many groups a warning sentence names before it says "and N more". */
    static final int NAMED = 3;

    private Headline() {
    }

    /**
     * The sentences, in reading order.
     *
     * @param rows     the comparison with the baseline ({@link Comparison#rows}), any order
     * @param warnings the experiment's warnings ({@link Warnings#find})
     * @param shared   the settings every run had, said once
     */
    public static List<String> sentences(List<ComparisonRow> rows, List<Warning> warnings, SharedVariant shared) {
        List<String> out = new ArrayList<>();
        Map<String, List<ComparisonRow>> byWorkload = rows.stream()
                .collect(Collectors.groupingBy(ComparisonRow::workload, TreeMap::new, Collectors.toList()));
        byWorkload.forEach((workload, group) -> {
            fastest(workload, group).ifPresent(out::add);
            verdicts(workload, group).ifPresent(out::add);
        });
        out.addAll(warningSentences(warnings));
        if (!shared.sentence().isEmpty()) {
            out.add(shared.sentence());
        }
        return out;
    }

    /** {@code On json, go-nethttp was the fastest: 99,295 rps (mean of 5 rounds).} */
    static Optional<String> fastest(String workload, List<ComparisonRow> group) {
        return group.stream().filter(r -> r.n() > 0 && !Double.isNaN(r.mean()))
                .max(Comparator.comparingDouble(ComparisonRow::mean))
                .map(r -> String.format(Locale.ROOT, "On %s, %s was the fastest: %s %s (mean of %d round%s).", workload,
                        Group.subjectLabel(r.subject(), r.variant()), Figure.of(r.metric()).format(r.mean()), r.metric(),
                        r.n(), r.n() == 1 ? "" : "s"));
    }

    /**
     * {@code Against go-nethttp: java-netty slower (ratio 0.576 [0.396, 0.744]); nginx no clear
     * difference (ratio 0.98 [0.95, 1.01]).} Differences first, then the rest, each by ratio.
     */
    static Optional<String> verdicts(String workload, List<ComparisonRow> group) {
        List<ComparisonRow> others = group.stream().filter(r -> r.verdict() != Verdict.BASELINE)
                .sorted(Comparator.comparing((ComparisonRow r) -> !r.verdict().isDifference())
                        .thenComparing(Comparator.comparingDouble(ComparisonRow::ratio).reversed()))
                .toList();
        if (others.isEmpty()) {
            return Optional.empty();
        }
        String baseline = others.get(0).baseline();
        List<String> parts = new ArrayList<>();
        for (ComparisonRow r : others) {
            String name = Group.subjectLabel(r.subject(), r.variant()) + " " + r.verdictText();
            parts.add(Double.isNaN(r.ratio()) ? name : name + " (ratio " + Units.ratio(r.ratio())
                    + (Double.isNaN(r.ratioCiLow()) ? "" : " " + Units.interval(r.ratioCiLow(), r.ratioCiHigh(), Figure.RATIO))
                    + ")");
        }
        return Optional.of("Against " + baseline + " on " + workload + ": " + String.join("; ", parts) + ".");
    }

    /** One sentence per kind of warning: how many groups, which (the first few), what it means for them. */
    static List<String> warningSentences(List<Warning> warnings) {
        Map<String, List<Warning>> byKind = new LinkedHashMap<>();
        warnings.stream().sorted(Comparator.comparing(Warning::kind)).forEach(w ->
                byKind.computeIfAbsent(w.kind(), k -> new ArrayList<>()).add(w));
        List<String> out = new ArrayList<>();
        byKind.forEach((kind, list) -> {
            List<String> groups = list.stream().map(w -> Group.subjectLabel(w.subject(), w.variant()) + " / " + w.workload())
                    .distinct().toList();
            String named = String.join(", ", groups.subList(0, Math.min(NAMED, groups.size())))
                    + (groups.size() > NAMED ? " and " + (groups.size() - NAMED) + " more" : "");
            out.add(String.format(Locale.ROOT, "Warning %s on %d group%s (%s): %s.", kind, groups.size(),
                    groups.size() == 1 ? "" : "s", named, MEANING.getOrDefault(kind, "see the warnings at the end")));
        });
        return out;
    }

    /** What each kind of warning means for the figures above it, in a few words. */
    static final Map<String, String> MEANING = Map.ofEntries(
            Map.entry("high_cv", "their rounds vary by more than 5%, so small differences are not to be trusted"),
            Map.entry("outlier", "one round is far from the others"),
            Map.entry("split_group", "runs at different connection counts or rates are analysed apart"),
            Map.entry("slow_first_round", "the first round was slower than every later one: the warm-up was too short"),
            Map.entry("drift", "the figures rose or fell with the round number: the machine changed while they ran"),
            Map.entry("not_steady", "the throughput or the JIT compilers never settled within the warm-up"),
            Map.entry("noisy_machine", "other processes or the hypervisor took CPU during the window"),
            Map.entry("rate_not_reached", "the fixed rate was not held"),
            Map.entry("load_bound", "the load generator may be the limit, so the throughput is a lower bound"),
            Map.entry("attached", "Loadlab neither started nor pinned the server"),
            Map.entry("errors", "some requests failed: the throughput counts answers, not successes"),
            Map.entry("failed_runs", "some runs failed and are left out of the statistics"));
}
