package io.loadlab.stats;

import io.loadlab.data.AnalysisGroups;
import io.loadlab.data.Group;
import io.loadlab.data.RunColumn;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Whether other load generators tell the same story as the built-in engine: for the runs of one
 * experiment made with several engines ({@code loadlab run --engine builtin,wrk}), each engine's
 * figures against the built-in engine's on the same subject and workload, and each engine's
 * order of the subjects against the built-in engine's. Stateless and thread-safe.
 */
public final class Engines {

    /** The engine the others are held against. */
    public static final String REFERENCE = "builtin";

    private Engines() {
    }

    /** {@link #compare(Table, String, CompareOptions)} with the default options. */
    public static Table compare(Table runs, String metric) {
        return compare(runs, metric, CompareOptions.defaults());
    }

    /**
     * Each (subject, variant, workload, engine) against the built-in engine on the same subject,
     * variant and workload, over the successful runs, with the verdict rule of {@link Comparison}
     * (at least 3 rounds each; the ratio's bootstrap CI outside 1 &plusmn; noise and the test's p
     * below alpha; paired by round when both engines ran in the same rounds, which the runner does
     * by loading each subject process with every engine in turn). Comparing two instruments has
     * no "better" direction, so a difference reads {@code higher} or {@code lower}.
     *
     * @return one row per group measured by both, sorted by workload, subject, variant, engine;
     *         columns subject, variant, workload, engine, metric, n, mean, builtin_n,
     *         builtin_mean, ratio (engine / builtin), ratio_ci_low, ratio_ci_high (95% bootstrap),
     *         p_welch, verdict ({@code higher}, {@code lower}, {@code equivalent}, {@code undecided} or
     *         {@code too few rounds}), note, then test ({@code paired}, {@code welch} or "") and
     *         p_test (the p-value of that test)
     * @throws StatsException when the table lacks the engine column or runs of the built-in
     *                        engine and another one on a common group, or the metric is unknown
     */
    public static Table compare(Table runs, String metric, CompareOptions o) {
        Map<Key, Map<String, List<RunData.Obs>>> data = samples(runs, metric);
        EngineTable t = new EngineTable();
        for (Map.Entry<Key, Map<String, List<RunData.Obs>>> e : data.entrySet()) {
            List<RunData.Obs> b = e.getValue().get(REFERENCE);
            if (b == null) {
                continue;
            }
            for (Map.Entry<String, List<RunData.Obs>> byEngine : e.getValue().entrySet()) {
                if (!byEngine.getKey().equals(REFERENCE)) {
                    Verdicts.Judgement j = Verdicts.judge(byEngine.getValue(), b, Direction.NEUTRAL, o, REFERENCE);
                    t.add(e.getKey(), byEngine.getKey(), metric, byEngine.getValue(), b, j);
                }
            }
        }
        if (t.isEmpty()) {
            throw new StatsException(nothingInCommon(runs, metric));
        }
        return t.table(metric);
    }

    /** The columns of {@link #compare}, filled row by row; their names are {@link StatsColumn}'s. */
    private static final class EngineTable {
        final StringColumn subject = StringColumn.create(RunColumn.SUBJECT.id());
        final StringColumn variant = StringColumn.create(RunColumn.VARIANT.id());
        final StringColumn workload = StringColumn.create(RunColumn.WORKLOAD.id());
        final StringColumn engine = StringColumn.create(RunColumn.ENGINE.id());
        final StringColumn metricName = StringColumn.create(StatsColumn.METRIC.id());
        final IntColumn n = IntColumn.create(StatsColumn.N.id());
        final DoubleColumn mean = DoubleColumn.create(StatsColumn.MEAN.id());
        final IntColumn baseN = IntColumn.create(StatsColumn.BUILTIN_N.id());
        final DoubleColumn baseMean = DoubleColumn.create(StatsColumn.BUILTIN_MEAN.id());
        final DoubleColumn ratio = DoubleColumn.create(StatsColumn.RATIO.id());
        final DoubleColumn low = DoubleColumn.create(StatsColumn.RATIO_CI_LOW.id());
        final DoubleColumn high = DoubleColumn.create(StatsColumn.RATIO_CI_HIGH.id());
        final DoubleColumn pWelch = DoubleColumn.create(StatsColumn.P_WELCH.id());
        final StringColumn verdict = StringColumn.create(StatsColumn.VERDICT.id());
        final StringColumn note = StringColumn.create(StatsColumn.NOTE.id());
        final StringColumn test = StringColumn.create(StatsColumn.TEST.id());
        final DoubleColumn pTest = DoubleColumn.create(StatsColumn.P_TEST.id());

