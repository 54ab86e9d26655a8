package io.loadlab.stats;

import io.loadlab.format.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The one rule that turns two groups' rounds into a verdict, for {@link Comparison} and
 * {@link Engines} alike (see {@link Comparison} for the rule in words). Stateless.
 */
final class Verdicts {

    /** Rounds each group needs before anything is called. */
    static final int MIN_ROUNDS = 3;

    /**
     * The figures of one comparison, in the metric's unit where they have one.
     *
     * @param ratio         mean(a) / mean(b); NaN when mean(b) is 0
     * @param ratioCiLow    lower end of the 95% bootstrap CI of the ratio; NaN with fewer than 2 rounds
     * @param ratioCiHigh   upper end
     * @param design        which test and bootstrap were used
     * @param pTest         two-sided p of that test; NaN when none was made
     * @param pWelch        Welch's two-sided p, whatever the design (NaN with fewer than 2 rounds)
     * @param pMannWhitney  the Mann–Whitney U test's two-sided p ({@link MannWhitney})
     * @param verdict       the outcome
     * @param note          why the verdict is what it is; "" for a called difference
     */
    record Judgement(double ratio, double ratioCiLow, double ratioCiHigh, Design design, double pTest,
                     double pWelch, double pMannWhitney, Verdict verdict, String note) {
    }

    private Verdicts() {
    }

    /** The rule in one sentence, with the options' thresholds, for people reading a table. */
    static String rule(CompareOptions o) {
        return String.format(Locale.ROOT, "A difference is called only with at least %d rounds each, when the ratio's"
                + " 95%% bootstrap CI lies entirely outside 1 ± %s and the test agrees (p < %s): a paired t-test on"
                + " the per-round log ratios when both groups ran in the same rounds, else Welch's t-test.",
                MIN_ROUNDS, Units.exactPercent(o.noise()), Units.exact(o.alpha()));
    }

    /**
     * Compares group a with group b.
     *
     * @param a         a's values with their rounds
     * @param b         b's values, b being what a is held against; at least one value each
     * @param direction which way is better, for the verdict's words
     * @param o         thresholds and bootstrap settings
     * @param other     how notes name b, e.g. {@code baseline} or {@code builtin}
     */
    static Judgement judge(List<RunData.Obs> a, List<RunData.Obs> b, Direction direction, CompareOptions o,
                           String other) {
        double[] x = RunData.array(a);
        double[] y = RunData.array(b);
        double baseMean = Summary.mean(y);
        double ratio = baseMean == 0 ? Double.NaN : Summary.mean(x) / baseMean;
        boolean twoEach = x.length >= 2 && y.length >= 2 && baseMean != 0;
        double pWelch = twoEach ? TTests.welch(x, y) : Double.NaN;
        double pMw = twoEach ? MannWhitney.p(x, y) : Double.NaN;
        if (x.length < MIN_ROUNDS || y.length < MIN_ROUNDS) {
            double[] ci = twoEach ? Bootstrap.ratioInterval(x, y, o.bootstrap(), o.seed()) : new double[] {Double.NaN, Double.NaN};
            String note = String.format(Locale.ROOT, "too few rounds: n=%d, %s n=%d; a verdict needs %d rounds each",
                    x.length, other, y.length, MIN_ROUNDS);
            return new Judgement(ratio, ci[0], ci[1], Design.NONE, Double.NaN, pWelch, pMw, Verdict.TOO_FEW_ROUNDS, note);
        }
        if (baseMean == 0) {
            return new Judgement(ratio, Double.NaN, Double.NaN, Design.NONE, Double.NaN, Double.NaN, Double.NaN,
                    Verdict.NO_CLEAR_DIFFERENCE, other + " mean is 0, so there is no ratio");
        }
        Optional<double[][]> pairs = pairs(a, b);
        Design design = pairs.isPresent() ? Design.PAIRED : Design.WELCH;
        double[] ci = pairs.map(p -> Bootstrap.pairedRatioInterval(p[0], p[1], o.bootstrap(), o.seed()))
                .orElseGet(() -> Bootstrap.ratioInterval(x, y, o.bootstrap(), o.seed()));
        double pTest = pairs.map(p -> TTests.pairedLogRatio(p[0], p[1])).orElse(pWelch);
        boolean above = ci[0] > 1 + o.noise();
        boolean outside = above || ci[1] < 1 - o.noise();
        boolean significant = pTest < o.alpha();
        if (outside && significant) {
            return new Judgement(ratio, ci[0], ci[1], design, pTest, pWelch, pMw,
                    direction.verdict(above ? ci[0] : ci[1]), "");
        }
        List<String> why = new ArrayList<>();
        if (!significant) {
            why.add(String.format(Locale.ROOT, "not significant: p_%s %s >= alpha %s", design.label(), Units.p(pTest),
                    Units.exact(o.alpha())));
        }
        if (!outside) {
            why.add(String.format(Locale.ROOT, "the ratio's 95%% CI [%.3f, %.3f] is not outside the noise band 1 ± %s",
                    ci[0], ci[1], Units.exactPercent(o.noise())));
        }
        return new Judgement(ratio, ci[0], ci[1], design, pTest, pWelch, pMw, Verdict.NO_CLEAR_DIFFERENCE,
                String.join("; ", why));
    }

    /**
     * Both groups' values aligned by round, when the rounds are blocks of a paired design: both
     * have exactly one value in each of the same rounds (experiment and round), at least
     * {@value #MIN_ROUNDS} of them, and every value is positive (the test takes logarithms). A
     * round missing from one group (a failed run) makes the design unpaired, so that every figure
     * of the comparison comes from the same rounds.
     */
    static Optional<double[][]> pairs(List<RunData.Obs> a, List<RunData.Obs> b) {
        Optional<Map<String, Double>> ma = byBlock(a);
        Optional<Map<String, Double>> mb = byBlock(b);
        if (ma.isEmpty() || mb.isEmpty() || !ma.get().keySet().equals(mb.get().keySet())
                || ma.get().size() < MIN_ROUNDS) {
            return Optional.empty();
        }
        double[][] out = new double[2][ma.get().size()];
        int i = 0;
        for (String block : ma.get().keySet()) {
            out[0][i] = ma.get().get(block);
            out[1][i++] = mb.get().get(block);
        }
        return Optional.of(out);
    }

    /** Values by block; empty when a block holds two values or a value is not positive. */
    private static Optional<Map<String, Double>> byBlock(List<RunData.Obs> obs) {
        Map<String, Double> out = new TreeMap<>();
        for (RunData.Obs x : obs) {
            if (!(x.value() > 0) || out.put(x.block(), x.value()) != null) {
                return Optional.empty();
            }
        }
        return Optional.of(out);
    }
}
