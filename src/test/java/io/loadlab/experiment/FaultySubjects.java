package io.loadlab.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A Loadlab home of its own for the fault tests: a {@code subjects/} folder whose manifests start
 * {@code src/test/resources/faults/fault_server.py} (or a shell line) in the ways a subject can
 * misbehave, each recording its pids in {@code pids}, so that a test can check by pid that
 * nothing is left running.
 */
final class FaultySubjects {

    static final Path REPO = Path.of(System.getProperty("user.dir"));
    static final Path SERVER = REPO.resolve("src/test/resources/faults/fault_server.py");
    /** Debian's python3 starts in 0.1 s where a pyenv shim on the PATH may take over a second. */
    static final String PYTHON = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";

    final Path home;
    final Path pids;

    private FaultySubjects(Path home) {
        this.home = home;
        this.pids = home.resolve("pids");
    }

    static FaultySubjects in(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("subjects"));
        return new FaultySubjects(dir);
    }

    /** The fault server with these arguments after {@code --port {port} --pids FILE}. */
    String server(String args) {
        return PYTHON + " " + SERVER + " --port {port} --pids " + pids + (args.isEmpty() ? "" : " " + args);
    }

    /** Adds subject {@code name} with this start command, serving {@code plaintext}. */
    FaultySubjects subject(String name, String start, Duration readyTimeout) throws IOException {
        Path dir = Files.createDirectories(home.resolve("subjects").resolve(name));
        Files.writeString(dir.resolve("subject.yaml"), "name: " + name + "\n"
                + "description: a subject for the fault tests\n"
                + "language: Python\n"
                + "requires: [python3]\n"
                + "start: |-\n  " + start + "\n"
                + "ready: {path: /plaintext, timeout: " + readyTimeout.toMillis() + "ms}\n"
                + "workloads: [plaintext]\n");
        return this;
    }

    /** Every pid a subject recorded so far (its server, its children, a squatter). */
    List<Long> recordedPids() throws IOException {
        List<Long> out = new ArrayList<>();
        if (Files.exists(pids)) {
            for (String line : Files.readAllLines(pids)) {
                String[] f = line.trim().split(" ");
                if (f.length == 2) {
                    out.add(Long.parseLong(f[1]));
                }
            }
        }
        return out;
    }

    /** The recorded pids of one kind ({@code server}, {@code child}, {@code orphan}, {@code squatter}). */
    List<Long> recordedPids(String kind) throws IOException {
        List<Long> out = new ArrayList<>();
        if (Files.exists(pids)) {
            for (String line : Files.readAllLines(pids)) {
                if (line.startsWith(kind + " ")) {
                    out.add(Long.parseLong(line.substring(kind.length() + 1).trim()));
                }
            }
        }
        return out;
    }

    /** The pids that still run; a zombie (killed, and not yet reaped by init, its new parent) has ended. */
    static List<Long> alive(List<Long> pids) {
        return pids.stream().filter(FaultySubjects::running).toList();
    }

    static boolean running(long pid) {
        return io.loadlab.host.ProcFs.running(pid);
    }

    /**
     * Kills whatever of {@code pids} still runs (a test's own clean-up: it stops what it
     * started), checking the command line first, so that a pid the system gave to another
     * process since is left alone.
     */
    static void kill(List<Long> pids) {
        for (long p : pids) {
            ProcessHandle.of(p).filter(h -> running(p)).filter(h -> h.info().commandLine()
                    .map(c -> c.contains("fault_server") || c.contains("sleep")).orElse(false)).ifPresent(h -> {
                        h.destroyForcibly();
                        await(Duration.ofSeconds(5), () -> !running(p));
                    });
        }
    }

    /** Polls {@code condition} every 20 ms until it holds or {@code timeout} passes. */
    static boolean await(Duration timeout, BooleanSupplier condition) {
        Instant end = Instant.now().plus(timeout);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(end)) {
                return false;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    static Optional<String> commandLine(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().commandLine());
    }
}
