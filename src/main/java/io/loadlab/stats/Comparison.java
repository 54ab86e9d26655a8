package io.loadlab.stats;

import io.loadlab.data.AnalysisGroups;
import io.loadlab.data.Group;
import io.loadlab.data.RunColumn;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Compares every (subject, variant, workload) group with a baseline subject on one metric, over
 * the runs whose status is {@code ok}. Groups are those of {@link io.loadlab.data.AnalysisGroups}:
 * other engines and different connection counts or rates of one subject are variants of their
 * own. Stateless and thread-safe.
 *
 * <p><b>Which baseline group.</b> A group (S, v, w) is compared with the baseline's group on
 * workload w with the same variant label when there is one; else with the baseline's group of
 * the same variant before the split and the same connection count and rate (when only one of the
 * two subjects was split); else with the baseline's default variant on w, provided it ran with the
 * same connection count and rate (a count that was not recorded matches any) — a baseline
 * measured at another setting is {@link Verdict#NO_BASELINE}, never held against it silently.
 * The baseline subject's own other variants are compared with its default variant, whatever
 * their settings: that is the comparison asked for.
 *
 * <p><b>The verdict rule</b>, the one rule of this package ({@link Engines} uses it too):
 * <ol>
 * <li>Either group has fewer than 3 rounds with a value: {@link Verdict#TOO_FEW_ROUNDS}. With 2
 *     rounds no test can reach p &lt; 0.05 for any but absurd differences, and a bootstrap of 2
 *     values has 3 possible means: the rounds advised of an undecided row would rest on a noise
 *     measured from 1 degree of freedom.</li>
 * <li>The design: when both groups have exactly one value in each of the same rounds (experiment
 *     and round), at least 3, all positive, the rounds are <em>paired</em>: each round starts every
 *     subject afresh close in time, so what made a round slow (the machine, the time of day) made
 *     it slow for both. The test is then a one-sample t-test of the per-round log ratios
 *     ln(a_r / b_r) against 0 (n-1 degrees of freedom): it tests the ratio itself, whatever the
 *     scale of the metric, and the round-to-round noise shared by both groups cancels. The
 *     bootstrap resamples rounds, each bringing both its values, and takes the ratio of the
 *     resampled means. Otherwise (other rounds, a failed round in one group, a value of 0) it is
 *     Welch's t-test and a bootstrap of each group on its own. The {@code test} column says which.</li>
 * <li>A difference is called only when the ratio's 95% bootstrap CI lies <em>entirely</em>
 *     outside 1 &plusmn; {@code noise} <em>and</em> the test's two-sided p, adjusted for
 *     multiplicity within its family (Holm by default, {@link Adjustment}), is below
 *     {@code alpha}: the CI says the difference is larger than what is worth calling, the test
 *     that it is not chance. Its words come from the metric's direction (faster/slower for
 *     throughput and latency, higher/lower otherwise).</li>
 * <li>Else {@link Verdict#EQUIVALENT} when the two one-sided tests at {@code alpha} (TOST) reject
 *     a ratio beyond 1 &plusmn; {@code noise}: the ratio's (1 &minus; 2&alpha;) t interval lies
 *     inside the band ({@link Power}). Not adjusted: the claim that every group of a family is
 *     equivalent is an intersection&ndash;union test, whose error is at most alpha as it is.</li>
 * <li>Else {@link Verdict#UNDECIDED}, with a note naming which conditions failed, the smallest
 *     difference this experiment could detect with 80% power and about how many rounds would
 *     decide it.</li>
 * </ol>
 *
 * <p>A family is one workload and this metric: every group compared with the baseline there.
 *
 * <p>The Mann–Whitney p-value is reported beside, not used for the verdict: exact when a sample
 * has at most 8 values and there are no ties, the normal approximation otherwise (see
 * {@link MannWhitney}); it equals scipy's {@code mannwhitneyu(a, b, use_continuity=False)}.
 * {@code p_welch} is Welch's p whatever the design, as before.
 */
public final class Comparison {

    private Comparison() {
    }

    /**
     * The comparison as a table: columns subject, workload, metric, n, mean, sd, ci_low, ci_high,
     * ratio, ratio_ci_low, ratio_ci_high, p_welch, p_mannwhitney, verdict, then variant, baseline,
     * note, test ({@code paired}, {@code welch} or "") and p_test, then p_adjusted, adjustment,
     * p_equivalence, smallest_detectable and rounds_advised; one row per group as in {@link #rows}.
     *
     * @throws StatsException as {@link #rows}
     */
    public static Table compare(Table runs, String metric, String baseline, CompareOptions options) {
        return toTable(metric, rows(runs, metric, baseline, options));
    }

    /** {@link #compare(Table, String, String, CompareOptions)} with {@link CompareOptions#defaults()}. */
    public static Table compare(Table runs, String metric, String baseline) {
        return compare(runs, metric, baseline, CompareOptions.defaults());
    }

    /** {@link #rows(Table, String, String, CompareOptions)} with {@link CompareOptions#defaults()}. */
    public static List<ComparisonRow> rows(Table runs, String metric, String baseline) {
        return rows(runs, metric, baseline, CompareOptions.defaults());
    }

    /**
     * The verdict rule in one sentence with the thresholds of {@code options}, for the foot of a
     * table people read.
     */
    public static String rule(CompareOptions options) {
        return Verdicts.rule(options);
    }

    /**
     * Compares each group with the baseline; groups in order of subject, variant, workload, the
     * baseline's own rows included (ratio 1, verdict {@link Verdict#BASELINE}). Groups where the
     * metric was never measured are left out; a group without a baseline group to compare with
     * gets the verdict {@link Verdict#NO_BASELINE}.
     *
     * @param runs     one row per run, with the columns of {@code runs.csv}
     * @param metric   name of a numeric column; its direction (throughput, latency, other) picks the
     *                 words of the verdict
     * @param baseline subject to compare with, or {@code subject [variant]} (or {@code subject[variant]}) for
     *                 one of its variants (default: the variant of its first successful run); see
     *                 {@link #defaultBaseline}
     * @param options  thresholds and bootstrap settings
     * @throws StatsException when a runs.csv column is missing, the metric is not a numeric column,
     *                        or the baseline has no successful run (the message lists the subjects)
     */
    public static List<ComparisonRow> rows(Table runs, String metric, String baseline, CompareOptions options) {
        RunData data = RunData.of(runs);
        NumericColumn<?> column = data.metric(metric);
        if (options == null) {
            throw new StatsException("no compare options given; use CompareOptions.defaults()");
        }
        if (baseline == null || baseline.isBlank()) {
            throw new StatsException("no baseline subject given; Comparison.defaultBaseline(runs) picks one");
        }
        Samples samples = new Samples();
        for (Map.Entry<Group, List<Integer>> e : data.okRows().entrySet()) {
            List<RunData.Obs> obs = data.values(column, e.getValue());
            if (!obs.isEmpty()) {
                samples.values.put(e.getKey(), obs);
                samples.labels.put(e.getKey(), data.label(e.getValue().get(0)));
            }
        }
        // "subject" or "subject [variant]": the baseline is one variant of one subject, so that the
        // other variants of the same subject (fsync against memory, say) are compared with it.
        Optional<String> givenVariant = Group.variantOf(baseline);
        boolean explicitVariant = givenVariant.isPresent();
        String baseSubject = Group.subjectOf(baseline);
        checkBaseline(data, baseSubject);
        String baseVariant = givenVariant.orElseGet(() -> firstVariant(data, baseSubject));
        Direction direction = Direction.of(metric);
        List<ComparisonRow> out = new ArrayList<>();
        List<Judged> pending = new ArrayList<>();
        for (Map.Entry<Group, List<RunData.Obs>> e : samples.values.entrySet()) {
            Group g = e.getKey();
            Summary s = Summary.of(RunData.array(e.getValue()));
            if (g.subject().equals(baseSubject) && g.variant().equals(baseVariant)) {
                out.add(row(g, metric, s, 1, Verdict.BASELINE, g.subjectLabel(), "baseline", options));
                continue;
            }
            boolean fixed = explicitVariant || g.subject().equals(baseSubject);
            Optional<Group> base = samples.baselineFor(g, new Group(baseSubject, baseVariant, g.workload()), fixed);
            if (base.isEmpty()) {
                out.add(row(g, metric, s, Double.NaN, Verdict.NO_BASELINE, baseline,
                        samples.noBaselineNote(g, baseSubject), options));
                continue;
            }
            Verdicts.Judgement j = Verdicts.judge(e.getValue(), samples.values.get(base.get()), direction, options,
                    "baseline");
            out.add(null);
            pending.add(new Judged(out.size() - 1, g, s, base.get(), j));
        }
        // A family is one workload (and this metric): its groups against the baseline, adjusted together.
        List<Verdicts.Judgement> adjusted = Verdicts.adjustByFamily(pending.stream().map(Judged::judgement).toList(),
                pending.stream().map(x -> x.group().workload()).toList(), direction, options);
        for (int i = 0; i < pending.size(); i++) {
            out.set(pending.get(i).index(), row(pending.get(i), metric, adjusted.get(i), options));
        }
        return out;
    }

    /** A group judged against its baseline group, waiting for its family's adjustment; {@code index} in the output. */
    private record Judged(int index, Group group, Summary summary, Group base, Verdicts.Judgement judgement) {
    }

    private static ComparisonRow row(Judged x, String metric, Verdicts.Judgement j, CompareOptions o) {
        Group g = x.group();
        Summary s = x.summary();
        return new ComparisonRow(g.subject(), g.workload(), metric, s.n(), s.mean(), s.sd(), s.ciLow(), s.ciHigh(),
                j.ratio(), j.ratioCiLow(), j.ratioCiHigh(), j.pWelch(), j.pMannWhitney(), j.verdict(), g.variant(),
                x.base().subjectLabel(), j.note(), j.design(), j.pTest(), j.pAdjusted(), o.adjustment(),
                j.pEquivalence(), j.smallestDetectable(o), j.roundsAdvised(o));
    }

    /** The groups' values and where each group's runs belong (engine, settings). */
    private static final class Samples {
        final SortedMap<Group, List<RunData.Obs>> values = new TreeMap<>();
        final Map<Group, AnalysisGroups.Label> labels = new LinkedHashMap<>();

        /** The baseline group for {@code g}, by the order of the class comment. */
        Optional<Group> baselineFor(Group g, Group fixed, boolean fixedVariant) {
            if (fixedVariant) {
                return values.containsKey(fixed) ? Optional.of(fixed) : Optional.empty();
            }
            Group sameLabel = new Group(fixed.subject(), g.variant(), g.workload());
            if (values.containsKey(sameLabel)) {
                return Optional.of(sameLabel);
            }
            AnalysisGroups.Label mine = labels.get(g);
            for (Group candidate : values.keySet()) {
                AnalysisGroups.Label theirs = labels.get(candidate);
                if (candidate.subject().equals(fixed.subject()) && candidate.workload().equals(g.workload())
                        && theirs.variant().equals(mine.variant()) && theirs.engine().equals(mine.engine())
                        && sameSettings(mine, theirs)) {
                    return Optional.of(candidate);
                }
            }
            return values.containsKey(fixed) && sameSettings(mine, labels.get(fixed)) ? Optional.of(fixed)
                    : Optional.empty();
        }

        String noBaselineNote(Group g, String baseSubject) {
            boolean onWorkload = values.keySet().stream()
                    .anyMatch(b -> b.subject().equals(baseSubject) && b.workload().equals(g.workload()));
            if (!onWorkload) {
                return "baseline has no ok run on workload " + g.workload();
            }
            return "baseline has no ok run on workload " + g.workload() + " with " + labels.get(g).settings()
                    + ", and runs at another setting are not comparable";
        }
    }

    /** Same connection count (or one not recorded) and same rate. */
    private static boolean sameSettings(AnalysisGroups.Label a, AnalysisGroups.Label b) {
        boolean connections = a.connections().equals(b.connections()) || a.connections().equals(AnalysisGroups.UNKNOWN)
                || b.connections().equals(AnalysisGroups.UNKNOWN);
        return connections && a.rate().equals(b.rate());
    }

    /**
     * The baseline used when none is given: the first subject, in name order, with a successful run.
     *
     * @throws StatsException when the table has no successful run
     */
    public static String defaultBaseline(Table runs) {
        SortedMap<Group, List<Integer>> ok = RunData.of(runs).okRows();
        if (ok.isEmpty()) {
            throw new StatsException("no successful runs (status ok) to pick a baseline from");
        }
        return ok.firstKey().subject();
    }

    /** The table form of comparison rows; column order as in {@link #compare}. */
    public static Table toTable(String metric, List<ComparisonRow> rows) {
        Map<String, DoubleColumn> d = new LinkedHashMap<>();
        for (StatsColumn c : List.of(StatsColumn.MEAN, StatsColumn.SD, StatsColumn.CI_LOW, StatsColumn.CI_HIGH,
                StatsColumn.RATIO, StatsColumn.RATIO_CI_LOW, StatsColumn.RATIO_CI_HIGH, StatsColumn.P_WELCH,
                StatsColumn.P_MANNWHITNEY)) {
            d.put(c.id(), DoubleColumn.create(c.id()));
        }
        StringColumn subject = StringColumn.create(RunColumn.SUBJECT.id());
        StringColumn workload = StringColumn.create(RunColumn.WORKLOAD.id());
        StringColumn metricName = StringColumn.create(StatsColumn.METRIC.id());
        IntColumn n = IntColumn.create(StatsColumn.N.id());
        StringColumn verdict = StringColumn.create(StatsColumn.VERDICT.id());
        StringColumn variant = StringColumn.create(RunColumn.VARIANT.id());
        StringColumn baseline = StringColumn.create(StatsColumn.BASELINE.id());
        StringColumn note = StringColumn.create(StatsColumn.NOTE.id());
        StringColumn test = StringColumn.create(StatsColumn.TEST.id());
        DoubleColumn pTest = DoubleColumn.create(StatsColumn.P_TEST.id());
        DoubleColumn pAdjusted = DoubleColumn.create(StatsColumn.P_ADJUSTED.id());
        StringColumn adjustment = StringColumn.create(StatsColumn.ADJUSTMENT.id());
        DoubleColumn pEquivalence = DoubleColumn.create(StatsColumn.P_EQUIVALENCE.id());
        DoubleColumn mdd = DoubleColumn.create(StatsColumn.SMALLEST_DETECTABLE.id());
        DoubleColumn rounds = DoubleColumn.create(StatsColumn.ROUNDS_ADVISED.id());
        rounds.setPrintFormatter(Power.roundsShown());
        for (ComparisonRow r : rows) {
            subject.append(r.subject());
            workload.append(r.workload());
            metricName.append(r.metric());
            n.append(r.n());
            double[] values = {r.mean(), r.sd(), r.ciLow(), r.ciHigh(), r.ratio(), r.ratioCiLow(), r.ratioCiHigh(),
                r.pWelch(), r.pMannWhitney()};
            int i = 0;
            for (DoubleColumn c : d.values()) {
                c.append(values[i++]);
            }
            verdict.append(r.verdict().label());
            variant.append(r.variant());
            baseline.append(r.baseline());
            note.append(r.note());
            test.append(r.design().label());
            pTest.append(r.pTest());
            pAdjusted.append(r.pAdjusted());
            adjustment.append(r.adjustment().label());
            pEquivalence.append(r.pEquivalence());
            mdd.append(r.smallestDetectable());
            rounds.append(r.roundsAdvised());
        }
        Table t = Table.create(metric + " comparison", subject, workload, metricName, n);
        t.addColumns(d.values().toArray(DoubleColumn[]::new));
        return t.addColumns(verdict, variant, baseline, note, test, pTest, pAdjusted, adjustment, pEquivalence, mdd,
                rounds);
    }

    private static void checkBaseline(RunData data, String baseline) {
        TreeSet<String> withOk = new TreeSet<>();
        data.okRows().keySet().forEach(g -> withOk.add(g.subject()));
        if (withOk.contains(baseline)) {
            return;
        }
        TreeSet<String> all = new TreeSet<>();
        for (int i = 0; i < data.table().rowCount(); i++) {
            all.add(data.group(i).subject());
        }
        String why = all.contains(baseline) ? "has no successful run (status ok)" : "is not a subject of these runs";
        throw new StatsException("baseline '" + baseline + "' " + why + "; subjects with successful runs: "
                + (withOk.isEmpty() ? "(none)" : String.join(", ", withOk)));
    }

    /** The variant of the subject's first successful run in table order (the runner plans the default first). */
    private static String firstVariant(RunData data, String subject) {
        for (int i = 0; i < data.table().rowCount(); i++) {
            Group g = data.group(i);
            if (g.subject().equals(subject) && data.isOk(i)) {
                return g.variant();
            }
        }
        return "";
    }

    /** A row without a test: the baseline's own, or one without a baseline group. */
    private static ComparisonRow row(Group g, String metric, Summary s, double ratio, Verdict verdict,
                                     String baseline, String note, CompareOptions o) {
        return new ComparisonRow(g.subject(), g.workload(), metric, s.n(), s.mean(), s.sd(), s.ciLow(), s.ciHigh(),
                ratio, Double.NaN, Double.NaN, Double.NaN, Double.NaN, verdict, g.variant(), baseline, note,
                Design.NONE, Double.NaN, Double.NaN, o.adjustment(), Double.NaN, Double.NaN, Double.NaN);
    }
}
