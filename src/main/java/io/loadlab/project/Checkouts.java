package io.loadlab.project;

import io.loadlab.subject.BuildLock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The git repository that holds a project file, and its revisions checked out apart, one folder per
 * commit: {@code <cache>/revisions/<repo-id>/<commit>/}, a detached {@code git worktree} of the
 * user's repository (cheap: it shares the repository's objects). The repo id is a short hash of the
 * repository's top-level folder, so two clones of one project never share checkouts, whose builds
 * could differ by untracked files.
 *
 * <p>A checkout is complete when its marker {@code <commit>.done}, written last, exists beside it;
 * one without (a killed run) is removed and made again. Two processes that need the same checkout
 * wait for each other on {@code <commit>.lock} ({@link BuildLock}).
 */
final class Checkouts {

    private static final long RESOLVE_SECONDS = 60;
    private static final long CHECKOUT_SECONDS = 600;
    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");

    private final Path folder;
    private final Path cache;
    private final String where;
    private Optional<Path> top = Optional.empty();

    /**
     * @param folder the project file's folder
     * @param cache  Loadlab's cache folder
     * @param where  what errors begin with ({@code loadlab.yaml:})
     */
    Checkouts(Path folder, Path cache, String where) {
        this.folder = folder;
        this.cache = cache;
        this.where = where;
    }

    /** The repository's top-level folder, real (symbolic links resolved). */
    Path top(String subject) {
        if (top.isEmpty()) {
            Git.Result r = Git.run(folder, List.of("rev-parse", "--show-toplevel"), RESOLVE_SECONDS, where);
            if (!r.ok() || r.out().isEmpty()) {
                throw new ProjectException(where + " subject '" + subject + "' has revisions, but " + folder
                        + " is not in a git repository (git: " + r.problem() + "); run `git init` and commit, or remove revisions");
            }
            top = Optional.of(Path.of(r.out()).toAbsolutePath().normalize());
        }
        return top.get();
    }

    /** Where the project file's folder lies inside any checkout of the repository. */
    Path relativeFolder(String subject) {
        try {
            return top(subject).relativize(folder.toRealPath());
        } catch (IOException e) {
            throw new ProjectException(where + " cannot resolve " + folder + ": " + e.getMessage(), e);
        }
    }

    /**
     * The full commit id of {@code revision}.
     *
     * @throws ProjectException when it does not resolve to a commit
     */
    String resolve(String subject, String revision) {
        if (revision.startsWith("-")) {
            // Would be read as an option by git; the parser refuses it already, this guards other callers.
            throw new ProjectException(where + " subject '" + subject + "': revision '" + revision
                    + "' starts with '-'; name a tag, branch or commit");
        }
        Path repo = top(subject);
        Git.Result r = Git.run(repo, List.of("rev-parse", "--verify", "--quiet", revision + "^{commit}"),
                RESOLVE_SECONDS, where);
        if (!r.ok() || !COMMIT.matcher(r.out()).matches()) {
            throw new ProjectException(where + " subject '" + subject + "': revision '" + revision
                    + "' does not resolve in " + repo + " (git rev-parse: " + r.problem()
                    + "); name a tag, branch or commit");
        }
        return r.out();
    }

    /**
     * A recorded commit id, checked: it must still be in the repository.
     *
     * @throws ProjectException when it is not a commit id or not in the repository
     */
    String pinned(String subject, String commit) {
        Path repo = top(subject);
        Git.Result r = COMMIT.matcher(commit).matches()
                ? Git.run(repo, List.of("rev-parse", "--verify", "--quiet", commit + "^{commit}"), RESOLVE_SECONDS, where)
                : new Git.Result(1, "", "not a commit id");
        if (!r.ok() || !r.out().equals(commit)) {
            throw new ProjectException(where + " subject '" + subject + "': the recorded commit '" + commit
                    + "' is not in " + repo + " (git rev-parse: " + r.problem()
                    + "); fetch it, or start a new experiment");
        }
        return commit;
    }

    /**
     * The folder holding {@code commit} checked out, made when missing or half made.
     *
     * @throws ProjectException when git cannot check it out
     */
    Path checkout(String subject, String commit) {
        Path repo = top(subject);
        Path base = cache.resolve("revisions").resolve(repoId(repo));
        Path dir = base.resolve(commit);
        Path done = base.resolve(commit + ".done");
        if (Files.exists(done) && Files.isDirectory(dir)) {
            return dir;
        }
        try (BuildLock lock = BuildLock.acquire(base.resolve(commit + ".lock"))) {
            if (Files.exists(done) && Files.isDirectory(dir)) {
                return dir;
            }
            Files.deleteIfExists(done);
            BuildLock.deleteTree(dir);
            // Forget worktrees whose folders are gone (the one just removed among them), else git
            // refuses to add one at the same path again.
            Git.run(repo, List.of("worktree", "prune"), RESOLVE_SECONDS, where);
            Git.Result r = Git.run(repo, List.of("worktree", "add", "--detach", dir.toString(), commit),
                    CHECKOUT_SECONDS, where);
            if (!r.ok()) {
                throw new ProjectException(where + " subject '" + subject + "': cannot check out " + commit + " into "
                        + dir + " (git worktree add: " + r.problem() + ")");
            }
            Files.writeString(done, commit + "\n", StandardCharsets.UTF_8);
            return dir;
        } catch (IOException e) {
            throw new ProjectException(where + " subject '" + subject + "': cannot check out " + commit + " into "
                    + dir + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProjectException(where + " interrupted while checking out " + commit, e);
        }
    }

    /** A short hash of the repository's top-level folder. */
    static String repoId(Path top) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(top.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
