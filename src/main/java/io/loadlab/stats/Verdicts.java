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
     * @param pAdjusted     {@code pTest} adjusted for multiplicity within its family ({@link Adjustment});
     *                      {@code pTest} itself until {@link #adjust} is applied
     * @param pEquivalence  the TOST p of equivalence within 1 &plusmn; noise ({@link Power#pEquivalence}); NaN without a test
     * @param effect        the log-scale effect the power figures come from; empty without a test
     * @param verdict       the outcome
     * @param note          why the verdict is what it is; "" for a called difference
     */
    record Judgement(double ratio, double ratioCiLow, double ratioCiHigh, Design design, double pTest,
                     double pWelch, double pMannWhitney, double pAdjusted, double pEquivalence,
                     Optional<Power.Effect> effect, Verdict verdict, String note) {

        /** The smallest difference the rule would call with 80% power, a fraction; NaN without a test. */
        double smallestDetectable(CompareOptions o) {
            return effect.map(e -> Power.smallestDetectable(e, o.alpha(), o.noise())).orElse(Double.NaN);
        }

        /** The rounds each that would decide an undecided comparison; NaN when decided or without a test. */
        double roundsAdvised(CompareOptions o) {
            return verdict == Verdict.UNDECIDED
                    ? effect.map(e -> Power.roundsAdvised(e, o.alpha(), o.noise())).orElse(Double.NaN) : Double.NaN;
        }
    }

    private Verdicts() {
    }

    /** The rule in one sentence, with the options' thresholds, for people reading a table. */
    static String rule(CompareOptions o) {
        String adjusted = o.adjustment() == Adjustment.NONE ? "p < %2$s, not adjusted for multiplicity"
                : "p < %2$s after Holm's adjustment within each workload";
        return String.format(Locale.ROOT, "A difference is called only with at least %1$d rounds each, when the ratio's"
                + " 95%% bootstrap CI lies entirely outside 1 ± %3$s and the test agrees (" + adjusted + "): a paired"
                + " t-test on the per-round log ratios when both groups ran in the same rounds, else Welch's t-test."
                + " Equivalent: the ratio's %4$s CI lies inside 1 ± %3$s (two one-sided tests at %2$s). Otherwise"
                + " undecided, with the smallest difference the experiment could detect (80%% power) and the rounds"
                + " that would decide it.",
                MIN_ROUNDS, Units.exact(o.alpha()), Units.exactPercent(o.noise()),
                Units.exactPercent(1 - 2 * o.alpha()));
    }

    /**
     * Compares group a with group b, without adjustment for multiplicity ({@link #adjust} applies it).
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
            return new Judgement(ratio, ci[0], ci[1], Design.NONE, Double.NaN, pWelch, pMw, Double.NaN, Double.NaN,
                    Optional.empty(), Verdict.TOO_FEW_ROUNDS, note);
        }
        if (baseMean == 0) {
            return new Judgement(ratio, Double.NaN, Double.NaN, Design.NONE, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, Double.NaN, Optional.empty(), Verdict.UNDECIDED,
                    other + " mean is 0, so there is no ratio to call a difference or equivalence on");
        }
        Optional<double[][]> pairs = pairs(a, b);
        Design design = pairs.isPresent() ? Design.PAIRED : Design.WELCH;
        double[] ci = pairs.map(p -> Bootstrap.pairedRatioInterval(p[0], p[1], o.bootstrap(), o.seed()))
                .orElseGet(() -> Bootstrap.ratioInterval(x, y, o.bootstrap(), o.seed()));
        double pTest = pairs.map(p -> TTests.pairedLogRatio(p[0], p[1])).orElse(pWelch);
        Optional<Power.Effect> effect = pairs.isPresent() ? Optional.of(Power.paired(pairs.get()[0], pairs.get()[1]))
                : Power.independent(x, y);
        double pEq = effect.map(e -> Power.pEquivalence(e, o.noise())).orElse(Double.NaN);
        Judgement measured = new Judgement(ratio, ci[0], ci[1], design, pTest, pWelch, pMw, pTest, pEq, effect,
                Verdict.UNDECIDED, "");
        return decide(measured, direction, o);
    }

    /**
     * The judgements of one family (one workload and metric: every group against the baseline),
     * decided again on their p-values adjusted by {@code o.adjustment()}; judgements without a
     * test are returned as they are and do not count in the family.
     */
    static List<Judgement> adjust(List<Judgement> family, Direction direction, CompareOptions o) {
        double[] p = family.stream().mapToDouble(j -> j.design() == Design.NONE ? Double.NaN : j.pTest()).toArray();
        double[] adjusted = o.adjustment().adjust(p);
        List<Judgement> out = new ArrayList<>(family.size());
        for (int i = 0; i < family.size(); i++) {
            Judgement j = family.get(i);
            out.add(j.design() == Design.NONE ? j : decide(new Judgement(j.ratio(), j.ratioCiLow(), j.ratioCiHigh(),
                    j.design(), j.pTest(), j.pWelch(), j.pMannWhitney(), adjusted[i], j.pEquivalence(), j.effect(),
                    j.verdict(), j.note()), direction, o));
        }
        return out;
    }

    /**
     * {@link #adjust} applied to each family at once: {@code family.get(i)} names the family of
     * {@code judged.get(i)} (a workload, for a comparison of one metric). The judgements come back in
     * the order given.
     */
    static List<Judgement> adjustByFamily(List<Judgement> judged, List<String> family, Direction direction,
                                          CompareOptions o) {
        Map<String, List<Integer>> members = new TreeMap<>();
        for (int i = 0; i < judged.size(); i++) {
            members.computeIfAbsent(family.get(i), f -> new ArrayList<>()).add(i);
        }
        List<Judgement> out = new ArrayList<>(judged);
        for (List<Integer> at : members.values()) {
            List<Judgement> adjusted = adjust(at.stream().map(judged::get).toList(), direction, o);
            for (int k = 0; k < at.size(); k++) {
                out.set(at.get(k), adjusted.get(k));
            }
        }
        return out;
    }

    /** The three-way rule on measured figures: a difference, else equivalence, else undecided with its why. */
    private static Judgement decide(Judgement j, Direction direction, CompareOptions o) {
        boolean above = j.ratioCiLow() > 1 + o.noise();
        boolean outside = above || j.ratioCiHigh() < 1 - o.noise();
        boolean significant = j.pAdjusted() < o.alpha();
        if (outside && significant) {
            return with(j, direction.verdict(above ? j.ratioCiLow() : j.ratioCiHigh()), "");
        }
        String band = "1 ± " + Units.exactPercent(o.noise());
        String level = Units.exactPercent(1 - 2 * o.alpha());
        double[] eqCi = j.effect().map(e -> Power.equivalenceInterval(e, o.alpha()))
                .orElse(new double[] {Double.NaN, Double.NaN});
        if (j.pEquivalence() < o.alpha()) {
            return with(j, Verdict.EQUIVALENT, String.format(Locale.ROOT, "equivalent: the ratio's %s CI [%.3f, %.3f]"
                    + " lies inside %s (TOST p %s)", level, eqCi[0], eqCi[1], band, Units.p(j.pEquivalence())));
        }
        List<String> why = new ArrayList<>();
        if (!significant) {
            String adj = j.pAdjusted() == j.pTest() ? "" : ", " + o.adjustment().label() + "-adjusted " + Units.p(j.pAdjusted());
            why.add(String.format(Locale.ROOT, "not significant: p_%s %s%s >= alpha %s", j.design().label(),
                    Units.p(j.pTest()), adj, Units.exact(o.alpha())));
        }
        if (!outside) {
            why.add(String.format(Locale.ROOT, "the ratio's 95%% CI [%.3f, %.3f] is not outside the noise band %s",
                    j.ratioCiLow(), j.ratioCiHigh(), band));
        }
        why.add(o.noise() == 0 ? "no equivalence without a noise band (--noise 0)"
                : String.format(Locale.ROOT, "not equivalent: the %s CI [%.3f, %.3f] is not inside %s", level, eqCi[0],
                        eqCi[1], band));
        Judgement undecided = with(j, Verdict.UNDECIDED, "");
        why.add(advice(undecided, o));
        return with(j, Verdict.UNDECIDED, String.join("; ", why));
    }

    /** "could detect 2.9% (80% power); about 140 rounds each would decide a ratio of 1.007". */
    static String advice(Judgement j, CompareOptions o) {
        double mdd = j.smallestDetectable(o);
        double rounds = j.roundsAdvised(o);
        String n = Double.isInfinite(rounds) ? "more than " + Units.integer(Power.MAX_ROUNDS) + " rounds each"
                : "about " + Units.integer(rounds) + " rounds each";
        return String.format(Locale.ROOT, "this experiment could detect %s with 80%% power; %s would decide a ratio of %s",
                Units.percent(mdd), n, Units.ratio(j.ratio()));
    }

    private static Judgement with(Judgement j, Verdict v, String note) {
        return new Judgement(j.ratio(), j.ratioCiLow(), j.ratioCiHigh(), j.design(), j.pTest(), j.pWelch(),
                j.pMannWhitney(), j.pAdjusted(), j.pEquivalence(), j.effect(), v, note);
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
