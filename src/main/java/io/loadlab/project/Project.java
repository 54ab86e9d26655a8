package io.loadlab.project;

import io.loadlab.workload.Workload;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A checked project file, {@code loadlab.yaml} ({@link ProjectFile}): its subjects and workloads as
 * written, and its {@code plan}.
 *
 * @param name      the experiments' name prefix ({@code orders}: {@code data/orders-<date-time>/})
 * @param file      the file, absolute
 * @param text      its text as read
 * @param workloads the project's own workloads (without the bundled ones)
 * @param plan      {@code plan}'s fields as written (run option names without {@code --}, such as
 *                  {@code rounds} or {@code duration}), with their values as text; checked by
 *                  {@code loadlab run}, whose options they are
 */
public record Project(String name, Path file, String text, List<ProjectSubject> subjects, List<Workload> workloads,
                      Map<String, String> plan) {

    /**
     * The catalog the project's experiments plan from: each subject made ready (a bundled one from
     * {@code <home>/subjects}, a revision checked out into the cache at its commit), the project's
     * workloads and the bundled ones.
     *
     * @param pinned commit ids to use for revision subjects, by subject name ({@code api@HEAD});
     *               the others are resolved in the project's git repository now
     * @throws ProjectException when a revision does not resolve or cannot be checked out, or a
     *                          bundled subject does not exist
     */
    public Catalog catalog(Path home, Map<String, String> pinned) {
        throw new UnsupportedOperationException("ProjectFile: to be written");
    }

    /** What an experiment records of this project, with the given resolved commits. */
    public ProjectRef ref(Map<String, String> commits) {
        return new ProjectRef(file, text, commits);
    }
}
