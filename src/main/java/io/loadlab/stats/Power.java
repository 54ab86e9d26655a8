package io.loadlab.stats;

import io.loadlab.format.Figure;
import java.util.Optional;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import tech.tablesaw.columns.numbers.NumberColumnFormatter;

/**
 * What one comparison could have seen, on the log scale of the ratio: the two one-sided tests of
 * equivalence (Schuirmann 1987), the smallest difference the verdict rule would call with 80%
 * power, and about how many rounds would decide a comparison that is undecided. Stateless.
 *
 * <p>The effect is d = ln(ratio) with its standard error: for paired rounds the mean and
 * sd/&radic;n of the per-round log ratios (n &minus; 1 degrees of freedom); for independent
 * groups the delta method, se&sup2; = cv_a&sup2;/n_a + cv_b&sup2;/n_b with Welch&ndash;Satterthwaite
 * degrees of freedom. The noise band is [ln(1 &minus; noise), ln(1 + noise)].
 */
final class Power {

    /** The power at which the smallest detectable difference and the rounds advised are stated. */
    static final double POWER = 0.80;
    /**
     * The confidence with which the noise per round used for planning is at least the true one:
     * the observed sd is raised to its one-sided 80% upper confidence limit,
     * sd &middot; &radic;(&nu; / &chi;&sup2;<sub>0.20, &nu;</sub>) (Browne 1995), because the sd of a
     * few rounds is most often below the truth (with 3 rounds its median is 0.83 of it) and rounds
     * planned on it fall short.
     */
    static final double NOISE_CONFIDENCE = 0.80;
    /** Rounds beyond which the advice is "more than this": the comparison is at the band's edge. */
    static final int MAX_ROUNDS = 10_000;

    /**
     * How rounds advised are shown, in a table's column and in a verdict's text alike: a count, and past
     * {@link #MAX_ROUNDS} (infinity: the search gave up) {@code > 10,000}, not {@code inf}.
     */
    static NumberColumnFormatter roundsShown() {
        return Figure.COUNT.formatter(MAX_ROUNDS);
    }

    private Power() {
    }

    /**
     * The effect of one comparison.
     *
     * @param d      ln of the ratio (mean log ratio when paired)
     * @param se     its standard error, 0 or more
     * @param df     degrees of freedom of its t distribution, more than 0
     * @param unitSd the standard error times &radic;n: what one more round buys, for planning
     * @param paired whether the rounds were paired (then df = n &minus; 1, else about 2n &minus; 2)
     */
    record Effect(double d, double se, double df, double unitSd, boolean paired) {

        /** The same effect and noise with {@code n} rounds each. */
        Effect withRounds(int n) {
            return new Effect(d, unitSd / Math.sqrt(n), paired ? n - 1 : 2.0 * n - 2, unitSd, paired);
        }
    }

    /** The effect of paired rounds: a[i] and b[i] of the same round, all positive, 3 or more. */
    static Effect paired(double[] a, double[] b) {
        double[] logs = TTests.logRatios(a, b);
        double mean = Summary.mean(logs);
        double sd = Math.sqrt(Summary.variance(logs, mean));
        return new Effect(mean, sd / Math.sqrt(logs.length), logs.length - 1, sd, true);
    }

    /** The effect of independent groups by the delta method; empty when a mean is not positive. */
    static Optional<Effect> independent(double[] a, double[] b) {
        double ma = Summary.mean(a);
        double mb = Summary.mean(b);
        if (!(ma > 0 && mb > 0) || a.length < 2 || b.length < 2) {
            return Optional.empty();
        }
        double va = Summary.variance(a, ma) / (ma * ma) / a.length;
        double vb = Summary.variance(b, mb) / (mb * mb) / b.length;
        double se = Math.sqrt(va + vb);
        double denominator = va * va / (a.length - 1) + vb * vb / (b.length - 1);
        double df = denominator == 0 ? a.length + b.length - 2 : (va + vb) * (va + vb) / denominator;
        double unit = Math.sqrt(va * a.length + vb * b.length);
        return Optional.of(new Effect(Math.log(ma / mb), se, df, unit, false));
    }

