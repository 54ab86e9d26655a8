package io.loadlab.project;

import java.nio.file.Path;

/** Reads and checks a project file, {@code loadlab.yaml}. */
public final class ProjectFile {

    /** The file {@code loadlab run} looks for in the current folder. */
    public static final String NAME = "loadlab.yaml";

    private ProjectFile() {
    }

    /** @throws ProjectException naming the file, the field and what to change */
    public static Project read(Path file) {
        throw new UnsupportedOperationException("to be written");
    }

    /** The same from a recorded text; {@code file} gives the folder relative paths resolve against. */
    public static Project parse(Path file, String text) {
        throw new UnsupportedOperationException("to be written");
    }
}
