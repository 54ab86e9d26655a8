package io.loadlab.stats;

import java.util.Optional;

/**
 * Whether two experiments tell the same story about a pair of subjects; {@link #label()} is what
 * tables show. Decided by {@link Reconcile}'s rule.
 */
public enum Agreement {
    /**
     * The ratio of ratios' 95% bootstrap CI lies entirely outside 1 &plusmn; noise and the test on
     * the log ratios agrees (p &lt; alpha), with at least 3 rounds of both subjects in each
     * experiment: the experiments disagree beyond their noise.
     */
    DISAGREE("disagree"),
    /** At least 3 rounds each, but the CI reaches into the noise band or the test is not significant. */
    WITHIN_NOISE("within noise"),
    /** Fewer than 3 rounds of a subject in an experiment: neither agreement nor disagreement can be said. */
    TOO_FEW_ROUNDS("too few rounds");

    private final String label;

    Agreement(String label) {
        this.label = label;
    }

    /** Lower-case words, as in the {@code verdict} column. */
    public String label() {
        return label;
    }

    /** The {@code agree} column: false for {@link #DISAGREE}, true within noise, empty with too few rounds. */
    public Optional<Boolean> agree() {
        return this == TOO_FEW_ROUNDS ? Optional.empty() : Optional.of(this == WITHIN_NOISE);
    }

    @Override
    public String toString() {
        return label;
    }
}
