package io.loadlab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agents on separate hosts, made of network namespaces ({@link Hosts}): the subject in one, two agents
 * in two more, the coordinator ({@code loadlab load --agents}, a process of its own) in a fourth. Needs
 * root; skipped with the reason elsewhere, and a failure where {@code LOADLAB_REQUIRE_ALL_SUBJECTS=1}
 * (scripts/test, CI) or {@code CI=true}.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class AgentsAcrossHostsTest {

    @TempDir
    static Path dir;
    static Hosts hosts;

    @BeforeAll
    static void hosts() throws IOException, InterruptedException {
        Optional<String> why = Netns.unavailable();
        if (why.isPresent()) {
            if ("1".equals(System.getenv("LOADLAB_REQUIRE_ALL_SUBJECTS")) || "true".equals(System.getenv("CI"))) {
                fail("agent tests need network namespaces, which cannot be made here: " + why.get());
            }
            Assumptions.abort("agent tests skipped: " + why.get());
        }
        hosts = Hosts.start(dir);
    }

    @AfterAll
    static void removeHosts() throws IOException, InterruptedException {
        if (hosts != null) {
            hosts.close();
        }
    }

    @BeforeEach
    void agentsRunning() throws IOException, InterruptedException {
        hosts.ensureAgents();
    }

    private String agents() {
        return hosts.agent(1) + "," + hosts.agent(2);
    }

    @Test
    void mergedCountIsTheServersAndMergedPercentilesAreTheAgentsOwnMerged() throws Exception {
        long before = hosts.serverCount();
        Path hlog = dir.resolve("count.hlog");
        Hosts.Coordinated r = hosts.load("count", "-n", "20000", "-c", "16", "--agents", agents(), "--secret-file",
                hosts.secret.toString(), "--json", "--hlog", hlog.toString(), hosts.url("/plaintext"));
        assertEquals(0, r.exit(), r.stderr());
        assertEquals("ok", r.json().get("status").asText());
        assertEquals(20000, r.json().get("requests").asLong());
        assertEquals(20000, hosts.serverCount() - before, "the server's own count");
        JsonNode a = r.json().get("agents");
        assertEquals(20000, a.get(0).get("requests").asLong() + a.get(1).get("requests").asLong());
        assertEquals(10000, a.get(0).get("requests").asLong(), "equal CPUs, equal weights: half each");

        Histogram offline = new Histogram(1, 3_600_000_000L, 3);
        for (int k = 1; k <= 2; k++) {
            List<Path> own;
            try (var files = Files.list(hosts.agentHlogs(k))) {
                own = files.toList();
            }
            assertEquals(1, own.size(), "agent " + k + " kept its run");
            readAll(own.get(0), "agent").forEach(offline::add);
        }
        JsonNode lat = r.json().get("latency_us");
        assertEquals(offline.getTotalCount(), lat.get("count").asLong());
        assertEquals(offline.getValueAtPercentile(50), lat.get("p50").asLong());
        assertEquals(offline.getValueAtPercentile(90), lat.get("p90").asLong());
        assertEquals(offline.getValueAtPercentile(99), lat.get("p99").asLong());
        assertEquals(offline.getValueAtPercentile(99.9), lat.get("p999").asLong());
        assertEquals(offline.getMaxValue(), lat.get("max").asLong());
        Histogram merged = new Histogram(1, 3_600_000_000L, 3);
        readAll(hlog, "load").forEach(merged::add);
        assertEquals(offline, merged, "--hlog's merged intervals hold every bucket of the agents' own");
    }

    @Test
    void fixedRateIsSplitInHalvesThatAddUpToTheRate() throws Exception {
        Hosts.Coordinated r = hosts.load("rate", "-R", "2000", "-c", "16", "-d", "4s", "--warmup", "3s", "--agents",
                agents(), "--secret-file", hosts.secret.toString(), "--json", hosts.url("/plaintext"));
        assertEquals(0, r.exit(), r.stderr() + r.json());
        double total = 0;
        for (JsonNode a : r.json().get("agents")) {
            assertEquals(1000, a.get("target_rps").asDouble(), 1e-9);
            assertEquals(1000, a.get("rps").asDouble(), 20, "each agent R/2 ± 2%: " + a);
            total += a.get("rps").asDouble();
        }
        assertEquals(2000, total, 40);
        assertEquals(2000, r.json().get("rps").asDouble(), 40, "the merged rate");
        // Due but unsent at the window's end: a stall of the shared CPUs may leave one or two; more is a
        // schedule the agents did not keep.
        assertTrue(r.json().get("missed").asLong() <= 0.02 * 2000 * 4, "missed " + r.json().get("missed"));
    }

    @Test
    void anAgentKilledMidRunIsNamedAndTheRunIsNotOk() throws Exception {
        Process coordinator = hosts.coordinator("kill", "-c", "8", "-d", "30s", "--warmup", "0s", "--agents", agents(),
                "--secret-file", hosts.secret.toString(), "--json", hosts.url("/plaintext"));
        awaitLoad();
        hosts.agentProcess(2).destroyForcibly(); // SIGKILL, as kill -9
        assertTrue(coordinator.waitFor(60, TimeUnit.SECONDS), "the coordinator ends once an agent is lost");
        Hosts.Coordinated r = hosts.result("kill", coordinator.exitValue());
        assertNotEquals(0, r.exit());
        String status = r.json().get("status").asText();
        assertTrue(status.equals("partial") || status.equals("failed"), status);
        assertTrue(r.json().get("error").asText().contains(hosts.agent(2)), r.json().get("error").asText());
        assertEquals("lost", r.json().get("agents").get(1).get("status").asText());
        assertEquals("stopped", r.json().get("agents").get(0).get("status").asText());
        assertTrue(Netns.awaitLine(hosts.agentLog(1), "ended (stopped)", Duration.ofSeconds(30)),
                "the other agent was stopped");
    }

    @Test
    void aCoordinatorOrMemberWithoutTheSecretIsRefusedAndLogged() throws Exception {
        Path wrong = dir.resolve("wrong-secret");
        TestSecrets.write(wrong, "not the agents' secret at all, no\n");
        Hosts.Coordinated r = hosts.load("wrong", "-d", "1s", "--connect-timeout", "1s", "--agents", hosts.agent(1), "--secret-file",
                wrong.toString(), "--json", hosts.url("/plaintext"));
        assertNotEquals(0, r.exit());
        assertEquals("failed", r.json().get("status").asText());
        assertTrue(r.json().get("error").asText().contains(hosts.agent(1)), r.json().get("error").asText());
        assertTrue(Netns.awaitLine(hosts.agentLog(1), "refused client " + hosts.net.host("coord").ip(),
                Duration.ofSeconds(10)), "the agent logs the refusal");

        Process member = hosts.net.start("coord", "member.log", Hosts.java(WrongMember.class.getName(),
                hosts.net.host("coord").ip(), "5799", hosts.agent(1), "not the agents' secret at all, no"));
        assertTrue(member.waitFor(2, TimeUnit.MINUTES));
        assertTrue(Files.readString(dir.resolve("member.log")).contains("members 1"), "it stayed alone");
        assertTrue(Netns.awaitLine(hosts.agentLog(1), "refused member " + hosts.net.host("coord").ip() + ":5799",
                Duration.ofSeconds(10)), "the agent logs the refused member");
    }

    @Test
    void aCoordinatorKilledMidRunLeavesNoAgentLoading() throws Exception {
        Process coordinator = hosts.coordinator("dies", "-c", "8", "-d", "60s", "--warmup", "0s", "--agents", agents(),
                "--secret-file", hosts.secret.toString(), "--json", hosts.url("/plaintext"));
        awaitLoad();
        coordinator.destroyForcibly(); // SIGKILL
        assertTrue(coordinator.waitFor(30, TimeUnit.SECONDS));
        // The run had 60 s to go; each agent stops when its coordinator's connection drops.
        for (int k = 1; k <= 2; k++) {
            assertTrue(Netns.awaitLine(hosts.agentLog(k), "ended (coordinator_gone)", Duration.ofSeconds(30)),
                    "agent " + k + " stopped loading");
        }
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!hosts.subjectConnections().isEmpty() && System.nanoTime() < end) {
            Thread.sleep(100); // paces the check of the condition
        }
        assertEquals("", hosts.subjectConnections(), "no agent holds a connection to the subject");
        long after = hosts.serverCount();
        assertEquals(after, hosts.serverCount(), "nothing loads the subject any more");
    }

    @Test
    void agentsThatCannotReachTheTargetAreNamedWithTheirError() throws Exception {
        Hosts.Coordinated r = hosts.load("unreachable", "-d", "1s", "--agents", agents(), "--secret-file",
                hosts.secret.toString(), "--json", "http://" + hosts.net.host("subject").ip() + ":8081/plaintext");
        assertNotEquals(0, r.exit());
        assertEquals("failed", r.json().get("status").asText());
        String error = r.json().get("error").asText();
        assertTrue(error.contains(hosts.agent(1)) && error.contains(hosts.agent(2)), error);
        assertTrue(error.contains("cannot connect to the target"), error);
        assertFalse(r.json().has("requests"), "no figures for a run that never started");
    }

    @Test
    void anExperimentOnAgentsKeepsTheMergedRowAndEachAgentsFigures() throws Exception {
        Path out = dir.resolve("exp");
        Process run = hosts.net.start("coord", "run.log", Hosts.java("io.loadlab.cli.Main", "run", "--subjects",
                "java-httpserver", "--workloads", "plaintext", "--rounds", "1", "--duration", "2s", "--warmup", "1s",
                "--cooldown", "0s", "-c", "8", "--agents", agents(), "--secret-file", hosts.secret.toString(), "--out",
                out.toString()));
        assertTrue(run.waitFor(5, TimeUnit.MINUTES), "the experiment ends");
        assertEquals(0, run.exitValue(), Files.readString(dir.resolve("run.log")));
        List<java.util.Map<String, String>> rows = csv(out.resolve("runs.csv"));
        assertEquals(1, rows.size());
        assertEquals("ok", rows.get(0).get("status"), rows.get(0).get("error"));
        assertEquals("agents", rows.get(0).get("engine"));
        List<java.util.Map<String, String>> parts = csv(out.resolve("agents.csv"));
        assertEquals(List.of(hosts.agent(1), hosts.agent(2)), parts.stream().map(p -> p.get("agent")).toList());
        long sum = parts.stream().mapToLong(p -> Long.parseLong(p.get("requests"))).sum();
        assertEquals(Long.parseLong(rows.get(0).get("requests")), sum, "the merged row is the agents' sum");
        assertTrue(parts.stream().allMatch(p -> p.get("run_id").equals("1") && p.get("status").equals("ok")));
        assertTrue(parts.stream().allMatch(p -> !p.get("steal_s").isEmpty() && Double.parseDouble(p.get("steal_s")) >= 0),
                "each agent's steal over the window: " + parts);
        String spec = Files.readString(out.resolve("experiment.json"));
        assertTrue(spec.contains(hosts.agent(2)) && spec.contains("secret_file"), spec);
        assertFalse(spec.contains(Files.readString(hosts.secret).strip()), "the secret itself is never stored");
    }

    private static List<java.util.Map<String, String>> csv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<String> header = List.of(lines.get(0).split(",", -1));
        List<java.util.Map<String, String>> out = new java.util.ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] v = line.split(",", -1);
            java.util.Map<String, String> row = new java.util.HashMap<>();
            for (int i = 0; i < header.size() && i < v.length; i++) {
                row.put(header.get(i), v[i]);
            }
            out.add(row);
        }
        return out;
    }

    /** Waits until the subject has answered a few thousand requests of the run. */
    private static void awaitLoad() throws IOException, InterruptedException {
        long start = hosts.serverCount();
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (hosts.serverCount() - start < 2000) {
            if (System.nanoTime() > end) {
                fail("the run did not load the subject within 60 s");
            }
            Thread.sleep(100); // paces the check of the condition
        }
    }

    private static List<Histogram> readAll(Path hlog, String tag) throws IOException {
        List<Histogram> out = new java.util.ArrayList<>();
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        while (reader.hasNext()) {
            org.HdrHistogram.EncodableHistogram h = reader.nextIntervalHistogram();
            if (h instanceof Histogram hh && tag.equals(hh.getTag())) {
                out.add(hh);
            }
        }
        return out;
    }
}
