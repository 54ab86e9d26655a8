package io.loadlab.stats;

/** Outcome of comparing one group with the baseline; {@link #label()} is what tables show. */
public enum Verdict {
    /** The row is the baseline itself. */
    BASELINE("baseline"),
    /** Significant and beyond the noise threshold, and better (higher throughput or lower latency). */
    FASTER("faster"),
    /** Significant and beyond the noise threshold, and worse. */
    SLOWER("slower"),
    /** Significant and beyond the noise threshold, higher, for a metric without a better direction. */
    HIGHER("higher"),
    /** Significant and beyond the noise threshold, lower, for a metric without a better direction. */
    LOWER("lower"),
    /** Not significant, within the noise threshold, or too few rounds to tell. */
    NO_CLEAR_DIFFERENCE("no clear difference"),
    /** The baseline has no successful run with a value on this workload. */
    NO_BASELINE("no baseline");

    private final String label;

    Verdict(String label) {
        this.label = label;
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
