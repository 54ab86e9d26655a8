package io.loadlab.project;

import static io.loadlab.project.ProjectFileTest.assertOneLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.subject.Subject;
import io.loadlab.subject.SubjectManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Revisions of an inline subject: a real git repository made here (tag v1, then a second commit),
 * each revision resolved, checked out apart into the test's own cache, reused, and pinned.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES) // a hang guard only
class ProjectRevisionsTest {

    /** The project file lives in a sub-folder of the repository, as in a monorepo. */
    static final String PROJECT = """
            name: orders
            subjects:
              api:
                start: "cat {dir}/version.txt {port}"
                ready: {path: /}
                workloads: [plaintext]
                revisions: [v1, HEAD]
            """;

    @TempDir
    Path tmp;
    Path repo;
    Path file;
    Path cache;
    String v1;
    String head;

    @BeforeEach
    void repository() throws Exception {
        repo = Files.createDirectories(tmp.resolve("repo"));
        cache = tmp.resolve("cache");
        Path service = Files.createDirectories(repo.resolve("service"));
        file = service.resolve(ProjectFile.NAME);
        Files.writeString(file, PROJECT, StandardCharsets.UTF_8);
        Files.writeString(service.resolve("version.txt"), "one\n", StandardCharsets.UTF_8);
        git("init", "-q");
        git("add", ".");
        git("commit", "-q", "-m", "one");
        git("tag", "v1");
        Files.writeString(service.resolve("version.txt"), "two\n", StandardCharsets.UTF_8);
        git("commit", "-q", "-a", "-m", "two");
        v1 = git("rev-parse", "v1");
        head = git("rev-parse", "HEAD");
    }

    private String git(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", repo.toString(), "-c", "user.name=t",
                "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }

    private Catalog catalog(Map<String, String> pinned) {
        return ProjectFile.read(file).catalog(tmp.resolve("home"), pinned, cache);
    }

    @Test
    void eachRevisionIsItsOwnSubjectInItsOwnCheckout() throws IOException {
        Catalog c = catalog(Map.of());
        assertEquals(List.of("api@v1", "api@HEAD"), c.subjects().all().stream().map(Subject::name).toList());
        assertNotEquals(v1, head);
        assertEquals(Map.of("api@v1", v1, "api@HEAD", head), c.commits());
        assertEquals(List.of("api@v1", "api@HEAD"), List.copyOf(c.commits().keySet()));
        for (Subject s : c.subjects().all()) {
            SubjectManifest m = s.manifest();
            String commit = m.commit().orElseThrow();
            assertEquals(c.commits().get(s.name()), commit);
            Path checkout = cache.resolve("revisions").resolve(Checkouts.repoId(repo.toRealPath())).resolve(commit);
            assertEquals(checkout.resolve("service"), m.dir(), "{dir}: the project's folder inside the checkout");
            assertEquals(s.name().equals("api@v1") ? "one\n" : "two\n", Files.readString(m.dir().resolve("version.txt")));
            assertEquals("cat {dir}/version.txt {port}", m.start());
        }
        assertEquals(Optional.of(new ProjectRef(file, PROJECT, c.commits())), c.project());
    }

    @Test
    void aSecondCatalogReusesTheCheckoutsAndAHalfMadeOneIsMadeAgain() throws IOException {
        Catalog first = catalog(Map.of());
        Path dir = first.subjects().byName("api@v1").orElseThrow().manifest().dir();
        Path stamp = dir.resolve("stamp.txt");
        Files.writeString(stamp, "mine");
        FileTime made = Files.getLastModifiedTime(dir.getParent());
        Catalog second = catalog(Map.of());
        assertEquals(dir, second.subjects().byName("api@v1").orElseThrow().manifest().dir());
        assertTrue(Files.exists(stamp), "the checkout was reused, not made again");
        assertEquals(made, Files.getLastModifiedTime(dir.getParent()));

        // A run killed while checking out leaves no marker: the folder is made anew.
        Files.delete(dir.getParent().resolveSibling(v1 + ".done"));
        Catalog third = catalog(Map.of());
        assertEquals(dir, third.subjects().byName("api@v1").orElseThrow().manifest().dir());
        assertFalse(Files.exists(stamp), "the half-made checkout was removed");
        assertEquals("one\n", Files.readString(dir.resolve("version.txt")));
    }

    @Test
    void pinnedCommitsOverrideWhatTheRevisionsResolveTo() throws Exception {
        Catalog c = catalog(Map.of("api@HEAD", v1));
        assertEquals(Map.of("api@v1", v1, "api@HEAD", v1), c.commits());
        SubjectManifest pinnedHead = c.subjects().byName("api@HEAD").orElseThrow().manifest();
        assertEquals(Optional.of(v1), pinnedHead.commit());
        assertEquals("one\n", Files.readString(pinnedHead.dir().resolve("version.txt")));
        // The recorded project plans the same commits again, whatever HEAD is by then.
        assertEquals(Map.of("api@v1", v1, "api@HEAD", v1), Catalog.of(tmp.resolve("home"), c.project()).commits());

        String bad = "0".repeat(40);
        ProjectException e = assertThrows(ProjectException.class, () -> catalog(Map.of("api@HEAD", bad)));
        assertOneLine(e.getMessage(), "subject 'api@HEAD': the recorded commit '" + bad + "' is not in ");
    }

    @Test
    void aRevisionThatDoesNotResolveIsOneLine() throws IOException {
        Files.writeString(file, PROJECT.replace("[v1, HEAD]", "[v1, v9]"));
        ProjectException e = assertThrows(ProjectException.class, () -> catalog(Map.of()));
        assertOneLine(e.getMessage(), "loadlab.yaml: subject 'api': revision 'v9' does not resolve in "
                + repo.toRealPath() + " (git rev-parse: exit 1); name a tag, branch or commit");
    }

    @Test
    void revisionsOutsideAGitRepositoryAreOneLine() throws IOException {
        Path alone = Files.createDirectories(tmp.resolve("alone"));
        Path f = alone.resolve(ProjectFile.NAME);
        Files.writeString(f, PROJECT);
        ProjectException e = assertThrows(ProjectException.class,
                () -> ProjectFile.read(f).catalog(tmp.resolve("home"), Map.of(), cache));
        assertOneLine(e.getMessage(), "subject 'api' has revisions, but " + alone + " is not in a git repository");
    }
}
