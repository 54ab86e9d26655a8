package io.loadlab.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Secret files for tests, made as users are told to: readable by their owner alone. */
public final class TestSecrets {

    private TestSecrets() {
    }

    /** Writes {@code text} to {@code file} with mode 600 and returns the file. */
    public static Path write(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
