package io.loadlab.data;

import java.util.Comparator;
import java.util.Optional;

/**
 * The runs that analyses pool: one subject, variant and workload. The one group type of the runner's
 * summary, the merged histograms and every statistic, with the one label people read.
 *
 * <p>The variant is the analysis variant ({@link AnalysisGroups.Label#analysisVariant()}): the variant
 * as recorded, then {@code engine=E} for an engine other than the built-in one, then the settings the
 * group is split by ({@code connections=16}, {@code rate=50%}), so that runs of different engines or
 * settings are never pooled. Ordered by subject, variant, workload. Immutable.
 *
 * @param subject  the subject
 * @param variant  the analysis variant, "" when none
 * @param workload the workload
 */
public record Group(String subject, String variant, String workload) implements Comparable<Group> {

    private static final Comparator<Group> ORDER = Comparator.comparing(Group::subject)
            .thenComparing(Group::variant)
            .thenComparing(Group::workload);

    /** @throws DataException when a part is null */
    public Group {
        if (subject == null || variant == null || workload == null) {
            throw new DataException("group: subject, variant and workload must not be null, got "
                    + subject + ", " + variant + ", " + workload);
        }
    }

    /**
     * The group of a run among the runs of one experiment, from its row alone: its variant with its
     * engine, and inside a latency sweep its point as the rate its group is split by ({@code rate=none}
     * for the capacity run, {@code rate=50%}, {@code rate=1000}), as {@link AnalysisGroups} labels a
     * sweep's runs. Outside a sweep the runs of one experiment share their settings, so nothing else
     * is added.
     */
    public static Group of(RunRow row) {
        String variant = RunRow.analysisVariant(row.get(RunColumn.VARIANT), row.get(RunColumn.ENGINE));
        if (!row.get(RunColumn.SWEEP_ROLE).isEmpty()) {
            String rate = AnalysisGroups.rate(row.get(RunColumn.SWEEP_ROLE), row.get(RunColumn.CAPACITY_FRACTION),
                    row.get(RunColumn.TARGET_RPS));
            variant = variant.isEmpty() ? "rate=" + rate : variant + ",rate=" + rate;
        }
        return new Group(row.get(RunColumn.SUBJECT), variant, row.get(RunColumn.WORKLOAD));
    }

    /** The subject with its variant in brackets when there is one: {@code nginx [tuned]}. */
    public String subjectLabel() {
        return subjectLabel(subject, variant);
    }

    /**
     * A subject with a variant in brackets when there is one, as every table, chart and message shows
     * it: {@code nginx}, {@code nginx [tuned]}. The one spelling; {@link #subjectOf} reads it back.
     */
    public static String subjectLabel(String subject, String variant) {
        return variant == null || variant.isEmpty() ? subject : subject + " [" + variant + "]";
    }

    /** Subject (and variant) and workload, as messages name a group: {@code nginx [tuned] / plaintext}. */
    public String label() {
        return subjectLabel() + " / " + workload;
    }

    /**
     * The subject of a subject label such as {@code nginx [tuned]} ({@code nginx[tuned]}, as earlier
     * versions wrote it, is read too); the label itself when it names no variant.
     */
    public static String subjectOf(String label) {
        return variantOf(label).isPresent() ? label.substring(0, label.indexOf('[')).trim() : label.trim();
    }

    /** The variant a subject label names in brackets ({@code tuned} of {@code nginx [tuned]}), if any. */
    public static Optional<String> variantOf(String label) {
        String l = label.trim();
        int open = l.indexOf('[');
        return open > 0 && l.endsWith("]") ? Optional.of(l.substring(open + 1, l.length() - 1)) : Optional.empty();
    }

    @Override
    public int compareTo(Group other) {
        return ORDER.compare(this, other);
    }
}
