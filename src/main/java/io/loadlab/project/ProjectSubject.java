package io.loadlab.project;

import io.loadlab.subject.SubjectManifest;
import java.nio.file.Path;
import java.util.List;

/** One entry of a project's {@code subjects}: inline, a folder, a bundled subject, or a running server. */
public sealed interface ProjectSubject {
    /** Its name as the project gives it (before any {@code @revision}). */
    String name();

    /**
     * A subject written in the project file, with the fields of a {@code subject.yaml}.
     *
     * @param manifest  its manifest, whose folder ({@code {dir}}) is the project file's
     * @param revisions git revisions to run it at, each as its own subject {@code name@revision};
     *                  empty to run the working tree as it is
     */
    record Inline(String name, SubjectManifest manifest, List<String> revisions) implements ProjectSubject {
        public Inline {
            revisions = List.copyOf(revisions);
        }
    }

    /** A folder with its own {@code subject.yaml} ({@code dir:}), absolute. */
    record Folder(String name, Path dir) implements ProjectSubject {}

    /** One of Loadlab's bundled subjects ({@code bundled: true}). */
    record Bundled(String name) implements ProjectSubject {}

    /** A server someone else started ({@code url:}). */
    record Attached(String name, SubjectManifest manifest) implements ProjectSubject {}
}