        void add(Key k, String eng, String metric, List<RunData.Obs> a, List<RunData.Obs> b, Verdicts.Judgement j) {
            subject.append(k.subject);
            variant.append(k.variant);
            workload.append(k.workload);
            engine.append(eng);
            metricName.append(metric);
            n.append(a.size());
            mean.append(Summary.mean(RunData.array(a)));
            baseN.append(b.size());
            baseMean.append(Summary.mean(RunData.array(b)));
            ratio.append(j.ratio());
            low.append(j.ratioCiLow());
            high.append(j.ratioCiHigh());
            pWelch.append(j.pWelch());
            verdict.append(j.verdict().label());
            note.append(j.verdict().isDifference() ? String.format(Locale.ROOT, "%s measures %.1f%% %s than %s", eng,
                    Math.abs(j.ratio() - 1) * 100, j.ratio() > 1 ? "more" : "less", REFERENCE) : j.note());
            test.append(j.design().label());
            pTest.append(j.pTest());
        }

        boolean isEmpty() {
            return subject.isEmpty();
        }

        Table table(String metric) {
            return Table.create(metric + " by engine", subject, variant, workload, engine, metricName, n, mean, baseN,
                    baseMean, ratio, low, high, pWelch, verdict, note, test, pTest);
        }
    }

    /** {@link #rankings(Table, String, CompareOptions)} with the default options. */
    public static Table rankings(Table runs, String metric) {
        return rankings(runs, metric, CompareOptions.defaults());
    }

