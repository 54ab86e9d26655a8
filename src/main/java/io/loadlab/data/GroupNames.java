package io.loadlab.data;

import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import tech.tablesaw.api.Table;

/**
 * The groups that runs form (subject, analysis variant as {@link AnalysisGroups} labels it,
 * workload), for checking the names a person types in JShell or a notebook: a name that matches
 * nothing is an error that lists the names there are, never an empty answer that reads as 0.
 */
final class GroupNames {

    private final SortedSet<Group> groups = new TreeSet<>();

    GroupNames(Table runs) {
        AnalysisGroups labels = AnalysisGroups.of(runs);
        for (int i = 0; i < runs.rowCount(); i++) {
            groups.add(new Group(runs.stringColumn(RunColumn.SUBJECT.id()).get(i), labels.variant(i),
                    runs.stringColumn(RunColumn.WORKLOAD.id()).get(i)));
        }
    }

    /**
     * The group of these names.
     *
     * @throws DataException naming the subject, variant or workload that matches nothing, with the
     *                       names there are
     */
    Group check(String subject, String variant, String workload) {
        checkSubjectAndWorkload(subject, workload);
        Group g = new Group(subject, variant, workload);
        if (!groups.contains(g)) {
            throw new DataException("subject '" + subject + "' has no variant '" + variant + "' on workload '"
                    + workload + "'; its variants there: " + list(variants(subject, workload)));
        }
        return g;
    }

    /**
     * The one group of a subject on a workload, whatever its variant.
     *
     * @throws DataException for a name that matches nothing, or a subject with several variants on
     *                       the workload (naming them, so that one can be chosen)
     */
    Group only(String subject, String workload) {
        checkSubjectAndWorkload(subject, workload);
        Set<String> variants = variants(subject, workload);
        if (variants.size() != 1) {
            throw new DataException("subject '" + subject + "' has " + variants.size() + " variants on workload '"
                    + workload + "': " + list(variants) + "; name one: latency(\"" + subject + "\", \""
                    + (variants.isEmpty() ? "" : variants.iterator().next()) + "\", \"" + workload + "\")");
        }
        return new Group(subject, variants.iterator().next(), workload);
    }

    private void checkSubjectAndWorkload(String subject, String workload) {
        if (subject == null || workload == null) {
            throw new DataException("give a subject and a workload, such as latency(\"" + first(Group::subject)
                    + "\", \"" + first(Group::workload) + "\")");
        }
        Set<String> subjects = names(Group::subject);
        if (!subjects.contains(subject)) {
            throw new DataException("no subject '" + subject + "' in these runs; subjects: " + list(subjects));
        }
        Set<String> workloads = names(Group::workload);
        if (!workloads.contains(workload)) {
            throw new DataException("no workload '" + workload + "' in these runs; workloads: " + list(workloads));
        }
    }

    private Set<String> variants(String subject, String workload) {
        return groups.stream().filter(g -> g.subject().equals(subject) && g.workload().equals(workload))
                .map(Group::variant).collect(Collectors.toCollection(TreeSet::new));
    }

    private Set<String> names(java.util.function.Function<Group, String> part) {
        return groups.stream().map(part).collect(Collectors.toCollection(TreeSet::new));
    }

    private String first(java.util.function.Function<Group, String> part) {
        return groups.isEmpty() ? "" : part.apply(groups.first());
    }

    /** Names quoted and comma-separated; the empty variant as {@code ""}. */
    private static String list(Set<String> names) {
        List<String> quoted = names.stream().map(n -> n.isEmpty() ? "\"\" (none)" : n).toList();
        return quoted.isEmpty() ? "(none)" : String.join(", ", quoted);
    }
}
