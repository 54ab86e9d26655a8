package io.loadlab.stats;

/**
 * Outcome of comparing one group with another (a subject with the baseline, an engine with the
 * built-in one); {@link #label()} is what tables show. The rule that decides it is
 * {@link Comparison}'s, the same for {@link Engines}.
 */
public enum Verdict {
    /** The row is the baseline itself. */
    BASELINE("baseline"),
    /** A difference (CI beyond the noise band, test significant), better: higher throughput or lower latency. */
    FASTER("faster"),
    /** A difference, worse. */
    SLOWER("slower"),
    /** A difference, higher, for a metric without a better direction (and between engines). */
    HIGHER("higher"),
    /** A difference, lower, for a metric without a better direction (and between engines). */
    LOWER("lower"),
    /** At least 3 rounds each, but the CI reaches into the noise band or the test is not significant. */
    NO_CLEAR_DIFFERENCE("no clear difference"),
    /** Fewer than 3 rounds in either group: nothing can be called, whatever the figures. */
    TOO_FEW_ROUNDS("too few rounds"),
    /** The baseline has no successful run with a value on this workload. */
    NO_BASELINE("no baseline");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    /** Whether the rule called a difference: faster, slower, higher or lower. */
    public boolean isDifference() {
        return this == FASTER || this == SLOWER || this == HIGHER || this == LOWER;
    }

    /**
     * Whether the rule decided the comparison: a difference or, once the verdict is three-way, an
     * equivalence. Until then a difference is the only decision (issue 32: branch i32a makes the
     * verdict three-way and keeps its own version of this method at merge).
     */
    public boolean isDecided() {
        return isDifference();
    }

    /** Lower-case words, as in the {@code verdict} column. */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
