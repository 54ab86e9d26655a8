package io.loadlab.stats;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;
import org.apache.commons.math3.stat.inference.TTest;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Compares every (subject, variant, workload) group with a baseline subject on one metric, over
 * the runs whose status is {@code ok}. Stateless and thread-safe.
 *
 * <p>A group (S, v, w) is compared with the baseline's group on workload w with the same variant
 * label when there is one, else with the baseline's first group on w (in variant order). A
 * difference is called only when Welch's two-sided p is below {@code alpha} <em>and</em> the
 * ratio of means is more than {@code noise} away from 1: with many rounds a 0.2% difference can
 * be significant yet too small to matter on another day or machine.
 *
 * <p>The Mann–Whitney p-value comes from commons-math3's {@link MannWhitneyUTest}, which uses the
 * normal approximation without continuity correction and without the correction of the variance
 * for ties; without ties it equals scipy's {@code mannwhitneyu(x, y, method='asymptotic',
 * use_continuity=False)}, with ties it is a little larger (conservative). It is reported, not used
 * for the verdict.
 */
public final class Comparison {

    private Comparison() {
    }

    /**
     * The comparison as a table: columns subject, workload, metric, n, mean, sd, ci_low, ci_high,
     * ratio, ratio_ci_low, ratio_ci_high, p_welch, p_mannwhitney, verdict, then variant, baseline,
     * note; one row per group as in {@link #rows}.
     *
     * @throws StatsException as {@link #rows}
     */
    public static Table compare(Table runs, String metric, String baseline, CompareOptions options) {
        return toTable(metric, rows(runs, metric, baseline, options));
    }

    /**
     * Compares each group with the baseline; groups in order of subject, variant, workload, the
     * baseline's own rows included (ratio 1, verdict {@link Verdict#BASELINE}). Groups where the
     * metric was never measured are left out; a group whose workload the baseline lacks gets the
     * verdict {@link Verdict#NO_BASELINE}.
     *
     * @param runs     one row per run, with the columns of {@code runs.csv}
     * @param metric   name of a numeric column; its direction (throughput, latency, other) picks the
     *                 words of the verdict
     * @param baseline subject to compare with, or {@code subject[variant]} for one of its variants
     *                 (default: the variant of its first successful run); see {@link #defaultBaseline}
     * @param options  thresholds and bootstrap settings
     * @throws StatsException when a runs.csv column is missing, the metric is not a numeric column,
     *                        or the baseline has no successful run (the message lists the subjects)
     */
    public static List<ComparisonRow> rows(Table runs, String metric, String baseline, CompareOptions options) {
        RunData.requireRunColumns(runs);
        NumericColumn<?> column = RunData.metricColumn(runs, metric);
        if (options == null) {
            throw new StatsException("no compare options given; use CompareOptions.defaults()");
        }
        SortedMap<Group, double[]> samples = new TreeMap<>();
        for (Map.Entry<Group, List<Integer>> e : RunData.okRows(runs).entrySet()) {
            double[] sample = RunData.array(RunData.values(runs, column, e.getValue()));
            if (sample.length > 0) {
                samples.put(e.getKey(), sample);
            }
        }
        // "subject" or "subject[variant]": the baseline is one variant of one subject, so that the
        // other variants of the same subject (fsync against memory, say) are compared with it.
        boolean explicitVariant = baseline.endsWith("]") && baseline.indexOf('[') > 0;
        String baseSubject = explicitVariant ? baseline.substring(0, baseline.indexOf('[')) : baseline;
        checkBaseline(runs, baseSubject);
        String baseVariant = explicitVariant ? baseline.substring(baseline.indexOf('[') + 1, baseline.length() - 1)
                : firstVariant(runs, baseSubject);
        Direction direction = Direction.of(metric);
        List<ComparisonRow> out = new ArrayList<>();
        for (Map.Entry<Group, double[]> e : samples.entrySet()) {
            Group g = e.getKey();
            Summary s = Summary.of(e.getValue());
            if (g.subject().equals(baseSubject) && g.variant().equals(baseVariant)) {
                out.add(row(g, metric, s, 1, new double[] {Double.NaN, Double.NaN}, Double.NaN, Double.NaN,
                        Verdict.BASELINE, g.subjectLabel(), "baseline"));
                continue;
            }
            Optional<Group> base = baselineGroup(samples, baseSubject, baseVariant,
                    explicitVariant || g.subject().equals(baseSubject), g);
            if (base.isEmpty()) {
                out.add(row(g, metric, s, Double.NaN, new double[] {Double.NaN, Double.NaN}, Double.NaN, Double.NaN,
                        Verdict.NO_BASELINE, baseline, "baseline has no ok run on workload " + g.workload()));
                continue;
            }
            out.add(compareWith(g, e.getValue(), base.get(), samples.get(base.get()), metric, direction, options));
        }
        return out;
    }

    /**
     * The baseline used when none is given: the first subject, in name order, with a successful run.
     *
     * @throws StatsException when the table has no successful run
     */
    public static String defaultBaseline(Table runs) {
        RunData.requireRunColumns(runs);
        SortedMap<Group, List<Integer>> ok = RunData.okRows(runs);
        if (ok.isEmpty()) {
            throw new StatsException("no successful runs (status ok) to pick a baseline from");
        }
        return ok.firstKey().subject();
    }