    /**
     * Per workload and engine: the order of the subjects (with variants) by the metric's mean,
     * best first, and how it agrees with the built-in engine's order of the same subjects. Two
     * orders of noisy means can differ where neither engine can tell the subjects apart, so the
     * swaps that count are listed apart: the pairs the two engines order oppositely where at
     * least one of them calls the difference by the verdict rule of {@link #compare} (each pair
     * held against itself under one engine, paired by round).
     *
     * @return columns workload, engine, metric, subjects (how many were ordered), order (subjects
     *         labelled as {@link Group#subjectLabel()} does, e.g. {@code go-nethttp [tuned] > java-netty};
     *         equal means by subject, then variant), builtin_order, same_order, clear_swaps (such pairs
     *         as {@code X / Y}, X ahead under this engine, comma-separated; "" when none),
     *         spearman (rank correlation of the means with the built-in engine's; NaN with fewer
     *         than 2 subjects), spread (best mean / worst mean under this engine) and
     *         builtin_spread
     * @throws StatsException as {@link #compare}
     */
    public static Table rankings(Table runs, String metric, CompareOptions o) {
        Map<Key, Map<String, List<RunData.Obs>>> data = samples(runs, metric);
        Direction direction = Direction.of(metric);
        // workload -> group (not its label: ties go by subject, then variant) -> engine -> values, where builtin ran
        Map<String, Map<Group, Map<String, List<RunData.Obs>>>> values = new TreeMap<>();
        // workload -> engine -> group -> mean
        Map<String, Map<String, Map<Group, Double>>> means = new TreeMap<>();
        data.forEach((k, byEngine) -> {
            if (byEngine.containsKey(REFERENCE)) {
                Group g = k.group();
                values.computeIfAbsent(k.workload, w -> new TreeMap<>()).put(g, byEngine);
                byEngine.forEach((eng, v) -> means.computeIfAbsent(k.workload, w -> new TreeMap<>())
                        .computeIfAbsent(eng, x -> new TreeMap<>()).put(g, Summary.mean(RunData.array(v))));
            }
        });
        StringColumn workload = StringColumn.create(RunColumn.WORKLOAD.id());
        StringColumn engine = StringColumn.create(RunColumn.ENGINE.id());
        StringColumn metricName = StringColumn.create(StatsColumn.METRIC.id());
        IntColumn subjects = IntColumn.create(StatsColumn.SUBJECTS.id());
        StringColumn order = StringColumn.create(StatsColumn.ORDER.id());
        StringColumn baseOrder = StringColumn.create(StatsColumn.BUILTIN_ORDER.id());
        BooleanColumn same = BooleanColumn.create(StatsColumn.SAME_ORDER.id());
        StringColumn clearSwaps = StringColumn.create(StatsColumn.CLEAR_SWAPS.id());
        DoubleColumn spearman = DoubleColumn.create(StatsColumn.SPEARMAN.id());
        DoubleColumn spread = DoubleColumn.create(StatsColumn.SPREAD.id());
        DoubleColumn baseSpread = DoubleColumn.create(StatsColumn.BUILTIN_SPREAD.id());
        for (Map.Entry<String, Map<String, Map<Group, Double>>> w : means.entrySet()) {
            Map<Group, Double> base = w.getValue().get(REFERENCE);
            for (Map.Entry<String, Map<Group, Double>> eng : w.getValue().entrySet()) {
                if (eng.getKey().equals(REFERENCE)) {
                    continue;
                }
                Map<Group, Double> these = new LinkedHashMap<>(eng.getValue());
                these.keySet().retainAll(base.keySet());
                if (these.isEmpty()) {
                    continue;
                }
                Map<Group, Double> theirs = new LinkedHashMap<>(base);
                theirs.keySet().retainAll(these.keySet());
                List<Group> a = ordered(these, direction);
                List<Group> b = ordered(theirs, direction);
                workload.append(w.getKey());
                engine.append(eng.getKey());
                metricName.append(metric);
                subjects.append(a.size());
                order.append(labels(a));
                baseOrder.append(labels(b));
                same.append(a.equals(b));
                clearSwaps.append(String.join(", ", clearSwaps(a, b, values.get(w.getKey()), eng.getKey(), o)));
                spearman.append(a.size() < 2 ? Double.NaN : spearman(these, theirs));
                spread.append(spread(these, a));
                baseSpread.append(spread(theirs, b));
            }
        }
        if (workload.isEmpty()) {
            throw new StatsException(nothingInCommon(runs, metric));
        }
        return Table.create(metric + " rankings by engine", workload, engine, metricName, subjects, order, baseOrder,
                same, clearSwaps, spearman, spread, baseSpread);
    }

    /** Groups as an order reads: {@code go-nethttp [durability=memory] > java-netty}. */
    private static String labels(List<Group> ordered) {
        return ordered.stream().map(Group::subjectLabel).collect(Collectors.joining(" > "));
    }

