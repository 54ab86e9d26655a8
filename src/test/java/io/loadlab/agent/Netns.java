package io.loadlab.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hosts for tests, made of Linux network namespaces: one namespace holds a bridge (the switch), and
 * each host is a namespace of its own joined to it by a veth pair, with an address 10.77.0.N/24 on its
 * {@code eth0}. Nothing is added to the root namespace, so the addresses cannot meet any other
 * network. Names carry this JVM's pid; {@link #close} stops every process started here (by pid) and
 * deletes the namespaces by name, whatever fails on the way, and so does a shutdown hook when the test
 * JVM is ended before its clean-up; {@link #create} first stops the processes left in the namespaces of
 * test JVMs that died (by their pids, {@code ip netns pids}) and deletes those namespaces.
 */
final class Netns implements AutoCloseable {

    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final String PREFIX = "ll";

    /** A host: its namespace and its address. */
    record Host(String ns, String ip) {}

    private final String switchNs;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final List<Process> processes = new ArrayList<>();
    private final Path logs;
    private final Thread hook = new Thread(this::closeQuietly, "netns-cleanup");
    private boolean closed;

    private Netns(String switchNs, Path logs) {
        this.switchNs = switchNs;
        this.logs = logs;
    }

    /** Why namespaces cannot be made here (not root, no {@code ip}), or empty when they can. */
    static Optional<String> unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("network namespaces need root (ip netns add), and this is " + System.getProperty("user.name"));
        }
        try {
            Process p = new ProcessBuilder("ip", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0 ? Optional.empty() : Optional.of("'ip -V' failed: install iproute2 (scripts/setup)");
        } catch (IOException e) {
            return Optional.of("no 'ip' command: install iproute2 (scripts/setup)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /**
     * Makes the switch and one namespace per host name, addresses 10.77.0.2, .3, ... in that order.
     *
     * @param logs folder for the processes' output
     */
    static Netns create(Path logs, String... names) throws IOException, InterruptedException {
        removeStale();
        String base = PREFIX + ProcessHandle.current().pid() + "x" + SEQ.incrementAndGet();
        Netns n = new Netns(base + "-sw", logs);
        Runtime.getRuntime().addShutdownHook(n.hook);
        try {
            ip("netns", "add", n.switchNs);
            ip("-n", n.switchNs, "link", "add", "br0", "type", "bridge");
            ip("-n", n.switchNs, "link", "set", "br0", "up");
            int k = 0;
            for (String name : names) {
                Host h = new Host(base + "-" + name, "10.77.0." + (k + 2));
                ip("netns", "add", h.ns());
                n.hosts.put(name, h);
                ip("-n", n.switchNs, "link", "add", "v" + k, "type", "veth", "peer", "name", "eth0", "netns", h.ns());
                ip("-n", n.switchNs, "link", "set", "v" + k, "master", "br0", "up");
                ip("-n", h.ns(), "addr", "add", h.ip() + "/24", "dev", "eth0");
                ip("-n", h.ns(), "link", "set", "eth0", "up");
                ip("-n", h.ns(), "link", "set", "lo", "up");
                k++;
            }
            return n;
        } catch (IOException | InterruptedException | RuntimeException e) {
            n.close();
            throw e;
        }
    }

    Host host(String name) {
        return hosts.get(name);
    }

    /** Starts {@code command} in host {@code name}'s namespace, its output in {@code logs/<file>}. */
    Process start(String name, String file, List<String> command) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", host(name).ns()));
        cmd.addAll(command);
        Path log = logs.resolve(file);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        synchronized (processes) {
            processes.add(p);
        }
        return p;
    }

    /** Runs a command in a host's namespace to its end; its output. */
    static String run(Host h, String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", h.ns()));
        cmd.addAll(List.of(command));
        Path out = Files.createTempFile("netns-run", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                stop(p);
                throw new IOException(String.join(" ", command) + " did not end within 30 s in " + h.ns());
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Stops one process by its pid: SIGTERM, then SIGKILL after 5 s. */
    static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(5, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** Waits until {@code log} holds {@code text}; false when it did not within {@code max}. */
    static boolean awaitLine(Path log, String text, Duration max) throws IOException, InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < end) {
            if (Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains(text)) {
                return true;
            }
            Thread.sleep(50); // polling a file: the wait ends on the condition, this only paces it
        }
        return false;
    }

    /**
     * Stops every process started here, by pid, then kills by pid whatever is still in the namespaces
     * (a child of one of them), then deletes the namespaces; each step runs even when one before failed.
     */
    @Override
    public void close() throws InterruptedException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            synchronized (processes) {
                for (Process p : processes) {
                    try {
                        stop(p);
                    } finally {
                        p.destroyForcibly();
                    }
                }
            }
        } finally {
            for (Host h : hosts.values()) {
                delete(h.ns());
            }
            delete(switchNs);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // Called from the hook itself, as the JVM shuts down: nothing to remove.
            }
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The pids of the processes in namespace {@code ns}. */
    static List<Long> pids(String ns) throws InterruptedException {
        try {
            return ip("netns", "pids", ns).lines().map(String::strip).filter(x -> !x.isEmpty()).map(Long::parseLong)
                    .toList();
        } catch (IOException e) {
            return List.of(); // no such namespace
        }
    }

    /** Kills by pid every process left in {@code ns}, waits for them, and deletes it. */
    private static void delete(String ns) throws InterruptedException {
        for (long pid : pids(ns)) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        for (long pid : pids(ns)) {
            Optional<ProcessHandle> p = ProcessHandle.of(pid);
            if (p.isPresent()) {
                try {
                    p.get().onExit().get(5, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    // Still there after SIGKILL (in the kernel's hands): the namespace goes with it.
                }
            }
        }
        ipQuiet("netns", "del", ns);
    }

    /** Deletes the namespaces of earlier test JVMs that died before their clean-up (their pid is gone). */
    private static void removeStale() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        for (String line : out.split("\n")) {
            String ns = line.split(" ")[0];
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("ll([0-9]+)x[0-9]+-.*").matcher(ns);
            if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                delete(ns);
            }
        }
    }

    private static String ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
        }
        return out;
    }

    private static void ipQuiet(String... args) throws InterruptedException {
        try {
            ip(args);
        } catch (IOException e) {
            // Already gone (or never made): nothing to remove.
        }
    }
}
