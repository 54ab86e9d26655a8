package io.loadlab.stats;

import java.util.Comparator;

/** The runs of one subject variant on one workload; ordered by subject, variant, workload. */
record Group(String subject, String variant, String workload) implements Comparable<Group> {

    private static final Comparator<Group> ORDER = Comparator.comparing(Group::subject)
            .thenComparing(Group::variant)
            .thenComparing(Group::workload);

    Group {
        if (subject == null || variant == null || workload == null) {
            throw new StatsException("group: subject, variant and workload must not be null, got "
                    + subject + ", " + variant + ", " + workload);
        }
    }

    /** The subject with its variant in brackets when there is one, e.g. {@code nginx[tuned]}. */
    String subjectLabel() {
        return variant.isEmpty() ? subject : subject + "[" + variant + "]";
    }

    /** Subject (and variant) and workload, as messages name a group. */
    String label() {
        return subjectLabel() + " / " + workload;
    }

    @Override
    public int compareTo(Group other) {
        return ORDER.compare(this, other);
    }
}
