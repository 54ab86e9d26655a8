package io.loadlab.stats;

import io.loadlab.data.Group;
import io.loadlab.format.Figure;
import io.loadlab.format.Units;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The warnings about a group's values of one metric across its rounds: high_cv, outlier,
 * slow_first_round and drift. Stateless.
 */
final class RoundWarnings {

    /** Iglewicz and Hoaglin's constant: 0.6745 * (x - median) / MAD is comparable to a Z-score. */
    private static final double MAD_TO_Z = 0.6745;

    private RoundWarnings() {
    }

    static Optional<Warning> highCv(Group g, String metric, List<RunData.Obs> obs, WarningOptions o) {
        if (obs.size() < 2) {
            return Optional.empty();
        }
        Summary s = Summary.of(RunData.array(obs));
        if (!(s.cv() > o.maxCv())) {
            return Optional.empty();
        }
        List<Integer> rounds = RunData.roundsOf(obs);
        return Optional.of(Warnings.warning("high_cv", g, rounds, String.format(Locale.ROOT,
                "%s: %s varies by %s (cv) over %s, more than %.1f%%; the figures are noisy",
                g.label(), metric, Units.percent(s.cv()), RunData.roundList(rounds), o.maxCv() * 100)));
    }

    /** Rounds the modified Z-score needs: with fewer, the MAD is one of two or three distances. */
    static final int OUTLIER_MIN_ROUNDS = 5;

    /**
     * Rounds whose modified Z-score (Iglewicz and Hoaglin) is beyond the limit. Not below
     * {@value #OUTLIER_MIN_ROUNDS} rounds: with three, the MAD is the smaller of two distances, so a
     * round a little off two close ones scores in the thousands (seen: -2655 for a 4% difference).
     */
    static Optional<Warning> outliers(Group g, String metric, List<RunData.Obs> obs, WarningOptions o) {
        if (obs.size() < OUTLIER_MIN_ROUNDS) {
            return Optional.empty();
        }
        double median = median(RunData.array(obs));
        double mad = median(obs.stream().mapToDouble(x -> Math.abs(x.value() - median)).toArray());
        if (mad == 0) {
            // Over half the rounds are equal; any other value would score infinite.
            return Optional.empty();
        }
        List<Integer> rounds = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (RunData.Obs x : obs) {
            double z = MAD_TO_Z * (x.value() - median) / mad;
            if (Math.abs(z) > o.outlierScore()) {
                rounds.add(x.round());
                details.add(String.format(Locale.ROOT, "round %d: %s, score %.1f", x.round(),
                        Figure.of(metric).format(x.value()), z));
            }
        }
        if (rounds.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Warnings.warning("outlier", g, rounds, String.format(Locale.ROOT,
                "%s: %s has outliers in %s (%s; median %s, modified Z-score limit %.1f)", g.label(), metric,
                RunData.roundList(rounds), String.join("; ", details), Figure.of(metric).format(median),
                o.outlierScore())));
    }

    /**
     * The first round worse than every later one, by more than the noise threshold and by more than
     * twice the later rounds' own coefficient of variation (so that, with three rounds, a first round
     * that is merely the lowest of three noisy ones, as it is a third of the time by chance, is not
     * flagged); the message says what was cold in that run ({@link ColdStart}).
     */
    static Optional<Warning> slowFirstRound(RunData data, Group g, String metric, List<RunData.Obs> obs,
                                            WarningOptions o) {
        if (obs.size() < 3) {
            return Optional.empty();
        }
        Direction direction = Direction.of(metric);
        RunData.Obs first = obs.get(0);
        double[] rest = RunData.array(obs.subList(1, obs.size()));
        double restMedian = median(rest);
        if (restMedian == 0) {
            return Optional.empty();
        }
        boolean worse = Arrays.stream(rest).allMatch(v -> direction.worse(first.value(), v));
        // A metric without a better direction is flagged when its first round is lower than all others, too.
        boolean lower = direction == Direction.NEUTRAL && Arrays.stream(rest).allMatch(v -> first.value() < v);
        double off = Math.abs(first.value() - restMedian) / Math.abs(restMedian);
        if (!(worse || lower) || !(off > Math.max(o.noise(), 2 * Summary.of(rest).cv()))) {
            return Optional.empty();
        }
        String how = direction == Direction.NEUTRAL ? (lower ? "lower" : "higher") : "worse";
        return Optional.of(Warnings.warning("slow_first_round", g, List.of(first.round()), String.format(Locale.ROOT,
                "%s: the first round (round %d) has %s %s, %s than every later round and %s off their median %s; %s",
                g.label(), first.round(), metric, Figure.of(metric).format(first.value()), how, Units.percent(off),
                Figure.of(metric).format(restMedian), ColdStart.describe(data, first.row()))));
    }

    /** A rank correlation of the values with the round number, significant by {@link Spearman}'s p. */
    static Optional<Warning> drift(Group g, String metric, List<RunData.Obs> obs, WarningOptions o) {
        int n = obs.size();
        if (n < 4) {
            return Optional.empty();
        }
        double[] rounds = obs.stream().mapToDouble(RunData.Obs::round).toArray();
        double[] values = RunData.array(obs);
        double rho = Spearman.rho(rounds, values);
        if (Double.isNaN(rho)) {
            return Optional.empty();
        }
        double p = Spearman.p(rounds, values);
        if (!(p < o.alpha())) {
            return Optional.empty();
        }
        List<Integer> concerned = RunData.roundsOf(obs);
        return Optional.of(Warnings.warning("drift", g, concerned, String.format(Locale.ROOT,
                "%s: %s %s with the round number over %s (Spearman rho %.2f, p %s%s); something changed while "
                        + "the rounds ran", g.label(), metric, rho > 0 ? "rises" : "falls",
                RunData.roundList(concerned), rho, Units.p(p), n <= Spearman.EXACT_MAX ? ", exact" : "")));
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return Summary.median(sorted);
    }
}
