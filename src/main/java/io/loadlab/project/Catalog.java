package io.loadlab.project;

import io.loadlab.subject.Subjects;
import io.loadlab.workload.Workload;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an experiment may choose its subjects and workloads from: Loadlab's bundled subjects and
 * workloads, or a project's ({@code loadlab.yaml}) with its revisions checked out.
 *
 * @param subjects  the subjects, each ready to build and start (a revision's in its checkout)
 * @param workloads the workloads, the project's first, then the bundled ones
 * @param commits   each revision subject's resolved commit id, by subject name
 * @param project   the project, as the experiment records it; empty for the bundled catalog
 */
public record Catalog(Subjects subjects, List<Workload> workloads, Map<String, String> commits,
                      Optional<ProjectRef> project) {

    public Catalog {
        workloads = List.copyOf(workloads);
        commits = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(commits));
    }

    /** Loadlab's own subjects ({@code <home>/subjects}) and the bundled workloads. */
    public static Catalog bundled(Path home) {
        return new Catalog(Subjects.load(home.resolve("subjects"), Workload.builtinNames()), Workload.builtin(),
                Map.of(), Optional.empty());
    }

    /**
     * The catalog an experiment plans from: the recorded project's (its revisions at the recorded
     * commits), else the bundled one.
     *
     * @throws ProjectException when the project's file is wrong or a revision cannot be checked out
     */
    public static Catalog of(Path home, Optional<ProjectRef> project) {
        return project.map(p -> ProjectFile.parse(p.file(), p.text()).catalog(home, p.commits()))
                .orElseGet(() -> bundled(home));
    }
}
