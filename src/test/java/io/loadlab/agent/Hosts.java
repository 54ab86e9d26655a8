package io.loadlab.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The agent tests' hosts: a subject ({@link CountingServer} on 10.77.0.2:8080), two agents
 * (10.77.0.3 and .4, port 5701), and a coordinator's namespace (10.77.0.5), each a namespace of
 * {@link Netns}. Agents are started (again) on demand; every process is stopped by pid in {@link #close}.
 */
final class Hosts implements AutoCloseable {

    static final String[] NAMES = {"subject", "agent1", "agent2", "coord"};
    static final int SUBJECT_PORT = 8080;
    static final int AGENT_PORT = 5701;
    private static final ObjectMapper JSON = new ObjectMapper();

    final Netns net;
    final Path dir;
    final Path secret;
    private final Process[] agents = new Process[2];
    private int agentStarts;

    /** What a coordinator process did: its exit code, its JSON (or null), its standard error. */
    record Coordinated(int exit, JsonNode json, String stderr) {}

    private Hosts(Netns net, Path dir, Path secret) {
        this.net = net;
        this.dir = dir;
        this.secret = secret;
    }

    static Hosts start(Path dir) throws IOException, InterruptedException {
        Path secret = dir.resolve("secret");
        TestSecrets.write(secret, "test secret of the agents, 32 chars\n");
        Netns net = Netns.create(dir, NAMES);
        Hosts h = new Hosts(net, dir, secret);
        try {
            Process s = net.start("subject", "subject.log", java(CountingServer.class.getName(),
                    net.host("subject").ip(), String.valueOf(SUBJECT_PORT)));
            if (!Netns.awaitLine(dir.resolve("subject.log"), "ready", Duration.ofSeconds(30))) {
                throw new IOException("the counting server did not start: " + Files.readString(dir.resolve("subject.log")));
            }
            h.ensureAgents();
            return h;
        } catch (IOException | RuntimeException e) {
            h.close();
            throw e;
        }
    }

    /** {@code java -cp <Loadlab's classes and libraries> main args...}. */
    static List<String> java(String main, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-cp", "target/classes:target/test-classes:target/lib/*", main));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** {@code HOST:PORT} of agent 1 or 2. */
    String agent(int k) {
        return net.host("agent" + k).ip() + ":" + AGENT_PORT;
    }

    String url(String path) {
        return "http://" + net.host("subject").ip() + ":" + SUBJECT_PORT + path;
    }

    /** Agent k's log (the current process's). */
    Path agentLog(int k) {
        return dir.resolve("agent" + k + "-" + agentStarts + ".log");
    }

    /** Agent k's folder of its own hlogs. */
    Path agentHlogs(int k) {
        return dir.resolve("hlogs" + k);
    }

    Process agentProcess(int k) {
        return agents[k - 1];
    }

    /** Starts each agent that is not running, with fresh logs and hlog folders, and waits until all listen. */
    void ensureAgents() throws IOException, InterruptedException {
        boolean any = false;
        for (Process p : agents) {
            any |= p == null || !p.isAlive();
        }
        if (!any) {
            return;
        }
        agentStarts++;
        for (int k = 1; k <= 2; k++) {
            Process p = agents[k - 1];
            if (p != null && p.isAlive()) {
                Netns.stop(p);
            }
            Path hl = agentHlogs(k);
            Files.createDirectories(hl);
            try (var files = Files.list(hl)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            agents[k - 1] = net.start("agent" + k, agentLog(k).getFileName().toString(), java("io.loadlab.cli.Main",
                    "agent", "--listen", agent(k), "--secret-file", secret.toString(), "--hlog-dir", hl.toString()));
        }
        for (int k = 1; k <= 2; k++) {
            if (!Netns.awaitLine(agentLog(k), "listening on", Duration.ofSeconds(60))) {
                throw new IOException("agent " + k + " did not start: " + Files.readString(agentLog(k)));
            }
        }
    }

    /** Starts {@code loadlab load ARGS} in the coordinator's namespace. */
    Process coordinator(String name, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("load"));
        cmd.addAll(List.of(args));
        return net.start("coord", name + ".json", java("io.loadlab.cli.Main", cmd.toArray(String[]::new)));
    }

    /** Runs {@code loadlab load ARGS} there to its end (at most 2 minutes). */
    Coordinated load(String name, String... args) throws IOException, InterruptedException {
        Process p = coordinator(name, args);
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            Netns.stop(p);
            throw new IOException("the coordinator did not end within 2 minutes");
        }
        return result(name, p.exitValue());
    }

    /** The coordinator's output read back: its JSON object (the last one it printed) and the rest. */
    Coordinated result(String name, int exit) throws IOException {
        String out = Files.readString(dir.resolve(name + ".json"), StandardCharsets.UTF_8);
        int brace = out.indexOf("{\n");
        JsonNode json = brace < 0 ? null : JSON.readTree(out.substring(brace, out.lastIndexOf('}') + 1));
        return new Coordinated(exit, json, brace < 0 ? out : out.substring(0, brace) + out.substring(out.lastIndexOf('}') + 1));
    }

    /** The subject's own count of the requests it answered. */
    long serverCount() throws IOException, InterruptedException {
        String out = Netns.run(net.host("coord"), "python3", "-c", "import urllib.request;print(urllib.request.urlopen("
                + "'" + url("/count") + "', timeout=10).read().decode())");
        return Long.parseLong(out.strip());
    }

    /** Established TCP connections to the subject's port, as the subject's namespace sees them. */
    String subjectConnections() throws IOException, InterruptedException {
        return Netns.run(net.host("subject"), "ss", "-Htn", "state", "established", "( sport = :" + SUBJECT_PORT + " )").strip();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        net.close();
    }
}
