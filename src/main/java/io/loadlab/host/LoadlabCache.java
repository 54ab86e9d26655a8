package io.loadlab.host;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Loadlab's cache, shared by every clone on the machine: subject builds by source hash
 * ({@code subjects/<name>/<hash>/}), environments that take minutes to make (drogon's Debian
 * root), and the tools {@code scripts/setup} installs ({@code tools/bin}: oha, zig). It is
 * {@code $LOADLAB_CACHE} when set, else {@code $XDG_CACHE_HOME/loadlab}, else
 * {@code ~/.cache/loadlab}; {@code scripts/setup} uses the same rule. Stateless and thread-safe.
 */
public final class LoadlabCache {

    private LoadlabCache() {
    }

    /** The cache folder (it may not exist yet). */
    public static Path root() {
        return root(System.getenv(), System.getProperty("user.home"));
    }

    static Path root(Map<String, String> env, String userHome) {
        String own = env.getOrDefault("LOADLAB_CACHE", "");
        if (!own.isBlank()) {
            return Path.of(own).toAbsolutePath().normalize();
        }
        String xdg = env.getOrDefault("XDG_CACHE_HOME", "");
        Path base = xdg.isBlank() ? Path.of(userHome, ".cache") : Path.of(xdg);
        return base.resolve("loadlab").toAbsolutePath().normalize();
    }

    /** The folder of the tools {@code scripts/setup} installs, searched after the PATH. */
    public static Path toolsBin() {
        return root().resolve("tools/bin");
    }


}
