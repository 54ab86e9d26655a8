package io.loadlab.stats;

import io.loadlab.data.Group;
import io.loadlab.data.RunColumn;
import io.loadlab.format.Figure;
import io.loadlab.format.Units;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A comparison in sentences, one per group against its baseline, as hyperfine sums up a run:
 * {@code java-netty ran 1.81× [1.78, 1.84] faster than go-nethttp on plaintext (paired, n = 5)}.
 * The faster of the two comes first, so the factor is at least 1 and reads the same way whichever
 * was the baseline; the bracket is the ratio's bootstrap 95% CI turned the same way. A group
 * without a called difference says its verdict's {@link Verdict#label() label} instead. Stateless;
 * figures rounded by {@link Units}.
 */
public final class Sentences {

    private Sentences() {
    }

    /**
     * One sentence per group other than the baselines, in reading order: by workload, then subject
     * and variant.
     *
     * @param rows the rows of one comparison ({@link Comparison#rows}); the baselines' own rows give
     *             the baseline's n
     */
    public static List<String> of(List<ComparisonRow> rows) {
        List<String> out = new ArrayList<>();
        for (ComparisonRow r : readingOrder(rows)) {
            if (r.verdict() != Verdict.BASELINE) {
                out.add(of(r, baselineRow(rows, r)));
            }
        }
        return out;
    }

    /** The rows by workload, the baseline first, then the others by subject and variant. */
    public static List<ComparisonRow> readingOrder(List<ComparisonRow> rows) {
        List<ComparisonRow> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(ComparisonRow::workload)
                .thenComparing(r -> r.verdict() != Verdict.BASELINE)
                .thenComparing(ComparisonRow::subject).thenComparing(ComparisonRow::variant));
        return sorted;
    }

    /** The row of {@code r}'s baseline group on the same workload, when the comparison has it. */
    public static Optional<ComparisonRow> baselineRow(List<ComparisonRow> rows, ComparisonRow r) {
        return rows.stream().filter(b -> b != r && b.workload().equals(r.workload())
                && Group.subjectLabel(b.subject(), b.variant()).equals(r.baseline())).findFirst();
    }

    /**
     * One group's sentence.
     *
     * @param r    a row other than a baseline's own
     * @param base the baseline's row on the same workload, for its n (empty: n not said for it)
     */
    public static String of(ComparisonRow r, Optional<ComparisonRow> base) {
        String name = Group.subjectLabel(r.subject(), r.variant());
        String on = " on " + r.workload() + (r.metric().equals(RunColumn.RPS.id()) ? "" : " by " + r.metric());
        String how = how(r, base);
        if (r.verdict() == Verdict.FASTER || r.verdict() == Verdict.SLOWER) {
            boolean subjectWins = r.verdict() == Verdict.FASTER;
            return String.format(Locale.ROOT, "%s ran %s faster than %s%s %s", subjectWins ? name : r.baseline(),
                    factor(r), subjectWins ? r.baseline() : name, on, how);
        }
        if (r.verdict().isDifference()) {
            return String.format(Locale.ROOT, "%s had %s× %s the %s of %s on %s, %s %s", name, Units.ratio(r.ratio()),
                    Units.interval(r.ratioCiLow(), r.ratioCiHigh(), Figure.RATIO), r.metric(), r.baseline(),
                    r.workload(), r.verdictText(), how).replace("  ", " ");
        }
        if (Double.isNaN(r.ratio())) {
            return String.format(Locale.ROOT, "%s and %s%s: %s%s", name, r.baseline(), on, r.verdictText(),
                    r.note().isEmpty() ? "" : " (" + r.note() + ")");
        }
        String ci = Units.interval(r.ratioCiLow(), r.ratioCiHigh(), Figure.RATIO);
        return String.format(Locale.ROOT, "%s and %s%s: %s, ratio %s%s %s", name, r.baseline(), on,
                r.verdictText(), Units.ratio(r.ratio()), ci.isEmpty() ? "" : " " + ci, how);
    }

    /**
     * The factor by which the faster group beats the other, with its CI: the ratio, or its inverse
     * (and the CI's ends inverted and swapped) when the ratio is below 1.
     */
    static String factor(ComparisonRow r) {
        boolean invert = r.ratio() < 1;
        double f = invert ? 1 / r.ratio() : r.ratio();
        double low = invert ? 1 / r.ratioCiHigh() : r.ratioCiLow();
        double high = invert ? 1 / r.ratioCiLow() : r.ratioCiHigh();
        String ci = Units.interval(low, high, Figure.RATIO);
        return Units.ratio(f) + "×" + (ci.isEmpty() ? "" : " " + ci);
    }

    /** {@code (paired, n = 5)}, {@code (welch, n = 5 and 4)}, or {@code (n = 2 and 5)} without a test. */
    private static String how(ComparisonRow r, Optional<ComparisonRow> base) {
        String n = r.design() == Design.PAIRED || base.isEmpty() || base.get().n() == r.n()
                ? "n = " + r.n() : "n = " + r.n() + " and " + base.get().n();
        return "(" + (r.design() == Design.NONE ? "" : r.design().label() + ", ") + n + ")";
    }
}
