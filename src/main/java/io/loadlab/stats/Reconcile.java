package io.loadlab.stats;

import io.loadlab.data.ExperimentRecord;
import io.loadlab.data.Group;
import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Two or more experiments, from this machine or others (imported ones included), held against
 * each other: "Vapor beat Kitura here, but their chart showed the opposite" answered with the
 * environment side by side, the subjects' order per workload in each, and for every pair of
 * subjects the <b>ratio of ratios</b>, (X / Y in A) ÷ (X / Y in B), with a bootstrap CI and a
 * test, next to the facts that differ where the experiments disagree. The first experiment is A;
 * each other one is held against it. Each experiment is analysed on its own, so its groups are
 * its own (two experiments at 16 and 256 connections are not split but compared). Stateless.
 *
 * <p><b>The rule.</b> A and B <em>disagree</em> on a pair when both subjects have at least 3
 * rounds with a value in each experiment, the ratio of ratios' 95% bootstrap CI lies entirely
 * outside 1 &plusmn; noise, and Welch's t-test of the two experiments' log ratios gives p &lt;
 * alpha ({@link RatioOfRatios}): the same three conditions as a verdict of {@link Comparison},
 * applied to the ratio of ratios. Otherwise they are <em>within noise</em>, or, with fewer
 * rounds, nothing is said ({@link Agreement#TOO_FEW_ROUNDS}). The test is there because a
 * percentile bootstrap of 3 rounds has 10 distinct resamples and gives intervals too narrow on
 * its own; the CI keeps a significant difference of a fraction of a percent from being called.
 */
public final class Reconcile {

    /** One experiment to reconcile: what its experiment.json says, and its runs (the columns of runs.csv). */
    public record Input(ExperimentRecord record, Table runs) {
    }

    private Reconcile() {
    }

    /**
     * Loads each folder on its own and reconciles them.
     *
     * @param baseline a subject (or {@code subject [variant]}) every pair is held against; null for every pair
     * @throws io.loadlab.data.DataException for a folder that is not an experiment
     * @throws StatsException as {@link #of}
     */
    public static Reconciliation load(List<Path> dirs, String metric, String baseline, CompareOptions options) {
        List<Input> inputs = new ArrayList<>();
        for (Path dir : dirs) {
            inputs.add(new Input(ExperimentRecord.read(dir), Results.load(dir).runs()));
        }
        return of(inputs, metric, baseline, options);
    }

    /**
     * Reconciles the experiments: the second and later ones each against the first.
     *
     * @param metric   a numeric column of the runs, such as {@code rps}
     * @param baseline a subject, or one variant of it as {@code subject [variant]} ({@code subject[variant]},
     *                 as earlier versions wrote it, is read too), every pair is held against; null for
     *                 every pair of subjects, the first by subject, then variant as the baseline of each
     * @throws StatsException with fewer than 2 or more than 26 experiments, an unknown metric, or
     *                        no workload with two subjects measured in A and another experiment
     */
    public static Reconciliation of(List<Input> inputs, String metric, String baseline, CompareOptions options) {
        if (inputs == null || inputs.size() < 2) {
            throw new StatsException("reconciling needs at least 2 experiments, got "
                    + (inputs == null ? 0 : inputs.size()));
        }
        if (inputs.size() > 26) {
            throw new StatsException("reconciling names the experiments A to Z: give at most 26, got " + inputs.size());
        }
        List<String> labels = new ArrayList<>();
        List<RunData> data = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            labels.add(String.valueOf((char) ('A' + i)));
            RunData d = RunData.of(inputs.get(i).runs());
            d.metric(metric);
            data.add(d);
        }
        List<ReconcileRow> rows = new ArrayList<>();
        Rankings rankings = new Rankings();
        for (int k = 1; k < inputs.size(); k++) {
            PairSamples samples = PairSamples.of(data.get(0), data.get(k), metric);
            Context c = new Context(data.get(0), data.get(k), inputs.get(0).record(), inputs.get(k).record(),
                    labels.get(0), labels.get(k), options);
            for (List<PairSamples.Entry> bucket : buckets(samples.entries()).values()) {
                if (bucket.size() < 2) {
                    continue;
                }
                List<ReconcileRow> these = pairs(bucket, baseline, c);
                rows.addAll(these);
                rankings.add(bucket, these, samples, c, Direction.of(metric));
            }
        }
        if (rows.isEmpty()) {
            throw new StatsException("no workload has two subjects measured (" + metric + ") in both " + labels.get(0)
                    + " and another experiment" + (baseline == null ? "" : " with baseline " + baseline)
                    + "; reconciling holds a pair of subjects against itself, so each experiment needs both");
        }
        Table environment = EnvironmentTable.of(inputs.stream().map(Input::record).toList(), data, labels);
        return new Reconciliation(labels, inputs.stream().map(Input::record).toList(), metric, environment,
                rankings.table(), rows, rule(options));
    }

    /** The rule in one sentence, with the options' thresholds, for the foot of a table people read. */
    public static String rule(CompareOptions o) {
        return String.format(Locale.ROOT, "Two experiments disagree on a pair only with at least %d rounds of both"
                + " subjects in each, when the ratio of ratios' 95%% bootstrap CI lies entirely outside 1 ± %s and"
                + " Welch's t-test of the two log ratios agrees (p < %s); otherwise they are within their noise.",
                Verdicts.MIN_ROUNDS, io.loadlab.format.Units.exactPercent(o.noise()),
                io.loadlab.format.Units.exact(o.alpha()));
    }

    /** The two experiments of a comparison, and the names the facts give them. */
    record Context(RunData a, RunData b, ExperimentRecord ra, ExperimentRecord rb, String la, String lb,
                   CompareOptions options) {
    }

    /**
     * Entries by workload and engines, each list by subject, then variant (not by label, whose
     * spelling is for people): a ratio is only taken within one.
     */
    private static Map<String, List<PairSamples.Entry>> buckets(List<PairSamples.Entry> entries) {
        Map<String, List<PairSamples.Entry>> out = new LinkedHashMap<>();
        for (PairSamples.Entry e : entries) {
            out.computeIfAbsent(e.workload() + "\u0000" + e.engines(), k -> new ArrayList<>()).add(e);
        }
        out.values().forEach(l -> l.sort(Comparator.comparing(PairSamples.Entry::group)));
        return out;
    }

    /** Every pair of a bucket (the first in order as baseline), or each subject against the given baseline. */
    private static List<ReconcileRow> pairs(List<PairSamples.Entry> bucket, String baseline, Context c) {
        List<ReconcileRow> out = new ArrayList<>();
        if (baseline != null) {
            baselineIn(bucket, baseline)
                    .ifPresent(y -> bucket.stream().filter(x -> x != y).forEach(x -> out.add(row(x, y, c))));
            return out;
        }
        for (int i = 0; i < bucket.size(); i++) {
            for (int j = i + 1; j < bucket.size(); j++) {
                out.add(row(bucket.get(j), bucket.get(i), c));
            }
        }
        return out;
    }

    /**
     * The entry a baseline names: with a variant ({@code nginx [tuned]} or {@code nginx[tuned]}) that
     * variant exactly, else the subject's first variant in the bucket, its default one when measured.
     */
    private static Optional<PairSamples.Entry> baselineIn(List<PairSamples.Entry> bucket, String baseline) {
        String subject = Group.subjectOf(baseline);
        Optional<String> variant = Group.variantOf(baseline);
        return bucket.stream().filter(e -> e.subject().equals(subject)
                && variant.map(v -> v.equals(e.group().variant())).orElse(true)).findFirst();
    }

    private static ReconcileRow row(PairSamples.Entry x, PairSamples.Entry y, Context c) {
        RatioOfRatios.Judgement j = RatioOfRatios.judge(x.a(), y.a(), x.b(), y.b(), c.options());
        List<String> facts = j.outcome() == Agreement.DISAGREE
                ? Explanations.of(x, y, c.a(), c.b(), c.ra(), c.rb(), c.la(), c.lb()) : List.of();
        return new ReconcileRow(x.workload(), x.label(), y.label(), c.la(), c.lb(), x.engines(), j.ratioA(), j.ratioB(),
                j.value(), j.ciLow(), j.ciHigh(), j.p(), j.nA(), j.nB(), j.designA(), j.designB(), j.outcome(),
                j.note(), facts);
    }

    /** The order of the subjects per workload in each experiment, and the pairs that swap. */
    private static final class Rankings {
        final StringColumn workload = StringColumn.create(RunColumn.WORKLOAD.id());
        final StringColumn experiments = StringColumn.create(StatsColumn.EXPERIMENTS.id());
        final StringColumn engines = StringColumn.create(StatsColumn.ENGINES.id());
        final StringColumn orderA = StringColumn.create(StatsColumn.ORDER_A.id());
        final StringColumn orderB = StringColumn.create(StatsColumn.ORDER_B.id());
        final BooleanColumn same = BooleanColumn.create(StatsColumn.SAME_ORDER.id());
        final StringColumn swapped = StringColumn.create(StatsColumn.SWAPPED.id());
        final StringColumn onlyA = StringColumn.create(StatsColumn.ONLY_IN_A.id());
        final StringColumn onlyB = StringColumn.create(StatsColumn.ONLY_IN_B.id());

        void add(List<PairSamples.Entry> bucket, List<ReconcileRow> rows, PairSamples samples, Context c, Direction d) {
            String w = bucket.get(0).workload();
            List<String> a = ordered(bucket, true, d);
            List<String> b = ordered(bucket, false, d);
            workload.append(w);
            experiments.append(c.la() + " vs " + c.lb());
            engines.append(bucket.get(0).engines());
            orderA.append(String.join(" > ", a));
            orderB.append(String.join(" > ", b));
            same.append(a.equals(b));
            swapped.append(String.join(", ", rows.stream().filter(ReconcileRow::swapped)
                    .map(r -> r.subject() + " / " + r.baseline()).toList()));
            onlyA.append(String.join(", ", samples.onlyInA(w)));
            onlyB.append(String.join(", ", samples.onlyInB(w)));
        }

        private static List<String> ordered(List<PairSamples.Entry> bucket, boolean inA, Direction d) {
            Comparator<PairSamples.Entry> byMean = Comparator.comparingDouble(
                    e -> Summary.mean(RunData.array(inA ? e.a() : e.b())));
            if (d != Direction.LOWER_IS_BETTER) {
                byMean = byMean.reversed();
            }
            return bucket.stream().sorted(byMean.thenComparing(PairSamples.Entry::group))
                    .map(PairSamples.Entry::label).toList();
        }

        Table table() {
            return Table.create("rankings", workload, experiments, engines, orderA, orderB, same, swapped, onlyA, onlyB);
        }
    }
}
