package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Issue 30, item 10: one writer per experiment folder, and a crashed writer's folder stays resumable. */
class ExperimentStoreLockTest {

    private static final Path REPO = Path.of(System.getProperty("user.dir"));
    /** A committed experiment of 9 runs, copied for each test. */
    private static final Path SAMPLE = REPO.resolve("data/reconcile-steady");

    @TempDir
    Path tmp;

    private Path copy() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("steady"));
        for (String f : List.of(ExperimentStore.SPEC_FILE, ExperimentStore.RUNS_FILE, ExperimentStore.HLOG_FILE)) {
            Files.copy(SAMPLE.resolve(f), dir.resolve(f));
        }
        return dir;
    }

    @Test
    void aSecondResumeOfAFolderInUseIsRefusedInOneLineNamingTheFolderAndTheHolder() throws IOException {
        Path dir = copy();
        ExperimentStore.Opened first = ExperimentStore.open(dir);
        try {
            DataException e = assertThrows(DataException.class, () -> ExperimentStore.open(dir));
            assertEquals(dir + " is in use by another loadlab run or --resume (pid " + ProcessHandle.current().pid()
                    + "): wait for it to finish (or stop it), then resume " + dir, e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line");
            // A new run into the same folder is refused too, before it looks at what is there.
            assertThrows(DataException.class, () -> ExperimentStore.create(dir, first.experimentJson(), 0));
        } finally {
            first.store().close();
        }
        try (ExperimentStore again = ExperimentStore.open(dir).store()) {
            assertEquals(9, again.rows().size(), "free again once the first is closed");
        }
    }

    @Test
    @Timeout(60) // a hang guard for the child JVM's start, not a speed test
    void theLockDiesWithItsHolderAndTheCrashedFolderIsResumable() throws Exception {
        Path dir = copy();
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                REPO.resolve("target/classes") + File.pathSeparator + REPO.resolve("target/test-classes")
                        + File.pathSeparator + REPO.resolve("target/lib") + File.separator + "*",
                LockHolder.class.getName(), dir.toString())
                .redirectError(tmp.resolve("child.err").toFile()).start();
        long pid = child.pid();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertEquals("locked 9", line, () -> "child: " + read(tmp.resolve("child.err")));
            DataException e = assertThrows(DataException.class, () -> ExperimentStore.open(dir));
            assertTrue(e.getMessage().startsWith(dir + " is in use by another loadlab run or --resume (pid " + pid + ")"),
                    e.getMessage());
            // What a kill during a run leaves: a row and a histogram line cut off mid-write.
            Files.writeString(dir.resolve(ExperimentStore.RUNS_FILE), "reconcile-steady,10,4,", StandardOpenOption.APPEND);
            Files.writeString(dir.resolve(ExperimentStore.HLOG_FILE), "Tag=10,1.0,1.0,5.0,HISTF", StandardOpenOption.APPEND);
        } finally {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly); // SIGKILL: no clean-up runs
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child " + pid + " ends");
        }
        try (ExperimentStore resumed = ExperimentStore.open(dir).store()) {
            assertEquals(9, resumed.rows().size(), "the cut-off row is dropped, the 9 recorded remain");
        }
        assertTrue(Files.readString(dir.resolve(ExperimentStore.HLOG_FILE)).endsWith("\n"), "the cut-off histogram is dropped");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
