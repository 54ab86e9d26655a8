package io.loadlab.subject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared build cache: one build per source hash however many processes and threads ask at
 * once, a half-done build redone, and a new hash when a source changes.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES) // a hang guard only
class BuildCacheTest {

    /**
     * A build that fails when another build of it is running (mkdir is atomic), and that takes
     * half a second, so that two unlocked builds would overlap.
     */
    private static final String BUILD = "mkdir {cache}/running && echo {build} >> {cache}/builds.txt"
            + " && cp src.txt {build}/out.txt && sleep 0.5 && rmdir {cache}/running";

    @TempDir
    Path tmp;

    private SubjectManifest subject(String source) throws IOException {
        Path dir = tmp.resolve("subjects/demo");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("src.txt"), source, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("subject.yaml"), "name: demo\ndescription: d\nlanguage: l\n"
                + "build: {command: \"" + BUILD + "\", sources: [src.txt]}\nstart: \"true\"\n"
                + "ready: {path: /}\nworkloads: [plaintext]\n", StandardCharsets.UTF_8);
        return SubjectManifest.read(dir, Set.of("plaintext"));
    }

    private List<String> builds() throws IOException {
        return Files.readAllLines(tmp.resolve("cache/builds.txt"));
    }

    @Test
    void twoProcessesAskingAtOnceGetOneBuild() throws Exception {
        SubjectManifest m = subject("one");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<Process> ps = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ps.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), BuildCacheMain.class.getName(),
                    m.dir().toString(), tmp.resolve("cache").toString()).redirectErrorStream(true).start());
        }
        List<String> dirs = new ArrayList<>();
        for (Process p : ps) {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the build process ended");
            assertEquals(0, p.exitValue(), out);
            dirs.add(out);
        }
        assertEquals(dirs.get(0), dirs.get(1));
        assertEquals(List.of(dirs.get(0)), builds(), "built once, by one of them");
        assertEquals("one", Files.readString(Path.of(dirs.get(0), "out.txt")));
    }

    @Test
    void threadsOfOneProcessWaitForEachOther() throws Exception {
        SubjectManifest m = subject("one");
        SubjectLauncher launcher = new SubjectLauncher(tmp, tmp.resolve("cache"));
        CompletableFuture<Path> other = CompletableFuture.supplyAsync(() -> launcher.ensureBuilt(m));
        Path mine = launcher.ensureBuilt(m);
        assertEquals(mine, other.get(60, TimeUnit.SECONDS));
        assertEquals(1, builds().size(), builds().toString());
    }

    @Test
    void aBuildLeftHalfDoneIsDoneAgainAndAChangedSourceIsANewBuild() throws Exception {
        SubjectLauncher launcher = new SubjectLauncher(tmp, tmp.resolve("cache"));
        Path first = launcher.ensureBuilt(subject("one"));
        assertTrue(first.startsWith(tmp.resolve("cache/subjects/demo")), first.toString());
        // As a build killed midway leaves it: files, no .built marker.
        Files.delete(first.resolve(".built"));
        Files.writeString(first.resolve("junk"), "half");
        assertEquals(first, launcher.ensureBuilt(subject("one")));
        assertFalse(Files.exists(first.resolve("junk")), "the half-done folder was cleared first");
        assertEquals(2, builds().size());
        Path second = launcher.ensureBuilt(subject("two"));
        assertNotEquals(first, second);
        assertEquals("two", Files.readString(second.resolve("out.txt")));
        assertEquals(first, launcher.ensureBuilt(subject("one")), "the first build is still there");
        assertEquals(3, builds().size());
    }
}
