package io.loadlab.stats;

import io.loadlab.format.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Whether two experiments agree on one pair of subjects: (X / Y in A) ÷ (X / Y in B), its
 * bootstrap CI and a test, and the rule that turns them into an {@link Agreement}. Stateless.
 *
 * <p>Within each experiment the ratio is a ratio of means, resampled as {@link Comparison} does
 * (by rounds when X and Y ran in the same rounds, else each on its own); the two experiments are
 * independent, so each bootstrap replicate of the ratio of ratios divides a replicate of A's
 * ratio by an independent replicate of B's. The test is Welch's t-test on the log scale: each
 * experiment gives an estimate of ln(X / Y) with its variance and degrees of freedom (paired:
 * the mean of the per-round log ratios, their variance / n, n − 1; otherwise ln(mean X / mean
 * Y) with the delta method's variance and Welch–Satterthwaite's degrees of freedom), and the
 * difference of the two estimates is tested against 0. With paired rounds in both experiments it
 * is exactly Welch's test of A's per-round log ratios against B's.
 */
final class RatioOfRatios {

    /**
     * One pair of subjects held against itself in two experiments.
     *
     * @param ratioA  mean(X) / mean(Y) in A
     * @param ratioB  the same in B
     * @param value   ratioA / ratioB
     * @param ciLow   lower end of its 95% bootstrap CI; NaN with fewer than 2 rounds somewhere
     * @param ciHigh  upper end
     * @param p       the test's two-sided p; NaN with fewer than 2 rounds somewhere
     * @param designA how A's ratio was resampled and estimated
     * @param designB the same for B
     * @param nA      rounds in A with values of both subjects (the smaller count of the two)
     * @param nB      the same in B
     * @param outcome the rule's outcome
     * @param note    why, in words: the condition that failed, or "" for a disagreement
     */
    record Judgement(double ratioA, double ratioB, double value, double ciLow, double ciHigh, double p,
                     Design designA, Design designB, int nA, int nB, Agreement outcome, String note) {
    }

    /** One experiment's estimate of ln(X / Y): value, variance, degrees of freedom. */
    private record LogRatio(double value, double variance, double df) {
    }

    private RatioOfRatios() {
    }

    /**
     * Judges one pair.
     *
     * @param xa X's values in A with their rounds, {@code ya} Y's; {@code xb}, {@code yb} in B;
     *           at least one value each, all finite
     */
    static Judgement judge(List<RunData.Obs> xa, List<RunData.Obs> ya, List<RunData.Obs> xb, List<RunData.Obs> yb,
                           CompareOptions o) {
        Optional<double[][]> pa = Verdicts.pairs(xa, ya);
        Optional<double[][]> pb = Verdicts.pairs(xb, yb);
        double[][] a = pa.orElseGet(() -> new double[][] {RunData.array(xa), RunData.array(ya)});
        double[][] b = pb.orElseGet(() -> new double[][] {RunData.array(xb), RunData.array(yb)});
        double ratioA = Summary.mean(a[0]) / Summary.mean(a[1]);
        double ratioB = Summary.mean(b[0]) / Summary.mean(b[1]);
        double value = ratioA / ratioB;
        int nA = Math.min(a[0].length, a[1].length);
        int nB = Math.min(b[0].length, b[1].length);
        Design designA = pa.isPresent() ? Design.PAIRED : Design.WELCH;
        Design designB = pb.isPresent() ? Design.PAIRED : Design.WELCH;
        if (Math.min(nA, nB) < 2 || !(ratioA > 0) || !(ratioB > 0)) {
            return new Judgement(ratioA, ratioB, value, Double.NaN, Double.NaN, Double.NaN, Design.NONE, Design.NONE,
                    nA, nB, Agreement.TOO_FEW_ROUNDS, tooFew(nA, nB));
        }
        double[] ci = interval(a, pa.isPresent(), b, pb.isPresent(), o);
        double p = test(logRatio(a, pa.isPresent()), logRatio(b, pb.isPresent()));
        if (Math.min(nA, nB) < Verdicts.MIN_ROUNDS) {
            return new Judgement(ratioA, ratioB, value, ci[0], ci[1], p, designA, designB, nA, nB,
                    Agreement.TOO_FEW_ROUNDS, tooFew(nA, nB));
        }
        boolean outside = ci[0] > 1 + o.noise() || ci[1] < 1 - o.noise();
        boolean significant = p < o.alpha();
        if (outside && significant) {
            return new Judgement(ratioA, ratioB, value, ci[0], ci[1], p, designA, designB, nA, nB, Agreement.DISAGREE, "");
        }
        List<String> why = new ArrayList<>();
        if (!significant) {
            why.add(String.format(Locale.ROOT, "not significant: p %s >= alpha %s", Units.p(p), Units.exact(o.alpha())));
        }
        if (!outside) {
            why.add(String.format(Locale.ROOT, "the 95%% CI [%.3f, %.3f] is not outside the noise band 1 ± %s", ci[0],
                    ci[1], Units.exactPercent(o.noise())));
        }
        return new Judgement(ratioA, ratioB, value, ci[0], ci[1], p, designA, designB, nA, nB, Agreement.WITHIN_NOISE,
                String.join("; ", why));
    }

