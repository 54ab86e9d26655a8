package io.loadlab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Loadlab's own folder (its <em>home</em>, holding {@code subjects/}, {@code data/} and
 * {@code notebooks/}), for notebooks and scripts that open its data: {@code
 * Results.load(Loadlab.home().resolve("data/sample"))}.
 */
public final class Loadlab {

    private Loadlab() {
    }

    /**
     * {@code $LOADLAB_HOME} when it is set, else the first folder at or above the working directory
     * that holds {@code subjects/} and {@code pom.xml} (Jupyter starts a kernel in its notebook's
     * folder, so from {@code notebooks/} that is the folder above).
     *
     * @return the folder, absolute and normalised
     * @throws IllegalStateException when neither finds one, saying where it looked
     */
    public static Path home() {
        return home(Optional.ofNullable(System.getenv("LOADLAB_HOME")), Path.of(""));
    }

    /** {@link #home()} for a given environment value and working directory. */
    static Path home(Optional<String> env, Path workingDirectory) {
        if (env.isPresent() && !env.get().isBlank()) {
            return Path.of(env.get()).toAbsolutePath().normalize();
        }
        Path start = workingDirectory.toAbsolutePath().normalize();
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("subjects")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find Loadlab's folder (subjects/ and pom.xml) above " + start
                + "; set LOADLAB_HOME");
    }
}
