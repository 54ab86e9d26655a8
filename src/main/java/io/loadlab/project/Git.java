package io.loadlab.project;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code git} without a shell: every argument, a user's revision among them, is one element
 * of the argument list, so nothing in it is ever interpreted by a shell.
 */
final class Git {

    /** What one git command said. */
    record Result(int exit, String out, String err) {
        boolean ok() {
            return exit == 0;
        }

        /** The first line of stderr, or the exit status when git said nothing (as with {@code --quiet}). */
        String problem() {
            return err.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("exit " + exit);
        }
    }

    private Git() {
    }

    /**
     * Runs {@code git -C dir args...}, its output to temporary files (so that a chatty command cannot
     * block on a full pipe), with no terminal prompt.
     *
     * @throws ProjectException when git cannot be started or takes longer than {@code timeoutSeconds}
     */
    static Result run(Path dir, List<String> args, long timeoutSeconds, String where) {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(args);
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("loadlab-git-", ".out");
            err = Files.createTempFile("loadlab-git-", ".err");
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().put("GIT_TERMINAL_PROMPT", "0");
            pb.environment().put("LC_ALL", "C");
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new ProjectException(where + " `git " + String.join(" ", args) + "` took longer than "
                        + timeoutSeconds + " s in " + dir);
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8).strip(),
                    Files.readString(err, StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            throw new ProjectException(where + " cannot run git in " + dir + " (" + e.getMessage()
                    + "); revisions need git on PATH", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProjectException(where + " interrupted while running git in " + dir, e);
        } finally {
            delete(out);
            delete(err);
        }
    }

    private static void delete(Path p) {
        if (p != null) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // A leftover temporary file is harmless.
            }
        }
    }
}
