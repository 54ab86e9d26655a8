package io.loadlab.stats;

/**
 * How two groups were compared: which test gave the verdict's p-value and how the ratio's
 * bootstrap interval resampled; {@link #label()} is the {@code test} column's value.
 */
public enum Design {
    /**
     * Both groups have one value in each of the same 3 or more rounds, all positive: a t-test on
     * the per-round log ratios, and a bootstrap that resamples rounds with both their values.
     */
    PAIRED("paired"),
    /** Otherwise, with 3 or more rounds each: Welch's t-test, and a bootstrap of each group on its own. */
    WELCH("welch"),
    /** No test: too few rounds, no baseline, or a baseline mean of 0. */
    NONE("");

    private final String label;

    Design(String label) {
        this.label = label;
    }

    /** {@code paired}, {@code welch}, or "" for none. */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
