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

    /** A revision's build is keyed by its commit and command: its sources are not hashed, and a new commit builds anew. */
    @Test
    void aRevisionsBuildIsCachedByItsCommit() throws Exception {
        SubjectLauncher launcher = new SubjectLauncher(tmp, tmp.resolve("cache"));
        SubjectManifest m = subject("one");
        SubjectManifest atA = revision(m, "api@v1", "a".repeat(40));
        Path a = launcher.ensureBuilt(atA);
        assertTrue(a.startsWith(tmp.resolve("cache/subjects/api@v1")), a.toString());
        Files.writeString(m.dir().resolve("src.txt"), "changed");
        assertEquals(a, launcher.ensureBuilt(atA), "the same commit: the same build, whatever the files say");
        assertEquals(1, builds().size());
        Path b = launcher.ensureBuilt(revision(m, "api@v1", "b".repeat(40)));
        assertNotEquals(a, b);
        assertEquals(2, builds().size());
        Path slash = launcher.ensureBuilt(revision(m, "api@feature/x", "a".repeat(40)));
        assertEquals(tmp.resolve("cache/subjects/api@feature_x"), slash.getParent(), "one safe folder per name");
    }

    /** A subject without a build gets its empty folder in the cache, never in Loadlab's folder. */
    @Test
    void anUnbuiltSubjectsFolderIsInTheCache() throws Exception {
        SubjectManifest m = subject("one");
        SubjectManifest none = new SubjectManifest("api@feature/x", "d", "l", java.util.Optional.empty(), List.of(),
                java.util.Optional.empty(), "true", m.ready(), m.workloads(), java.util.Map.of(), m.dir(),
                java.util.Optional.empty());
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path dir = new SubjectLauncher(home, tmp.resolve("cache")).ensureBuilt(none);
        assertEquals(tmp.resolve("cache/subjects/api@feature_x/unbuilt"), dir);
        assertTrue(Files.isDirectory(dir));
        try (java.util.stream.Stream<Path> s = Files.list(home)) {
            assertEquals(0, s.count(), "nothing written in Loadlab's folder");
        }
    }

    private static SubjectManifest revision(SubjectManifest m, String name, String commit) {
        return new SubjectManifest(name, m.description(), m.language(), m.versionCommand(), m.requires(), m.build(),
                m.start(), m.ready(), m.workloads(), m.variants(), m.dir(), m.warmup(), java.util.Optional.of(commit),
                java.util.Optional.empty());
    }
}
