package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which jupyter report, demo and kernel install run: --jupyter, else the PATH's, else Debian's. */
class JupyterTest {

    @TempDir
    Path tmp;

    @Test
    void theFirstJupyterOnThePathWinsOverDebians() throws IOException {
        Path venv = executable(tmp.resolve("venv/bin/jupyter"));
        executable(tmp.resolve("conda/bin/jupyter"));
        String path = tmp.resolve("empty") + ":" + tmp.resolve("venv/bin") + ":" + tmp.resolve("conda/bin") + ":/usr/bin";
        assertEquals(Optional.of(venv), Jupyter.find(null, path));
    }

    @Test
    void givenJupyterWinsOverThePath() throws IOException {
        executable(tmp.resolve("venv/bin/jupyter"));
        Path given = executable(tmp.resolve("mine/jupyter"));
        assertEquals(Optional.of(given), Jupyter.find(given, tmp.resolve("venv/bin").toString()));
    }

    @Test
    void withNoneOnThePathDebiansIsTheFallback() {
        Optional<Path> found = Jupyter.find(null, tmp.resolve("nothing-here").toString());
        assertEquals(Files.isExecutable(Jupyter.DEBIAN) ? Optional.of(Jupyter.DEBIAN) : Optional.empty(), found);
    }

    @Test
    void aGivenFileThatCannotRunIsAOneLineError() throws IOException {
        Path notRunnable = Files.writeString(tmp.resolve("jupyter"), "");
        CliException e = assertThrows(CliException.class, () -> Jupyter.command(notRunnable));
        assertTrue(e.getMessage().startsWith("--jupyter " + notRunnable + " is not an executable file: put a Jupyter"),
                e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }

    private static Path executable(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
