package io.loadlab.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Which {@code jupyter} command Loadlab runs, for {@code report}, {@code demo} and {@code kernel
 * install} alike: the one given with {@code --jupyter}, else the first on the PATH (pip's, conda's,
 * a virtual environment's), else Debian's {@link #DEBIAN}.
 */
final class Jupyter {

    /** Debian's Jupyter (apt-get install jupyter-client jupyter-core jupyter-nbconvert), the fallback. */
    static final Path DEBIAN = Path.of("/usr/bin/jupyter");
    /** What to do when there is none, said once for every command. */
    static final String INSTALL_HINT = "put a Jupyter with nbconvert on the PATH (pip install -r "
            + "scripts/jupyter-requirements.txt in a virtual environment, or apt-get install jupyter-client "
            + "jupyter-core jupyter-nbconvert), or give --jupyter PATH";

    private Jupyter() {
    }

    /**
     * The jupyter command to run.
     *
     * @param given the {@code --jupyter} option, or null
     * @throws CliException (exit 1) when the given one is not executable or none is found
     */
    static Path command(Path given) {
        return find(given, System.getenv().getOrDefault("PATH", "")).orElseThrow(() -> new CliException(
                given != null ? "--jupyter " + given + " is not an executable file: " + INSTALL_HINT
                        : "no jupyter on the PATH nor at " + DEBIAN + ": " + INSTALL_HINT, Main.EXIT_FAILED));
    }

    /**
     * The jupyter command when there is one, for what can do without it (the demo's report).
     *
     * @param given the {@code --jupyter} option, or null
     * @throws CliException (exit 1) when the given one is not executable
     */
    static Optional<Path> ifAny(Path given) {
        return given != null ? Optional.of(command(given)) : find(null, System.getenv().getOrDefault("PATH", ""));
    }

    /**
     * The jupyter command that {@link #command} picks, given the PATH to search.
     *
     * @param given the {@code --jupyter} option, or null
     * @param path  a PATH value (folders separated by {@link File#pathSeparator})
     */
    static Optional<Path> find(Path given, String path) {
        if (given != null) {
            return Files.isRegularFile(given) && Files.isExecutable(given) ? Optional.of(given.toAbsolutePath())
                    : Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = dir.isEmpty() ? null : Path.of(dir, "jupyter");
            if (candidate != null && Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toAbsolutePath());
            }
        }
        return Files.isExecutable(DEBIAN) ? Optional.of(DEBIAN) : Optional.empty();
    }
}
