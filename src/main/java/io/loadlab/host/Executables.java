package io.loadlab.host;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finding the commands Loadlab runs: on this process's PATH, then in the tools folder that
 * {@code scripts/setup} fills ({@link LoadlabCache#toolsBin()}). The one reader of the PATH, so that
 * a subject's toolchain check, an engine's tool and a helper such as {@code taskset} are found by the
 * same rule. Stateless and thread-safe.
 */
public final class Executables {

    private Executables() {
    }

    /** Whether an executable of this name is in a PATH folder (the tools folder is not searched). */
    public static boolean onPath(String command) {
        return onPathOnly(command).isPresent();
    }

    /**
     * Where the executable {@code command} is: the first PATH folder holding it, else the tools
     * folder; empty when neither has it.
     */
    public static Optional<Path> find(String command) {
        Optional<Path> onPath = onPathOnly(command);
        if (onPath.isPresent()) {
            return onPath;
        }
        Path tool = LoadlabCache.toolsBin().resolve(command);
        return Files.isExecutable(tool) ? Optional.of(tool) : Optional.empty();
    }

    /** The PATH for commands Loadlab runs: this process's PATH with the tools folder after it. */
    public static String path() {
        String path = System.getenv().getOrDefault("PATH", "");
        return (path.isEmpty() ? "" : path + File.pathSeparator) + LoadlabCache.toolsBin();
    }

    private static Optional<Path> onPathOnly(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return Optional.of(Path.of(dir, command));
            }
        }
        return Optional.empty();
    }
}
