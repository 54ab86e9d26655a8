package io.loadlab.subject;

import io.loadlab.host.Executables;
import io.loadlab.host.ListeningSockets;
import io.loadlab.host.ProcFs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A running subject: a server process started from a command line, optionally pinned with
 * {@code taskset}, its output drained to a log file. With {@code setsid} on the PATH it runs in
 * a session and process group of its own, which {@link #close()} stops as a whole (SIGTERM, then
 * SIGKILL after a grace period), by pid: children that a subject's script re-parented away from
 * its tree go too. A watchdog (a {@code bash} reading a pipe from this JVM) kills that group
 * when this JVM ends without closing the subject (kill -9, a crash), and the subject's command
 * starts only once the watchdog knows its pid, so no subject outlives the harness (except one
 * that puts itself in a session of its own, as a daemon does). Not thread-safe, except
 * {@link #killAll()}.
 */
public final class SubjectProcess implements AutoCloseable {

    private static final Duration GRACE = Duration.ofSeconds(5);
    private static final long POLL_MILLIS = 20;
    /**
     * Reads the subject's pid, waits for EOF on its stdin (this JVM's end of the pipe closes when
     * the JVM ends, however it ends), then kills the subject's group. The pid too: the subject
     * may not have called setsid yet, and then there is no such group; and the group once more,
     * for children it forked meanwhile.
     */
    private static final String WATCHDOG = "trap '' INT TERM HUP QUIT PIPE; read -r pg || exit 0;"
            + " while read -r _; do :; done; kill -KILL -- \"-$pg\" 2>/dev/null; kill -KILL \"$pg\" 2>/dev/null;"
            + " sleep 0.1; kill -KILL -- \"-$pg\" 2>/dev/null; exit 0";
    /**
     * Runs first in the subject's process (after setsid and taskset, which exec in place): waits
     * until this JVM has told the watchdog the pid, then becomes the subject's command, with
     * stdin from /dev/null. Should this JVM die before, the read ends with EOF and so does the
     * subject: there is no moment in which a subject runs unwatched.
     */
    private static final String GATE = "read -r _ || exit 1; exec \"$@\" </dev/null";
    /** Subjects started and not yet closed in this JVM: what {@link #killAll()} kills. */
    private static final Set<SubjectProcess> LIVE = ConcurrentHashMap.newKeySet();

    private final String name;
    private final Process process;
    private final Path log;
    private final boolean ownGroup;
    private final Optional<Process> watchdog;
    /** Every process seen in the tree or group so far: one re-parented since is still stopped. */
    private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

    private SubjectProcess(String name, Process process, Path log, boolean ownGroup, Optional<Process> watchdog) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.ownGroup = ownGroup;
        this.watchdog = watchdog;
    }

    /**
     * Starts {@code command}, its standard output and error appended to {@code log}.
     *
     * @param cpus CPUs to pin the process to (taskset list syntax); empty for no pinning
     * @throws SubjectException when the command cannot be started
     */
    public static SubjectProcess start(String name, List<String> command, Path workDir, Path log,
                                       Optional<String> cpus) {
        // Without setsid the subject shares this JVM's process group, which must not be killed:
        // then only its tree is stopped, and nothing watches for this JVM's death.
        boolean ownGroup = Executables.onPath("setsid");
        List<String> cmd = new ArrayList<>();
        if (ownGroup) {
            cmd.add("setsid");
        }
        cpus.ifPresent(c -> cmd.addAll(List.of("taskset", "-c", c)));
        cmd.addAll(List.of("bash", "-c", GATE, "loadlab-subject"));
        cmd.addAll(command);
        Optional<Process> watchdog = Optional.empty();
        Process p = null;
        try {
            // The watchdog first, so that the subject is watched from the moment it exists.
            if (ownGroup) {
                watchdog = Optional.of(new ProcessBuilder("bash", "-c", WATCHDOG)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start());
            }
            p = new ProcessBuilder(cmd)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            if (watchdog.isPresent()) {
                OutputStream w = watchdog.get().getOutputStream();
                w.write((p.pid() + "\n").getBytes(StandardCharsets.US_ASCII));
                w.flush();
            }
            // Watched now: let it run.
            try (OutputStream go = p.getOutputStream()) {
                go.write("go\n".getBytes(StandardCharsets.US_ASCII));
            }
            SubjectProcess sp = new SubjectProcess(name, p, log, ownGroup, watchdog);
            LIVE.add(sp);
            return sp;
        } catch (IOException e) {
            if (p != null) {
                p.destroyForcibly();
            }
            watchdog.ifPresent(Process::destroyForcibly);
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
     * Waits until {@code GET path} on the port answers 2xx, polling every 50 ms, and checks that
     * the answer came from the subject: when another program took the port after it was chosen,
     * that program answers while the subject could not listen.
     *
     * @throws SubjectException when the process exits first, the timeout passes (naming the ports
     *                          it listens on instead, if any) or another process holds the port;
     *                          the message carries the tail of the subject's log
     */
    public void awaitReady(String host, int port, String path, Duration timeout) {
        awaitReady(host, port, path, timeout, false);
    }

    /**
     * As {@link #awaitReady(String, int, String, Duration)}, the probe over TLS when {@code tls}: it
     * checks that the subject answers, not its certificate (the engine and the contract check do).
     */
    public void awaitReady(String host, int port, String path, Duration timeout, boolean tls) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<ProbeFailure> last = Optional.empty();
        while (true) {
            if (!process.isAlive()) {
                throw new SubjectException("subject '" + name + "' exited with code " + process.exitValue()
                        + " before it was ready; its log ends with:\n" + LogTail.of(log, 20));
            }
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                break;
            }
            Optional<ProbeFailure> problem = probe(host, port, path, left, tls);
            if (problem.isEmpty()) {
                List<String> others = ListeningSockets.othersOn(port, members());
                if (!others.isEmpty()) {
                    throw new SubjectException("subject '" + name + "' is not what answers on port " + port
                            + ": another process holds port " + port + " (" + String.join(", ", others)
                            + "); it took the port after Loadlab chose it, so the subject could not listen there."
                            + " Stop that program or run again; the subject's log ends with:\n" + LogTail.of(log, 20));
                }
                return;
            }
            // A probe that timed out because the deadline cut its time short says only that time
            // ran out, unless it got further than the probe before it: that one says why the
            // subject was not ready (a busy machine once turned "answered 'HTTP/1.1 500'" into
            // "no connection within 1ms"; "connected, but no answer" still replaces a refusal).
            ProbeFailure p = problem.get();
            if (last.isEmpty() || !p.cutShort() || p.stage() > last.get().stage()) {
                last = problem;
            }
            try {
                process.waitFor(Math.min(50, Math.max(1, left)), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SubjectException("interrupted while waiting for subject '" + name + "'", e);
            }
        }
        String elsewhere = ListeningSockets.portsOf(members()).filter(p -> !p.isEmpty() && !p.contains(port))
                .map(p -> "; it listens on port " + String.join(", ", p.stream().map(String::valueOf).toList())
                        + " instead: does its start command pass {port}?")
                .orElse("");
        throw new SubjectException("subject '" + name + "' was not ready on port " + port + " within "
                + timeout.toMillis() + "ms (last probe: " + last.map(ProbeFailure::text).orElse("no attempt yet") + ")"
                + elsewhere + "; its log ends with:\n"
                + LogTail.of(log, 20));
    }

    /**
     * What a readiness probe found wrong: how far it got ({@code stage}: 0 not connected, 1
     * connected, 2 answered), and {@code cutShort} when it timed out within less than its usual time.
     */
    private record ProbeFailure(String text, int stage, boolean cutShort) {
        static final int NOT_CONNECTED = 0;
        static final int CONNECTED = 1;
        static final int ANSWERED = 2;
    }

    private static final int PROBE_CONNECT_MS = 1000;
    private static final int PROBE_READ_MS = 2000;

    /** One readiness probe within {@code limitMillis}: empty when the answer was 2xx, else what went wrong. */
    private static Optional<ProbeFailure> probe(String host, int port, String path, long limitMillis, boolean tls) {
        int connectMillis = (int) Math.max(1, Math.min(PROBE_CONNECT_MS, limitMillis));
        int readMillis = (int) Math.max(1, Math.min(PROBE_READ_MS, limitMillis));
        boolean connected = false;
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(host, port), connectMillis);
            connected = true;
            plain.setSoTimeout(readMillis);
            Socket s = tls ? ReadinessTls.wrap(plain, host, port) : plain;
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
            return Optional.of(new ProbeFailure("answered '" + status.trim() + "'", ProbeFailure.ANSWERED, false));
        } catch (SocketTimeoutException e) {
            return Optional.of(connected
                    ? new ProbeFailure("connected, but no answer within " + readMillis + "ms", ProbeFailure.CONNECTED,
                            readMillis < PROBE_READ_MS)
                    : new ProbeFailure("no connection within " + connectMillis + "ms", ProbeFailure.NOT_CONNECTED,
                            connectMillis < PROBE_CONNECT_MS));
        } catch (IOException e) {
            return Optional.of(new ProbeFailure(String.valueOf(e.getMessage()),
                    connected ? ProbeFailure.CONNECTED : ProbeFailure.NOT_CONNECTED, false));
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

    /**
     * Stops the subject's process group and tree: SIGTERM first, SIGKILL to whatever is left
     * after the grace period (5 s), until nothing is left; then its watchdog.
     */
    @Override
    public void close() {
        // An interrupted caller (Ctrl-C) still gets a stopped subject, only without the grace period.
        boolean interrupted = Thread.interrupted();
        try {
            Set<Long> termed = new java.util.HashSet<>();
            long deadline = System.nanoTime() + (interrupted ? 0 : GRACE.toNanos());
            for (List<ProcessHandle> alive = members(); !alive.isEmpty(); alive = members()) {
                if (System.nanoTime() >= deadline) {
                    interrupted |= killUntilGone();
                    break;
                }
                for (ProcessHandle p : alive) {
                    if (termed.add(p.pid())) {
                        p.destroy();
                    }
                }
                if (pause()) {
                    interrupted = true;
                    deadline = System.nanoTime();
                }
            }
            // The root is this JVM's child: ended is not enough, it must be reaped, or it would
            // still count as alive for whoever checks right after close.
            interrupted |= awaitReaped();
        } finally {
            LIVE.remove(this);
            watchdog.ifPresent(w -> {
                w.destroyForcibly();
                w.onExit().join();
            });
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Kills every subject this JVM started and has not closed yet (SIGKILL, no grace period):
     * for a second Ctrl-C, and as the last thing before the JVM ends. Their {@link #close()}
     * then returns at once. Safe from any thread.
     *
     * @return how many subjects were running
     */
    public static int killAll() {
        int n = 0;
        for (SubjectProcess s : LIVE) {
            s.members().forEach(ProcessHandle::destroyForcibly);
            n++;
        }
        return n;
    }

    /** SIGKILL until nothing is left (a process may fork meanwhile); true when interrupted meanwhile. */
    private boolean killUntilGone() {
        boolean interrupted = false;
        for (int round = 0; round < 50; round++) {
            List<ProcessHandle> alive = members();
            if (alive.isEmpty()) {
                return interrupted;
            }
            alive.forEach(ProcessHandle::destroyForcibly);
            interrupted |= pause();
        }
        throw new SubjectException("subject '" + name + "' still has processes 1 s after SIGKILL (stuck in the kernel?): "
                + members().stream().map(p -> p.pid() + " " + p.info().command().orElse("?")).toList());
    }

    /** Waits until Java has reaped the ended root (moments); true when interrupted meanwhile. */
    private boolean awaitReaped() {
        boolean interrupted = false;
        while (true) {
            try {
                if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new SubjectException("subject '" + name + "' (pid " + process.pid()
                            + ") ended but was not reaped within " + GRACE.toSeconds() + " s");
                }
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }

    /** Waits a little for the root to exit; true when interrupted (the flag is cleared). */
    private boolean pause() {
        try {
            process.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS);
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    /**
     * The subject's processes that still run: the root, its descendants, the members of its
     * process group, and those seen before (zombies count as ended).
     */
    private List<ProcessHandle> members() {
        seen.add(process.toHandle());
        process.descendants().forEach(seen::add);
        if (ownGroup) {
            long pgid = process.pid();
            ProcessHandle.allProcesses().filter(p -> ProcFs.processGroup(p.pid()).orElse(-1L) == pgid)
                    .forEach(seen::add);
        }
        return seen.stream().filter(ProcFs::running).toList();
    }

}