    private static String tooFew(int nA, int nB) {
        return String.format(Locale.ROOT, "too few rounds: %d in A, %d in B; reconciling needs %d rounds of both"
                + " subjects in each experiment", nA, nB, Verdicts.MIN_ROUNDS);
    }

    /** The 95% percentile interval of independent replicates of A's ratio over B's. */
    private static double[] interval(double[][] a, boolean pairedA, double[][] b, boolean pairedB, CompareOptions o) {
        SplittableRandom random = new SplittableRandom(o.seed());
        double[] ra = Bootstrap.ratios(a[0], a[1], pairedA, o.bootstrap(), random);
        double[] rb = Bootstrap.ratios(b[0], b[1], pairedB, o.bootstrap(), random);
        double[] ror = new double[ra.length];
        for (int i = 0; i < ra.length; i++) {
            ror[i] = ra[i] / rb[i];
        }
        return Bootstrap.interval(ror);
    }

    /**
     * ln(X / Y) of one experiment: from the per-round log ratios when paired; else the log of
     * the ratio of means, with the delta method's variance var(x) / (n m²) + var(y) / (n m²).
     */
    private static LogRatio logRatio(double[][] xy, boolean paired) {
        if (paired) {
            double[] d = TTests.logRatios(xy[0], xy[1]);
            double mean = Summary.mean(d);
            return new LogRatio(mean, Summary.variance(d, mean) / d.length, d.length - 1);
        }
        double mx = Summary.mean(xy[0]);
        double my = Summary.mean(xy[1]);
        double vx = Summary.variance(xy[0], mx) / (xy[0].length * mx * mx);
        double vy = Summary.variance(xy[1], my) / (xy[1].length * my * my);
        double v = vx + vy;
        double df = v == 0 ? xy[0].length + xy[1].length - 2
                : v * v / (vx * vx / (xy[0].length - 1) + vy * vy / (xy[1].length - 1));
        return new LogRatio(Math.log(mx / my), v, df);
    }

    /**
     * Welch's test of two independent estimates: t = (a − b) / sqrt(va + vb) with
     * Welch–Satterthwaite's degrees of freedom. Without any variance, p is 1 for equal estimates
     * and 0 otherwise (t is infinite).
     */
    static double test(double a, double va, double dfa, double b, double vb, double dfb) {
        double v = va + vb;
        if (v == 0) {
            return a == b ? 1 : 0;
        }
        double t = (a - b) / Math.sqrt(v);
        double df = v * v / ((va == 0 ? 0 : va * va / dfa) + (vb == 0 ? 0 : vb * vb / dfb));
        return 2 * new TDistribution(df).cumulativeProbability(-Math.abs(t));
    }

    private static double test(LogRatio a, LogRatio b) {
        return test(a.value(), a.variance(), a.df(), b.value(), b.variance(), b.df());
    }
}
