package io.loadlab.project;

import io.loadlab.host.LoadlabCache;
import io.loadlab.subject.Subject;
import io.loadlab.subject.SubjectManifest;
import io.loadlab.subject.Subjects;
import io.loadlab.workload.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

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

    public Project {
        file = file.toAbsolutePath().normalize();
        subjects = List.copyOf(subjects);
        workloads = List.copyOf(workloads);
        plan = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(plan));
    }

    @Override
    public String toString() {
        return "Project[" + name + " (" + file + "): " + subjects.size() + " subjects, " + workloads.size()
                + " workloads, plan " + plan + "]";
    }

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
        return catalog(home, pinned, LoadlabCache.root());
    }

    /** The same with the checkouts under {@code cache} (the tests' own). */
    Catalog catalog(Path home, Map<String, String> pinned, Path cache) {
        String where = ProjectFile.shown(file) + ":";
        Set<String> known = new TreeSet<>(Workload.builtinNames());
        workloads.forEach(w -> known.add(w.name()));
        Checkouts checkouts = new Checkouts(file.getParent(), cache, where);
        List<Subject> out = new ArrayList<>();
        Map<String, String> commits = new LinkedHashMap<>();
        for (ProjectSubject s : subjects) {
            String at = where + " subject '" + s.name() + "':";
            if (s instanceof ProjectSubject.Inline i && !i.revisions().isEmpty()) {
                Path relative = checkouts.relativeFolder(i.name());
                for (String rev : i.revisions()) {
                    String name = i.name() + "@" + rev;
                    String commit = pinned.containsKey(name) ? checkouts.pinned(name, pinned.get(name))
                            : checkouts.resolve(i.name(), rev);
                    Path dir = checkouts.checkout(name, commit).resolve(relative).normalize();
                    commits.put(name, commit);
                    out.add(subject(atRevision(i.manifest(), name, dir, commit)));
                }
            } else if (s instanceof ProjectSubject.Inline i) {
                out.add(subject(i.manifest()));
            } else if (s instanceof ProjectSubject.Folder f) {
                out.add(subject(SubjectEntries.folderManifest(at, f.dir(), known)));
            } else if (s instanceof ProjectSubject.Bundled b) {
                out.add(subject(bundled(home, b, at)));
            } else if (s instanceof ProjectSubject.Attached a) {
                out.add(subject(a.manifest()));
            } else {
                throw new IllegalStateException("a subject kind this catalog does not know: " + s);
            }
        }
        List<Workload> all = new ArrayList<>(workloads);
        all.addAll(Workload.builtin());
        return new Catalog(Subjects.of(out), all, commits, Optional.of(ref(commits)));
    }

    private static Subject subject(SubjectManifest m) {
        return new Subject(m, Subjects.missing(m.requires()));
    }

    /** A bundled subject's manifest, {@code <home>/subjects/<name>}. */
    private static SubjectManifest bundled(Path home, ProjectSubject.Bundled b, String at) {
        Path subjects = home.resolve("subjects");
        Path dir = subjects.resolve(b.name());
        if (!Files.isRegularFile(dir.resolve("subject.yaml"))) {
            List<String> names;
            try (Stream<Path> list = Files.list(subjects)) {
                names = list.filter(d -> Files.isRegularFile(d.resolve("subject.yaml")))
                        .map(d -> d.getFileName().toString()).sorted().toList();
            } catch (IOException e) {
                names = List.of();
            }
            throw new ProjectException(at + " Loadlab has no bundled subject '" + b.name() + "'; the bundled ones: "
                    + (names.isEmpty() ? "none in " + subjects : String.join(", ", names)));
        }
        return SubjectEntries.folderManifest(at, dir, Workload.builtinNames());
    }

    /** An inline subject's manifest at one revision: its name {@code name@rev}, folder and commit. */
    private static SubjectManifest atRevision(SubjectManifest m, String name, Path dir, String commit) {
        return new SubjectManifest(name, m.description(), m.language(), m.versionCommand(), m.requires(), m.build(),
                m.start(), m.ready(), m.workloads(), m.variants(), dir, m.warmup(), Optional.of(commit), m.attached());
    }

    /** What an experiment records of this project, with the given resolved commits. */
    public ProjectRef ref(Map<String, String> commits) {
        return new ProjectRef(file, text, commits);
    }
}
