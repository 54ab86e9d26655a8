package io.loadlab.stats;

import java.util.Locale;

/**
 * How two groups were compared: which test gave the verdict's p-value and how the ratio's
 * bootstrap interval resampled; {@link #label()} is the {@code test} column's value.
 */
public enum Design {
    /**
     * Both groups have one value in each of the same 3 or more rounds, all positive: a t-test on
     * the per-round log ratios, and a bootstrap that resamples rounds with both their values.
     */
    PAIRED,
    /** Otherwise, with 3 or more rounds each: Welch's t-test, and a bootstrap of each group on its own. */
    WELCH,
    /** No test: too few rounds, no baseline, or a baseline mean of 0. */
    NONE;

    /** {@code paired}, {@code welch}, or "" for none. */
    public String label() {
        return this == NONE ? "" : name().toLowerCase(Locale.ROOT);
    }
}
