package io.loadlab.subject;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A running subject: a server process started from a command line, optionally pinned with
 * {@code taskset}, its output drained to a log file. {@link #close()} stops it and every
 * process it started (SIGTERM, then SIGKILL after a grace period), by PID.
 */
public final class SubjectProcess implements AutoCloseable {

    private static final Duration GRACE = Duration.ofSeconds(5);

    private final String name;
    private final Process process;
    private final Path log;

    private SubjectProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code command}, its standard output and error appended to {@code log}.
     *
     * @param cpus CPUs to pin the process to (taskset list syntax); empty for no pinning
     * @throws SubjectException when the command cannot be started
     */
    public static SubjectProcess start(String name, List<String> command, Path workDir, Path log,
                                       Optional<String> cpus) {
        List<String> cmd = new ArrayList<>();
        cpus.ifPresent(c -> cmd.addAll(List.of("taskset", "-c", c)));
        cmd.addAll(command);
        try {
            Process p = new ProcessBuilder(cmd)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            return new SubjectProcess(name, p, log);
        } catch (IOException e) {
            throw new SubjectException("subject '" + name + "' could not start (" + String.join(" ", cmd)
                    + "): " + e.getMessage(), e);
        }
    }

    /** The subject's process (the root of its tree). */
    public ProcessHandle handle() {
        return process.toHandle();
    }

    /** The log file its output goes to. */
    public Path log() {
        return log;
    }

    /**
     * Waits until {@code GET path} on the port answers 2xx, polling every 50 ms.
     *
     * @throws SubjectException when the process exits first or the timeout passes; the message
     *                          carries the tail of the subject's log
     */
    public void awaitReady(String host, int port, String path, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastProblem = "no attempt yet";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new SubjectException("subject '" + name + "' exited with code " + process.exitValue()
                        + " before it was ready; its log ends with:\n" + tail(log, 20));
            }
            Optional<String> problem = probe(host, port, path);
            if (problem.isEmpty()) {
                return;
            }
            lastProblem = problem.get();
            try {
                process.waitFor(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SubjectException("interrupted while waiting for subject '" + name + "'", e);
            }
        }
        throw new SubjectException("subject '" + name + "' was not ready on port " + port + " within "
                + timeout.toMillis() + "ms (last probe: " + lastProblem + "); its log ends with:\n" + tail(log, 20));
    }

    /** One readiness probe: empty when the answer was 2xx, else what went wrong. */
    private static Optional<String> probe(String host, int port, String path) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] head = in.readNBytes(12);
            String status = new String(head, StandardCharsets.US_ASCII);
            if (status.startsWith("HTTP/1.") && status.length() == 12 && status.charAt(9) == '2') {
                return Optional.empty();
            }
            return Optional.of("answered '" + status.trim() + "'");
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The exit code once the root process has ended. */
    public Optional<Integer> exitCode() {
        return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
    }

    /** A TCP port that is free on this machine now (the OS picks it). */
    public static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Whether the subject's root process still runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Stops the whole process tree: SIGTERM first, SIGKILL after the grace period. */
    @Override
    public void close() {
        List<ProcessHandle> tree = new ArrayList<>();
        process.descendants().forEach(tree::add);
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + GRACE.toNanos();
        for (ProcessHandle p : tree) {
            long left = deadline - System.nanoTime();
            try {
                p.onExit().get(Math.max(0, left), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // Still running after the grace period: kill it.
                p.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        for (ProcessHandle p : tree) {
            if (p.isAlive()) {
                p.destroyForcibly();
                p.onExit().join();
            }
        }
    }

    /** The last {@code lines} lines of a log file, or a note when it cannot be read. */
    public static String tail(Path file, int lines) {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long len = f.length();
            int n = (int) Math.min(len, 16 * 1024);
            byte[] buf = new byte[n];
            f.seek(len - n);
            f.readFully(buf);
            String[] all = new String(buf, StandardCharsets.UTF_8).split("\n");
            int from = Math.max(0, all.length - lines);
            return String.join("\n", java.util.Arrays.asList(all).subList(from, all.length));
        } catch (IOException e) {
            return "(log " + file + " unreadable: " + e.getMessage() + ")";
        }
    }
}