    /**
     * The pairs that {@code order} (this engine's) and {@code builtinOrder} put the other way
     * round, where this engine or the built-in one tells them apart; as {@code X / Y}, X ahead
     * under this engine.
     */
    private static List<String> clearSwaps(List<Group> order, List<Group> builtinOrder,
                                           Map<Group, Map<String, List<RunData.Obs>>> values, String eng,
                                           CompareOptions o) {
        List<String> swaps = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            for (int j = i + 1; j < order.size(); j++) {
                Group x = order.get(i);
                Group y = order.get(j);
                if (builtinOrder.indexOf(x) > builtinOrder.indexOf(y)
                        && (told(values.get(x).get(eng), values.get(y).get(eng), o)
                        || told(values.get(x).get(REFERENCE), values.get(y).get(REFERENCE), o))) {
                    swaps.add(x.subjectLabel() + " / " + y.subjectLabel());
                }
            }
        }
        return swaps;
    }

    /** Whether the verdict rule calls a difference between a and b. */
    private static boolean told(List<RunData.Obs> a, List<RunData.Obs> b, CompareOptions o) {
        return Verdicts.judge(a, b, Direction.NEUTRAL, o, "the other").verdict().isDifference();
    }

    /** Groups, best first (for neutral metrics: highest first); ties by subject, then variant. */
    private static List<Group> ordered(Map<Group, Double> means, Direction direction) {
        Comparator<Group> byMean = Comparator.comparingDouble(means::get);
        if (direction != Direction.LOWER_IS_BETTER) {
            byMean = byMean.reversed();
        }
        return means.keySet().stream().sorted(byMean.thenComparing(Comparator.naturalOrder())).toList();
    }

    private static double spearman(Map<Group, Double> a, Map<Group, Double> b) {
        List<Group> labels = new ArrayList<>(new TreeSet<>(a.keySet()));
        double[] x = labels.stream().mapToDouble(a::get).toArray();
        double[] y = labels.stream().mapToDouble(b::get).toArray();
        if (Summary.variance(x, Summary.mean(x)) == 0 || Summary.variance(y, Summary.mean(y)) == 0) {
            return Double.NaN;
        }
        return new SpearmansCorrelation().correlation(x, y);
    }

    /** First mean over last mean of an ordered list; NaN for one subject or a zero. */
    private static double spread(Map<Group, Double> means, List<Group> ordered) {
        if (ordered.size() < 2) {
            return Double.NaN;
        }
        double last = means.get(ordered.get(ordered.size() - 1));
        return last == 0 ? Double.NaN : means.get(ordered.get(0)) / last;
    }

    /** A subject variant on a workload, whatever the engine. */
    private record Key(String subject, String variant, String workload) implements Comparable<Key> {
        private static final Comparator<Key> ORDER = Comparator.comparing(Key::workload)
                .thenComparing(Key::subject).thenComparing(Key::variant);

        @Override
        public int compareTo(Key other) {
            return ORDER.compare(this, other);
        }

        /** The group of the built-in engine's runs (the variant without the engine). */
        Group group() {
            return new Group(subject, variant, workload);
        }
    }

    /**
     * The metric's values of the successful runs, by group and engine (engines in name order):
     * the groups of {@link io.loadlab.data.AnalysisGroups}, with the engine taken out of the
     * variant label, so that a subject's runs of every engine at one setting meet under one key.
     */
    private static Map<Key, Map<String, List<RunData.Obs>>> samples(Table runs, String metric) {
        RunData data = RunData.of(runs);
        if (!runs.containsColumn(RunColumn.ENGINE.id())) {
            throw new StatsException("the runs table has no engine column: it is not from runs.csv, which has one");
        }
        return data.valuesBy(metric, (g, row) -> {
            AnalysisGroups.Label l = data.label(row);
            return new Key(l.subject(), l.variantWithoutEngine(), l.workload());
        }, (g, row) -> {
            String engine = data.label(row).engine();
            return engine.isEmpty() ? REFERENCE : engine;
        }, Comparator.naturalOrder());
    }

    private static String nothingInCommon(Table runs, String metric) {
        String engines = runs.rowCount() == 0 ? "(no runs)" : runs.column(RunColumn.ENGINE.id()).unique().asList()
                .stream().map(String::valueOf).sorted().collect(Collectors.joining(", "));
        return "no subject and workload has successful runs with a " + metric + " value from both the built-in engine"
                + " and another one (engines in these runs: " + engines + "); run for example"
                + " loadlab run --engine builtin,wrk";
    }
}
