package io.loadlab.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The latency-sweep tests' stand-in subject ({@code paced}, or another name) in a loadlab home: one worker of a fixed
 * service time ({@code src/test/resources/sweep/paced_server.py}), which appends the pid of each
 * server it starts to {@code HOME/pids}, so that a test can check that nothing was left running.
 */
public final class PacedStandIn {

    private static final Path SERVER = FaultySubjects.REPO.resolve("src/test/resources/sweep/paced_server.py");

    private PacedStandIn() {
    }

    /**
     * Writes {@code home/subjects/paced/subject.yaml}.
     *
     * @param serviceMs the server's time per request, ms: its capacity is 1000 / serviceMs requests/s
     */
    public static void install(Path home, double serviceMs) throws IOException {
        install(home, "paced", serviceMs);
    }

    /** Writes {@code home/subjects/NAME/subject.yaml}: the stand-in under another name. */
    public static void install(Path home, String name, double serviceMs) throws IOException {
        install(home, name, serviceMs, "");
    }

    /**
     * Writes {@code home/subjects/NAME/subject.yaml}: the stand-in as a JIT server, {@code plateauMs}
     * an answer for its first {@code plateauSeconds} after its first request while a thread named like
     * HotSpot's C2 compiler burns CPU, then {@code serviceMs}.
     */
    public static void installJit(Path home, String name, double serviceMs, double plateauSeconds, double plateauMs)
            throws IOException {
        install(home, name, serviceMs, " --plateau-s " + plateauSeconds + " --plateau-ms " + plateauMs);
    }

    private static void install(Path home, String name, double serviceMs, String more) throws IOException {
        Path subject = Files.createDirectories(home.resolve("subjects/" + name));
        Files.writeString(subject.resolve("subject.yaml"), "name: " + name + "\n"
                + "description: one worker, " + serviceMs + " ms per request (the latency-sweep tests' stand-in)\n"
                + "language: Python\n"
                + "requires: [python3]\n"
                + "start: " + FaultySubjects.PYTHON + " " + SERVER + " --port {port} --service-ms " + serviceMs
                + " --pids " + home.resolve("pids") + more + "\n"
                + "ready: {path: /plaintext, timeout: 30s}\n"
                + "workloads: [plaintext]\n");
    }

    /**
     * The servers started from this home that are still alive, after stopping them by pid: empty
     * when the harness stopped every subject it started, as it must.
     */
    public static List<Long> leftRunning(Path home) throws IOException {
        List<Long> pids = new ArrayList<>();
        if (Files.exists(home.resolve("pids"))) {
            for (String line : Files.readAllLines(home.resolve("pids"))) {
                pids.add(Long.parseLong(line.split(" ")[1]));
            }
        }
        List<Long> alive = FaultySubjects.alive(pids);
        alive.forEach(p -> ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly));
        return alive;
    }

    /** How many servers were started from this home. */
    public static int started(Path home) throws IOException {
        return Files.exists(home.resolve("pids")) ? Files.readAllLines(home.resolve("pids")).size() : 0;
    }
}