    /**
     * The TOST p-value: the larger of the two one-sided p-values of H0 "d &le; ln(1 &minus; noise)"
     * and H0 "d &ge; ln(1 + noise)". Below alpha, the ratio's (1 &minus; 2&alpha;) interval lies
     * inside the band. 1 with a noise of 0 (no band to be inside); with se = 0, 0 inside the band
     * and 1 outside.
     */
    static double pEquivalence(Effect e, double noise) {
        double low = noise >= 1 ? Double.NEGATIVE_INFINITY : Math.log(1 - noise);
        double high = Math.log(1 + noise);
        if (noise == 0) {
            return 1;
        }
        if (e.se() == 0) {
            return e.d() > low && e.d() < high ? 0 : 1;
        }
        TDistribution t = t(e.df());
        double pLow = low == Double.NEGATIVE_INFINITY ? 0 : 1 - t.cumulativeProbability((e.d() - low) / e.se());
        double pHigh = t.cumulativeProbability((e.d() - high) / e.se());
        return Math.max(pLow, pHigh);
    }

    /** The ratio's (1 &minus; 2&alpha;) t interval, exp(d &plusmn; t<sub>1&minus;&alpha;</sub> se): TOST's interval. */
    static double[] equivalenceInterval(Effect e, double alpha) {
        double half = t(e.df()).inverseCumulativeProbability(1 - alpha) * e.se();
        return new double[] {Math.exp(e.d() - half), Math.exp(e.d() + half)};
    }

    /**
     * The smallest true difference that the verdict rule would call with 80% power, as a fraction
     * (0.029 = 2.9%): the band's edge plus what the test needs,
     * exp(ln(1 + noise) + (t<sub>1&minus;&alpha;/2, &nu;</sub> + t<sub>0.80, &nu;</sub>)&middot;se) &minus; 1.
     * With a noise of 0 it is the standard formula of a t-test's minimum detectable effect.
     */
    static double smallestDetectable(Effect e, double alpha, double noise) {
        TDistribution t = t(e.df());
        double need = t.inverseCumulativeProbability(1 - alpha / 2) + t.inverseCumulativeProbability(POWER);
        return Math.expm1(Math.log1p(noise) + need * e.se());
    }

    /**
     * About how many rounds each would decide a comparison whose true ratio is the one observed,
     * with 80% power at the observed noise per round: outside the band, the rounds at which
     * (t<sub>1&minus;&alpha;/2</sub> + t<sub>0.80</sub>)&middot;se(n) reaches the distance to the
     * band's edge (a difference); inside, the rounds at which
     * (t<sub>1&minus;&alpha;</sub> + t<sub>0.80</sub>)&middot;se(n) reaches the distance to the
     * nearer edge (equivalence). se(n) comes from the noise per round raised to its upper
     * confidence limit ({@link #NOISE_CONFIDENCE}). Infinite past {@value #MAX_ROUNDS} rounds (a
     * ratio on the edge).
     */
    static double roundsAdvised(Effect observed, double alpha, double noise) {
        double upper = Math.sqrt(observed.df() / new ChiSquaredDistribution(null, observed.df())
                .inverseCumulativeProbability(1 - NOISE_CONFIDENCE));
        Effect e = new Effect(observed.d(), observed.se(), observed.df(), observed.unitSd() * upper, observed.paired());
        double low = noise >= 1 ? Double.NEGATIVE_INFINITY : Math.log(1 - noise);
        double high = Math.log(1 + noise);
        boolean outside = e.d() > high || e.d() < low;
        double margin = outside ? Math.max(e.d() - high, low - e.d()) : Math.min(high - e.d(), e.d() - low);
        double level = outside ? 1 - alpha / 2 : 1 - alpha;
        if (!(margin > 0) || !enough(e.withRounds(MAX_ROUNDS), margin, level)) {
            return Double.POSITIVE_INFINITY;
        }
        int lo = 2;
        int hi = MAX_ROUNDS;
        // Enough rounds is monotone in n: se falls as 1/sqrt(n) and the t quantiles fall with df.
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (enough(e.withRounds(mid), margin, level)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return Math.max(hi, Verdicts.MIN_ROUNDS);
    }

    private static boolean enough(Effect e, double margin, double level) {
        TDistribution t = t(e.df());
        return (t.inverseCumulativeProbability(level) + t.inverseCumulativeProbability(POWER)) * e.se() <= margin;
    }

    private static TDistribution t(double df) {
        return new TDistribution(null, df, 1e-12);
    }
}
