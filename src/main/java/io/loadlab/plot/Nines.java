package io.loadlab.plot;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * The "nines" scale of a latency spectrum: percentile p is drawn at x = 1 / (1 − p/100) on a log
 * axis, so 50, 90, 99, 99.9 and 99.99 fall at 2, 10, 100, 1000 and 10000 and each added nine
 * gets the same width. Computed in decimal so those positions are exact.
 */
final class Nines {

    /** The highest percentile drawn from the histogram's body, as x: 99.99. */
    static final double LAST_X = 10_000;

    // Steps within a decade of x, evenly spread on the log scale; all are products of 2 and 5,
    // so their percentiles are short decimals (1.6 → 37.5, 6.4 → 84.375).
    private static final double[] STEPS = {1, 1.25, 1.6, 2, 2.5, 3.2, 4, 5, 6.4, 8};
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private Nines() {
    }

    /**
     * The x position of a percentile.
     *
     * @param percentile in [0, 100)
     * @return 1 / (1 − percentile/100), at least 1
     * @throws IllegalArgumentException outside [0, 100)
     */
    static double x(double percentile) {
        if (!(percentile >= 0 && percentile < 100)) {
            throw new IllegalArgumentException("percentile must be in [0, 100), got " + percentile);
        }
        BigDecimal p = BigDecimal.valueOf(percentile);
        return HUNDRED.divide(HUNDRED.subtract(p), MathContext.DECIMAL64).doubleValue();
    }

    /** The percentile at an x position (x ≥ 1), in [0, 100). */
    static double percentile(double x) {
        return 100 - 100 / x;
    }

    /**
     * The x positions to sample a histogram of {@code count} values at: about ten a decade from
     * 0% up to 99.99%, but none beyond x = count, where fewer than one value lies in the tail.
     */
    static List<Double> grid(long count) {
        List<Double> xs = new ArrayList<>();
        for (int decade = 0; decade < 4; decade++) {
            for (double step : STEPS) {
                double x = BigDecimal.valueOf(step).scaleByPowerOfTen(decade).doubleValue();
                if (x <= count) {
                    xs.add(x);
                }
            }
        }
        if (count >= LAST_X) {
            xs.add(LAST_X);
        }
        return xs;
    }

    /**
     * The labelled positions within [min, max]: 50%, then every added nine. The left edge (0%, the
     * minimum) goes unlabelled: it would crowd the 50% label, a third of a decade away.
     */
    static List<Double> ticks(double min, double max) {
        List<Double> ticks = new ArrayList<>();
        for (double x = 2; x <= max * (1 + 1e-9); x = x == 2 ? 10 : x * 10) {
            if (x >= min * (1 - 1e-9)) {
                ticks.add(x);
            }
        }
        return ticks;
    }

    /** The label of an x position: {@code "50%"}, {@code "99.9%"}. */
    static String label(double x) {
        BigDecimal p = HUNDRED.subtract(HUNDRED.divide(BigDecimal.valueOf(x), MathContext.DECIMAL64))
                .setScale(6, RoundingMode.HALF_UP).stripTrailingZeros();
        return p.toPlainString() + "%";
    }
}
