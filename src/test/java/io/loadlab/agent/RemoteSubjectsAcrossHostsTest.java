package io.loadlab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.loadlab.data.ExperimentStore;
import io.loadlab.data.RunRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Subjects on their own host ({@code run --subject-host}), made of network namespaces ({@link Netns}): an
 * agent with {@code --allow-subjects} in one, an agent without it in another, and {@code loadlab run}
 * (the load in its own JVM) in a third. The subject is python-asyncio, which has nothing to build, and
 * nginx for a TLS variant (its build writes two files). Needs
 * root; skipped with the reason elsewhere, and a failure where {@code LOADLAB_REQUIRE_ALL_SUBJECTS=1}
 * (scripts/test, CI) or {@code CI=true}.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RemoteSubjectsAcrossHostsTest {

    private static final Pattern STARTED = Pattern.compile("subject python-asyncio started for session (\\S+): pid (\\d+)");
    private static final Pattern CERTIFICATE = Pattern.compile("subject nginx started for session \\S+: pid (\\d+)"
            + " .*, certificate in (\\S+)");
    private static final Pattern WINDOW = Pattern.compile(
            "window of session \\S+: server CPU ([0-9.]+) s user, ([0-9.]+) s sys, peak RSS (\\d+) bytes");

    @TempDir
    static Path dir;
    static Netns net;
    static Path secret;
    static Process allowing;

    @BeforeAll
    static void hosts() throws IOException, InterruptedException {
        Optional<String> why = Netns.unavailable();
        if (why.isPresent()) {
            if ("1".equals(System.getenv("LOADLAB_REQUIRE_ALL_SUBJECTS")) || "true".equals(System.getenv("CI"))) {
                fail("remote subject tests need network namespaces, which cannot be made here: " + why.get());
            }
            Assumptions.abort("remote subject tests skipped: " + why.get());
        }
        secret = TestSecrets.write(dir.resolve("secret"), "test secret of the agents, 32 chars\n");
        net = Netns.create(dir, "subjects", "plain", "coord");
        allowing = agent("subjects", "--allow-subjects");
        agent("plain");
    }

    private static Process agent(String host, String... flags) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("agent", "--listen", address(host), "--secret-file", secret.toString()));
        args.addAll(List.of(flags));
        Process p = net.start(host, host + "-agent.log", Hosts.java("io.loadlab.cli.Main", args.toArray(String[]::new)));
        if (!Netns.awaitLine(dir.resolve(host + "-agent.log"), "listening on", Duration.ofSeconds(60))) {
            throw new IOException("agent " + host + " did not start: " + Files.readString(dir.resolve(host + "-agent.log")));
        }
        return p;
    }

    /** Skips the test without {@code what} (naming {@code missing}); fails where every subject must run. */
    private static void needs(boolean what, String missing) {
        if (!what && ("1".equals(System.getenv("LOADLAB_REQUIRE_ALL_SUBJECTS")) || "true".equals(System.getenv("CI")))) {
            fail("the TLS remote subject test cannot run: " + missing);
        }
        Assumptions.assumeTrue(what, missing);
    }

    @AfterAll
    static void removeHosts() throws InterruptedException {
        if (net != null) {
            net.close();
        }
    }

    private static String address(String host) {
        return net.host(host).ip() + ":" + Hosts.AGENT_PORT;
    }

    /**
     * Starts {@code loadlab run} in the coordinator's namespace, the subjects on {@code subjectHost}'s agent.
     *
     * @param more further options (such as {@code --agents})
     */
    private static Process run(String name, String subjectHost, String duration, int rounds, String... more)
            throws IOException {
        return runOf("^python-asyncio$", name, subjectHost, duration, rounds, more);
    }

    /** As {@link #run}, of the subjects {@code subjects} (a regular expression). */
    private static Process runOf(String subjects, String name, String subjectHost, String duration, int rounds,
                                 String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", "--subjects", subjects, "--workloads", "^plaintext$",
                "--rounds", String.valueOf(rounds), "-d", duration, "--warmup", "0s", "--cooldown", "0s", "-c", "4",
                "--subject-host", address(subjectHost), "--secret-file", secret.toString(),
                "--out", dir.resolve(name).toString()));
        args.addAll(List.of(more));
        return net.start("coord", name + ".out", Hosts.java("io.loadlab.cli.Main", args.toArray(String[]::new)));
    }

    /** Waits for a {@code loadlab run} that must succeed, and returns its {@code rows} rows. */
    private static List<RunRow> rowsOf(Process coordinator, String name, int rows) throws Exception {
        assertTrue(coordinator.waitFor(3, TimeUnit.MINUTES), "loadlab run ends");
        String out = Files.readString(dir.resolve(name + ".out"));
        assertEquals(0, coordinator.exitValue(), out);
        List<RunRow> recorded;
        try (ExperimentStore store = ExperimentStore.open(dir.resolve(name)).store()) {
            recorded = store.rows();
        }
        assertEquals(rows, recorded.size(), out);
        return recorded;
    }

    private static String agentLog(String host) throws IOException {
        return Files.readString(dir.resolve(host + "-agent.log"), StandardCharsets.UTF_8);
    }

    /** The pids of the subjects the agent on {@code host} started, in order. */
    private static List<Long> startedPids(String host) throws IOException {
        List<Long> out = new ArrayList<>();
        Matcher m = STARTED.matcher(agentLog(host));
        while (m.find()) {
            out.add(Long.parseLong(m.group(2)));
        }
        return out;
    }

    @Test
    void theSubjectRunsOnItsHostIsSampledThereAndIsStoppedAfterEachRound() throws Exception {
        int before = startedPids("subjects").size();
        List<RunRow> rows = rowsOf(run("remote", "subjects", "1s", 2), "remote", 2);
        List<Long> pids = startedPids("subjects");
        assertEquals(before + 2, pids.size(), "a fresh subject process per round, on the subject host");
        List<String[]> windows = new ArrayList<>();
        Matcher m = WINDOW.matcher(agentLog("subjects"));
        while (m.find()) {
            windows.add(new String[] {m.group(1), m.group(2), m.group(3)});
        }
        for (int i = 0; i < 2; i++) {
            RunRow r = rows.get(i);
            assertEquals("ok", r.get("status"), r.get("error"));
            assertTrue(Long.parseLong(r.get("requests")) > 0, r.values().toString());
            // The row's server figures are those the subject host's agent sampled, to the byte.
            String[] w = windows.get(windows.size() - 2 + i);
            assertEquals(Long.parseLong(w[2]), Long.parseLong(r.get("server_peak_rss_bytes")));
            assertTrue(Long.parseLong(w[2]) > 1_000_000, "a Python server's peak RSS is over 1 MB: " + w[2]);
            assertEquals(Double.parseDouble(w[0]) + Double.parseDouble(w[1]), Double.parseDouble(r.get("server_cpu_s")),
                    0.0015);
            assertTrue(Double.parseDouble(r.get("server_cpu_s")) > 0, "the server used CPU serving the load");
        }
        for (long pid : pids.subList(before, pids.size())) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "subject pid " + pid + " is gone");
        }
        assertTrue(agentLog("subjects").contains("stopped (pid " + pids.get(pids.size() - 1) + ")"));
    }

    /**
     * nginx in h1-tls on the subject host: the runner's throw-away CA issues its certificate for the
     * subject host's IP, the agent gets it with the launch, and the engine verifies it (no --insecure).
     */
    @Test
    void aTlsSubjectOnItsHostServesTheRunnersCertificateWhichIsDeletedWhenItStops() throws Exception {
        needs(io.loadlab.subject.ThrowawayCa.available(), "openssl is not installed");
        needs(io.loadlab.host.Executables.find("nginx").isPresent(), "nginx is not installed");
        long nginxBefore = CERTIFICATE.matcher(agentLog("subjects")).results().count();
        List<RunRow> rows = rowsOf(runOf("^nginx$", "tls", "subjects", "1s", 1, "--protocols", "^h1-tls$"), "tls", 1);
        RunRow r = rows.get(0);
        assertEquals("ok", r.get("status"), r.get("error"));
        assertTrue(r.get("variant").endsWith("h1-tls"), r.get("variant"));
        assertEquals("http/1.1", r.get("protocol"));
        assertEquals(0, Long.parseLong(r.get("errors_tls")), r.values().toString());
        assertTrue(Long.parseLong(r.get("requests")) > 0, r.values().toString());
        List<MatchResult> started = CERTIFICATE.matcher(agentLog("subjects")).results().toList();
        assertEquals(nginxBefore + 1, started.size(), "one nginx, with its certificate: " + agentLog("subjects"));
        long pid = Long.parseLong(started.get(started.size() - 1).group(1));
        assertTrue(Netns.awaitLine(dir.resolve("subjects-agent.log"), "stopped (pid " + pid + ")", Duration.ofSeconds(30)),
                agentLog("subjects"));
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "subject pid " + pid + " is gone");
        Path certDir = Path.of(started.get(started.size() - 1).group(2));
        assertTrue(certDir.getFileName().toString().startsWith("tls-"), certDir.toString());
        assertFalse(Files.exists(certDir.resolve("server.key")), "the key is deleted with the subject");
        assertFalse(Files.exists(certDir), "the certificate folder is deleted with the subject");
    }

    @Test
    void theLoadMayComeFromAnAgentWhileTheSubjectRunsOnItsHost() throws Exception {
        List<RunRow> rows = rowsOf(run("both", "subjects", "1s", 1, "--agents", address("plain")), "both", 1);
        RunRow r = rows.get(0);
        assertEquals("ok", r.get("status"), r.get("error"));
        assertEquals(AgentEngine.LABEL, r.get("engine"));
        assertTrue(Long.parseLong(r.get("requests")) > 0, r.values().toString());
        assertTrue(Long.parseLong(r.get("server_peak_rss_bytes")) > 1_000_000, r.values().toString());
        List<Long> pids = startedPids("subjects");
        long pid = pids.get(pids.size() - 1);
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "subject pid " + pid + " is gone");
    }

    @Test
    void anAgentWithoutAllowSubjectsRefusesInOneLine() throws Exception {
        Process coordinator = run("refused", "plain", "1s", 1);
        assertTrue(coordinator.waitFor(2, TimeUnit.MINUTES), "loadlab run ends");
        assertNotEquals(0, coordinator.exitValue());
        String out = Files.readString(dir.resolve("refused.out"));
        String refusal = "agent " + address("plain") + " does not start subjects: it was started without"
                + " --allow-subjects (starting a subject runs code from its checkout)";
        assertTrue(out.lines().anyMatch(l -> l.endsWith(refusal)), out);
        assertTrue(startedPids("plain").isEmpty(), "nothing was started there");
    }

    @Test
    void aCoordinatorKilledMidRunLeavesNoSubjectRunning() throws Exception {
        int before = startedPids("subjects").size();
        Process coordinator = run("killed", "subjects", "60s", 1);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (startedPids("subjects").size() == before) {
            assertTrue(System.nanoTime() < deadline, "the subject started: " + agentLog("subjects"));
            assertTrue(coordinator.isAlive(), Files.readString(dir.resolve("killed.out")));
            Thread.sleep(50); // polling a log: the wait ends on the condition, this only paces it
        }
        long pid = startedPids("subjects").get(before);
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the subject runs");
        coordinator.destroyForcibly(); // SIGKILL, as kill -9
        coordinator.waitFor(10, TimeUnit.SECONDS);
        assertTrue(Netns.awaitLine(dir.resolve("subjects-agent.log"), "stopped (pid " + pid + ")", Duration.ofSeconds(30)),
                agentLog("subjects"));
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "subject pid " + pid + " is gone");
        assertTrue(allowing.isAlive(), "the agent waits for the next coordinator");
    }
}
