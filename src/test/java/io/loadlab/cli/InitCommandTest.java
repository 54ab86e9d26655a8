package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.project.Project;
import io.loadlab.project.ProjectFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InitCommandTest {

    @Test
    void writesTheStarterFileOnceAndItParses(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("svc/loadlab.yaml");
        Files.createDirectories(file.getParent());
        CliRun first = CliRun.of("init", "--file", file.toString());
        assertEquals(0, first.code(), first.err());
        assertTrue(first.out().startsWith("wrote " + file), first.out());
        assertEquals(ProjectFile.template(), Files.readString(file));
        Project p = ProjectFile.read(file);
        assertEquals("my-service", p.name());

        Files.writeString(file, "name: mine\n");
        CliRun again = CliRun.of("init", "--file", file.toString());
        assertEquals(Main.EXIT_USAGE, again.code());
        assertEquals("loadlab: " + file + " exists already; edit it, or remove it to start again\n", again.err());
        assertEquals("name: mine\n", Files.readString(file), "the existing file is left alone");
        assertFalse(again.out().contains("wrote"));
    }
}
