package io.loadlab.stats;

import io.loadlab.data.Group;
import io.loadlab.format.Figure;
import io.loadlab.format.Units;
import java.util.Locale;

/**
 * One group compared with the baseline; the figures are in the unit of the metric. NaN marks a
 * figure that is undefined (e.g. p-values with fewer than 2 rounds, or every ratio figure of
 * the baseline's own rows except the ratio itself).
 *
 * @param subject        the subject of the group
 * @param workload       the workload of the group
 * @param metric         the metric compared
 * @param n              successful rounds with a value
 * @param mean           mean over those rounds
 * @param sd             sample standard deviation (NaN when n = 1)
 * @param ciLow          lower end of the 95% CI of the mean
 * @param ciHigh         upper end of the 95% CI of the mean
 * @param ratio          mean / baseline mean (1 for the baseline's rows)
 * @param ratioCiLow     lower end of the 95% percentile-bootstrap CI of the ratio (paired or
 *                       independent, as {@code design} says)
 * @param ratioCiHigh    upper end of that interval
 * @param pWelch         two-sided p-value of Welch's t-test against the baseline, whatever the design
 * @param pMannWhitney   two-sided p-value of the Mann–Whitney U test (exact for small samples
 *                       without ties, else the normal approximation; see {@link Comparison})
 * @param verdict        the outcome
 * @param variant        the variant label of the group (engine and split settings included), "" when none
 * @param baseline       the baseline group compared with: subject, with its variant in brackets
 * @param note           why the verdict is what it is, where that is not obvious; "" otherwise
 * @param design         the test that decided: {@link Design#PAIRED}, {@link Design#WELCH}, or
 *                       {@link Design#NONE} when no test was made
 * @param pTest          two-sided p-value of that test (the paired t-test on log ratios, or
 *                       Welch's); NaN when none was made
 * @param pAdjusted      {@code pTest} adjusted for multiplicity within the row's family (one workload
 *                       and metric) by {@code adjustment}; the p the verdict used; NaN when no test
 * @param adjustment     the multiplicity adjustment of {@code pAdjusted}
 * @param pEquivalence   the p-value of the two one-sided tests of equivalence within 1 &plusmn; noise
 *                       (TOST); NaN when no test was made
 * @param smallestDetectable the smallest difference the verdict rule would call with 80% power,
 *                       from this comparison's own rounds and noise, as a fraction (0.029 = 2.9%);
 *                       NaN when no test was made
 * @param roundsAdvised  for an {@link Verdict#UNDECIDED} row, about how many rounds each would decide
 *                       it if the true ratio were the one observed (infinite when it lies on the
 *                       band's edge); NaN for every other row
 */
public record ComparisonRow(String subject, String workload, String metric, int n, double mean, double sd,
                            double ciLow, double ciHigh, double ratio, double ratioCiLow, double ratioCiHigh,
                            double pWelch, double pMannWhitney, Verdict verdict, String variant, String baseline,
                            String note, Design design, double pTest, double pAdjusted,
                            Adjustment adjustment, double pEquivalence, double smallestDetectable,
                            double roundsAdvised) {

    public ComparisonRow {
        if (subject == null || workload == null || metric == null || verdict == null || variant == null
                || baseline == null || note == null || design == null || adjustment == null) {
            throw new StatsException("comparison row: subject, workload, metric, verdict, variant, baseline, "
                    + "note, design and adjustment must not be null (subject " + subject + ", workload " + workload + ")");
        }
        if (n < 0) {
            throw new StatsException("comparison row: n must not be negative, got " + n);
        }
    }

    /**
     * One line with the figures rounded for reading, such as {@code java-netty [durability=memory] /
     * plaintext rps: n=5 mean=25,925 ratio=0.576 [0.396, 0.744] vs go-nethttp [durability=memory],
     * p_paired=0.043 p_holm=0.086 p_welch=0.0056 p_mw=0.0079: undecided (...)}.
     */
    @Override
    public String toString() {
        String name = Group.subjectLabel(subject, variant);
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%s / %s %s: n=%d mean=%s", name, workload,
                metric, n, Figure.of(metric).format(mean)));
        if (verdict == Verdict.BASELINE) {
            return b.append(" (baseline)").toString();
        }
        b.append(String.format(Locale.ROOT, " ratio=%s %s vs %s, ", Units.ratio(ratio),
                Units.interval(ratioCiLow, ratioCiHigh, Figure.RATIO), baseline));
        if (design == Design.PAIRED) {
            b.append(p("p_paired", pTest)).append(' ');
        }
        if (design != Design.NONE && adjustment != Adjustment.NONE) {
            b.append(p("p_" + adjustment.label(), pAdjusted)).append(' ');
        }
        b.append(p("p_welch", pWelch)).append(' ').append(p("p_mw", pMannWhitney)).append(": ").append(verdict.label());
        if (!note.isEmpty()) {
            b.append(" (").append(note).append(')');
        }
        return b.toString();
    }

    /**
     * The verdict as a table cell: its label, and for an undecided row what the experiment could
     * detect and the rounds that would decide it, such as {@code undecided (mdd 2.9%, ~140 rounds)}
     * (mdd: the smallest difference detectable with 80% power).
     */
    public String verdictText() {
        if (verdict != Verdict.UNDECIDED || Double.isNaN(smallestDetectable)) {
            return verdict.label();
        }
        String rounds = Double.isInfinite(roundsAdvised) ? Power.roundsShown().format(roundsAdvised)
                : "~" + Units.integer(roundsAdvised);
        return String.format(Locale.ROOT, "%s (mdd %s, %s rounds)", verdict.label(), Units.percent(smallestDetectable),
                rounds);
    }

    /** {@code p_welch=0.0056}, or {@code p_welch < 0.001} below what is worth printing. */
    private static String p(String name, double p) {
        String v = Units.p(p);
        return v.startsWith("<") ? name + " " + v : name + "=" + v;
    }
}
