package io.loadlab.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Loadlab's folder: where {@code subjects/} and {@code target/lib} are. */
final class Home {

    private Home() {
    }

    /** From {@code -Dloadlab.home} (set by the launcher), else the current folder. */
    static Path path() {
        Path home = Path.of(System.getProperty("loadlab.home", ".")).toAbsolutePath().normalize();
        if (!Files.isDirectory(home.resolve("subjects"))) {
            throw new CliException("cannot find the subjects/ folder under " + home
                    + ": run Loadlab through ./loadlab or from its folder", Main.EXIT_USAGE);
        }
        return home;
    }
}
