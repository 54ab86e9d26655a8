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
    /**
     * The same within the noise band: the two one-sided tests at alpha both reject a difference
     * beyond 1 &plusmn; noise (Schuirmann's TOST), so the ratio's (1 &minus; 2&alpha;) interval lies
     * inside the band.
     */
    EQUIVALENT("equivalent"),
    /**
     * At least 3 rounds each, but neither a difference nor equivalence could be shown: the
     * experiment is too small or too noisy for the band. Comes with the smallest difference it
     * could detect and the rounds that would decide it.
     */
    UNDECIDED("undecided"),
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
     * Whether the rule answered the question: a difference was called, or equivalence shown. False
     * for {@link #UNDECIDED}, {@link #TOO_FEW_ROUNDS}, {@link #NO_BASELINE} and {@link #BASELINE}.
     */
    public boolean isDecided() {
        return isDifference() || this == EQUIVALENT;
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
