package io.loadlab.stats;

import java.util.List;
import java.util.Set;

/**
 * Something about a group's runs that makes its figures less trustworthy.
 *
 * @param kind     one of {@link #KINDS}
 * @param subject  the subject of the group
 * @param variant  its variant label as the statistics' tables show it ("" when none); for
 *                 {@code split_group}, the variant before the split (the parts' labels are in the message)
 * @param workload its workload
 * @param rounds   the rounds concerned, ascending
 * @param message  a sentence naming subject, workload and rounds, and why it matters
 * @throws StatsException from the constructor when a field is null or blank or the kind is unknown
 */
public record Warning(String kind, String subject, String variant, String workload, List<Integer> rounds,
                      String message) {

    /** The kinds of warning, as {@link Warnings#find} reports them. */
    public static final Set<String> KINDS = Set.of("split_group", "high_cv", "outlier", "slow_first_round", "drift",
            "not_steady", "noisy_machine", "rate_not_reached", "load_bound", "attached", "errors", "failed_runs");

    public Warning {
        if (kind == null || !KINDS.contains(kind)) {
            throw new StatsException("warning: unknown kind '" + kind + "'; kinds: " + String.join(", ", KINDS));
        }
        if (subject == null || variant == null || workload == null || message == null || message.isBlank()) {
            throw new StatsException("warning " + kind + ": subject, variant, workload and message must be given");
        }
        if (rounds == null || rounds.isEmpty()) {
            throw new StatsException("warning " + kind + " for " + subject + " / " + workload + ": name the rounds");
        }
        rounds = List.copyOf(rounds);
    }

    @Override
    public String toString() {
        return kind + ": " + message;
    }
}
