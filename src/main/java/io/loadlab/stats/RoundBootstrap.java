package io.loadlab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * A percentile bootstrap over rounds for statistics that are not means: the rounds (blocks) are
 * drawn with replacement, each drawn round bringing all its runs, and the statistic is computed
 * from what was drawn, such as the p99 of the merged histograms of the drawn rounds or the knee of
 * the curve they make. Drawing whole rounds keeps what a round did to all its points (a busy
 * machine, a fast process) together, as the comparison's paired bootstrap does.
 *
 * <p>A draw is a multiset of rounds, so with few rounds most draws repeat (3 rounds have 10
 * distinct multisets): each distinct draw is computed once. With 3 rounds the interval spans
 * about the rounds' own range; it says how much the rounds disagree, not more.
 */
final class RoundBootstrap {

    /** Draws per interval. */
    static final int RESAMPLES = 2000;

    private RoundBootstrap() {
    }

    /**
     * 95% intervals of several statistics of the same draws.
     *
     * @param blocks    the number of rounds, 1 or more
     * @param statistic the statistics of one draw, from the count of each round in it (indexes as
     *                  the caller numbers its rounds); a NaN component is left out of that
     *                  statistic's interval (e.g. a point without a run in the drawn rounds)
     * @param seed      seed of the draws, so that an analysis is repeatable
     * @return {low, high} per statistic; NaN when fewer than 2 rounds or no draw gave a number
     */
    static double[][] intervals(int blocks, Function<int[], double[]> statistic, long seed) {
        int width = statistic.apply(ones(blocks)).length;
        double[][] out = new double[width][];
        if (blocks < 2) {
            for (int k = 0; k < width; k++) {
                out[k] = new double[] {Double.NaN, Double.NaN};
            }
            return out;
        }
        Map<String, double[]> seen = new HashMap<>();
        SplittableRandom random = new SplittableRandom(seed);
        List<double[]> draws = new ArrayList<>(RESAMPLES);
        for (int i = 0; i < RESAMPLES; i++) {
            int[] counts = new int[blocks];
            for (int k = 0; k < blocks; k++) {
                counts[random.nextInt(blocks)]++;
            }
            draws.add(seen.computeIfAbsent(Arrays.toString(counts), unused -> statistic.apply(counts)));
        }
        for (int k = 0; k < width; k++) {
            int component = k;
            double[] values = draws.stream().mapToDouble(d -> d[component]).filter(v -> !Double.isNaN(v)).sorted()
                    .toArray();
            out[k] = values.length == 0 ? new double[] {Double.NaN, Double.NaN}
                    : new double[] {Bootstrap.quantile(values, 0.025), Bootstrap.quantile(values, 0.975)};
        }
        return out;
    }

    /** Each round once: the draw of the data as measured. */
    static int[] ones(int blocks) {
        int[] counts = new int[blocks];
        Arrays.fill(counts, 1);
        return counts;
    }
}