    /** The table form of comparison rows; column order as in {@link #compare}. */
    public static Table toTable(String metric, List<ComparisonRow> rows) {
        Map<String, DoubleColumn> d = new LinkedHashMap<>();
        for (String name : List.of("mean", "sd", "ci_low", "ci_high", "ratio", "ratio_ci_low", "ratio_ci_high",
                "p_welch", "p_mannwhitney")) {
            d.put(name, DoubleColumn.create(name));
        }
        StringColumn subject = StringColumn.create("subject");
        StringColumn workload = StringColumn.create("workload");
        StringColumn metricName = StringColumn.create("metric");
        IntColumn n = IntColumn.create("n");
        StringColumn verdict = StringColumn.create("verdict");
        StringColumn variant = StringColumn.create("variant");
        StringColumn baseline = StringColumn.create("baseline");
        StringColumn note = StringColumn.create("note");
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
        }
        Table t = Table.create(metric + " comparison", subject, workload, metricName, n);
        t.addColumns(d.values().toArray(DoubleColumn[]::new));
        return t.addColumns(verdict, variant, baseline, note);
    }

    private static void checkBaseline(Table runs, String baseline) {
        TreeSet<String> withOk = new TreeSet<>();
        RunData.okRows(runs).keySet().forEach(g -> withOk.add(g.subject()));
        if (withOk.contains(baseline)) {
            return;
        }
        TreeSet<String> all = new TreeSet<>();
        for (int i = 0; i < runs.rowCount(); i++) {
            all.add(RunData.group(runs, i).subject());
        }
        String why = all.contains(baseline) ? "has no successful run (status ok)" : "is not a subject of these runs";
        throw new StatsException("baseline '" + baseline + "' " + why + "; subjects with successful runs: "
                + (withOk.isEmpty() ? "(none)" : String.join(", ", withOk)));
    }

    /**
     * The baseline group for {@code g}: the baseline's own variant when it is fixed (given
     * explicitly, or {@code g} is another variant of the baseline subject); otherwise the
     * baseline's group with the same variant label as {@code g}, else its default variant.
     */
    private static Optional<Group> baselineGroup(SortedMap<Group, double[]> samples, String baseSubject,
                                                 String baseVariant, boolean fixedVariant, Group g) {
        Group fixed = new Group(baseSubject, baseVariant, g.workload());
        if (!fixedVariant) {
            Group sameVariant = new Group(baseSubject, g.variant(), g.workload());
            if (samples.containsKey(sameVariant)) {
                return Optional.of(sameVariant);
            }
        }
        return samples.containsKey(fixed) ? Optional.of(fixed) : Optional.empty();
    }

    /** The variant of the subject's first successful run in table order (the runner plans the default first). */
    private static String firstVariant(Table runs, String subject) {
        for (int i = 0; i < runs.rowCount(); i++) {
            Group g = RunData.group(runs, i);
            if (g.subject().equals(subject) && "ok".equals(runs.stringColumn("status").get(i))) {
                return g.variant();
            }
        }
        return "";
    }

    private static ComparisonRow compareWith(Group g, double[] a, Group base, double[] b, String metric,
                                             Direction direction, CompareOptions o) {
        Summary s = Summary.of(a);
        double baseMean = Summary.mean(b);
        if (baseMean == 0) {
            return row(g, metric, s, Double.NaN, new double[] {Double.NaN, Double.NaN}, Double.NaN, Double.NaN,
                    Verdict.NO_CLEAR_DIFFERENCE, base.subjectLabel(), "baseline mean is 0, so there is no ratio");
        }
        double ratio = s.mean() / baseMean;
        if (a.length < 2 || b.length < 2) {
            String note = String.format(Locale.ROOT, "too few rounds: n=%d, baseline n=%d, need 2 each",
                    a.length, b.length);
            return row(g, metric, s, ratio, new double[] {Double.NaN, Double.NaN}, Double.NaN, Double.NaN,
                    Verdict.NO_CLEAR_DIFFERENCE, base.subjectLabel(), note);
        }
        double[] ratioCi = Bootstrap.ratioInterval(a, b, o.bootstrap(), o.seed());
        double pWelch = welch(a, b);
        double pMannWhitney = new MannWhitneyUTest().mannWhitneyUTest(a, b);
        Verdict verdict = Verdict.NO_CLEAR_DIFFERENCE;
        String note;
        if (!(pWelch < o.alpha())) {
            note = String.format(Locale.ROOT, "not significant: p_welch %.3g >= alpha %s", pWelch,
                    BigDecimal.valueOf(o.alpha()).stripTrailingZeros().toPlainString());
        } else if (Math.abs(ratio - 1) <= o.noise()) {
            note = String.format(Locale.ROOT, "significant, but within the noise threshold of %.2f%%", o.noise() * 100);
        } else {
            verdict = direction.verdict(ratio);
            note = "";
        }
        return row(g, metric, s, ratio, ratioCi, pWelch, pMannWhitney, verdict, base.subjectLabel(), note);
    }

    /** Two-sided Welch p; commons-math3 cannot handle two samples without variance, so decide those here. */
    static double welch(double[] a, double[] b) {
        if (Summary.variance(a, Summary.mean(a)) == 0 && Summary.variance(b, Summary.mean(b)) == 0) {
            return Summary.mean(a) == Summary.mean(b) ? 1 : 0;
        }
        return new TTest().tTest(a, b);
    }

    private static ComparisonRow row(Group g, String metric, Summary s, double ratio, double[] ratioCi,
                                     double pWelch, double pMannWhitney, Verdict verdict, String baseline,
                                     String note) {
        return new ComparisonRow(g.subject(), g.workload(), metric, s.n(), s.mean(), s.sd(), s.ciLow(), s.ciHigh(),
                ratio, ratioCi[0], ratioCi[1], pWelch, pMannWhitney, verdict, g.variant(), baseline, note);
    }
}
