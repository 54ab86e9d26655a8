package io.loadlab.subject;

import io.loadlab.host.Executables;
import io.loadlab.host.LoadlabCache;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

/** The catalog of subjects: every {@code subjects/<name>/subject.yaml} under Loadlab's folder. */
public final class Subjects {

    private final List<Subject> all;

    private Subjects(List<Subject> all) {
        this.all = List.copyOf(all);
    }

    /**
     * Reads every manifest under {@code subjectsDir}, in name order, and checks which subjects
     * can run here.
     *
     * @throws SubjectException for the first manifest that is wrong, naming file and field
     */
    public static Subjects load(Path subjectsDir, Set<String> knownWorkloads) {
        List<Subject> out = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(subjectsDir)) {
            for (Path dir : dirs.sorted().toList()) {
                if (Files.isRegularFile(dir.resolve("subject.yaml"))) {
                    SubjectManifest m = SubjectManifest.read(dir, knownWorkloads);
                    out.add(new Subject(m, missing(m.requires())));
                }
            }
        } catch (IOException e) {
            throw new SubjectException("cannot list subjects in " + subjectsDir + ": " + e.getMessage(), e);
        }
        return new Subjects(out);
    }

    /** A catalog of given subjects (a project's), in the given order. */
    public static Subjects of(List<Subject> subjects) {
        return new Subjects(subjects);
    }

    /** Every subject, in name order. */
    public List<Subject> all() {
        return all;
    }

    /** The subject called {@code name}. */
    public Optional<Subject> byName(String name) {
        return all.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /**
     * Subjects whose whole name matches the regular expression.
     *
     * @throws SubjectException for an invalid pattern or one that matches nothing, listing the names
     */
    public List<Subject> matching(String regex) {
        Pattern p;
        try {
            p = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new SubjectException("the subject pattern '" + regex + "' is not a regular expression: " + e.getDescription());
        }
        List<Subject> out = all.stream().filter(s -> p.matcher(s.name()).matches()).toList();
        if (out.isEmpty()) {
            throw new SubjectException("no subject matches '" + regex + "'; subjects: "
                    + String.join(", ", all.stream().map(Subject::name).toList()));
        }
        return out;
    }

    /**
     * The first command of {@code commands} that is neither on the PATH nor in Loadlab's tools
     * folder ({@link LoadlabCache#toolsBin()}), as a reason: a subject's
     * {@link Subject#unavailableReason()}.
     */
    public static Optional<String> missing(List<String> commands) {
        for (String c : commands) {
            if (Executables.find(c).isEmpty()) {
                return Optional.of("needs `" + c + "` on PATH");
            }
        }
        return Optional.empty();
    }

}
