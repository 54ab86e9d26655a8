package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadlab.data.RunRow;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole experiments on the bundled Java subjects, with short runs: the files, the columns, faults,
 * interruption and resume.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
class ExperimentRunTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir"));

    private static ExperimentSpec.Builder shortRuns(String name) {
        return ExperimentSpec.builder().name(name).subjects("java-netty|java-httpserver")
                .workloads("plaintext|json").rounds(2).duration(Duration.ofMillis(1000))
                .warmup(Duration.ofMillis(300)).cooldown(Duration.ZERO).connections(8);
    }

    static List<Map<String, String>> rows(Path dir) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("runs.csv"));
        List<String> header = Arrays.asList(lines.get(0).split(","));
        List<Map<String, String>> out = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] v = fields(line);
            Map<String, String> m = new HashMap<>();
            for (int i = 0; i < header.size() && i < v.length; i++) {
                m.put(header.get(i), v[i]);
            }
            out.add(m);
        }
        return out;
    }

    /** The fields of a CSV line, quoted ones ({@code "durability=memory,protocol=h1-tls"}) unquoted. */
    static String[] fields(String line) {
        return CsvFields.of(line).toArray(new String[0]);
    }

    static Map<String, Long> hlogCounts(Path dir) throws IOException {
        HistogramLogReader r = new HistogramLogReader(new ByteArrayInputStream(
                Files.readAllBytes(dir.resolve("latency.hlog"))));
        Map<String, Long> counts = new HashMap<>();
        EncodableHistogram h;
        while ((h = r.nextIntervalHistogram()) != null) {
            counts.merge(h.getTag(), ((org.HdrHistogram.Histogram) h).getTotalCount(), Long::sum);
        }
        return counts;
    }

    @Test
    void twoSubjectsTwoWorkloadsTwoRoundsWriteConsistentFiles(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("e2e");
        Experiment exp = Experiment.create(HOME, shortRuns("e2e").build(), dir, List.of("test"), new Runner.Progress() { });
        Runner.Outcome o = exp.execute();
        assertEquals("completed", o.status());

        assertEquals(RunRow.csvHeader(), Files.readAllLines(dir.resolve("runs.csv")).get(0));
        assertTrue(RunRow.csvHeader().startsWith(String.join(",", RunRow.FIXED_COLUMNS)));
        List<Map<String, String>> rows = rows(dir);
        assertEquals(8, rows.size());
        Map<String, Long> hlog = hlogCounts(dir);
        Set<String> positions = new HashSet<>();
        for (Map<String, String> r : rows) {
            String what = r.get("run_id") + " " + r.get("subject") + " " + r.get("workload");
            assertEquals("ok", r.get("status"), what + ": " + r.get("error"));
            assertTrue(Long.parseLong(r.get("requests")) > 0, what);
            assertTrue(Double.parseDouble(r.get("server_cpu_s")) > 0, what + " server CPU");
            assertTrue(Long.parseLong(r.get("server_peak_rss_bytes")) > 10_000_000L, what + " peak RSS");
            assertTrue(Double.parseDouble(r.get("load_cpu_s")) > 0, what + " load CPU");
            assertTrue(Double.parseDouble(r.get("rps_per_server_cpu_s")) > 0, what);
            assertTrue(Double.parseDouble(r.get("rps_per_load_cpu_s")) > 0, what);
            assertTrue(Set.of("true", "false").contains(r.get("load_bound")), what);
            assertEquals("", r.get("target_rps"), "closed loop: no target rate, empty not 0");
            assertEquals("0", r.get("errors_status"), what);
            assertEquals("0", r.get("errors_protocol"), what + ": bodies have the expected length");
            assertTrue(Long.parseLong(r.get("lat_p50_us")) <= Long.parseLong(r.get("lat_p99_us")), what);
            // The run's histograms in latency.hlog hold exactly its requests.
            assertEquals(Long.parseLong(r.get("requests")), hlog.get(r.get("run_id")), what + " hlog");
            positions.add(r.get("subject") + "@" + r.get("position"));
        }
        assertEquals(Set.of("java-httpserver@1", "java-httpserver@2", "java-netty@1", "java-netty@2"), positions,
                "two rounds rotate two subjects through both positions");
        JsonNode json = new ObjectMapper().readTree(dir.resolve("experiment.json").toFile());
        assertEquals("completed", json.get("status").asText());
        assertEquals(2, json.at("/spec/rounds").asInt());
        assertFalse(json.at("/environment/cpu_model").asText().isEmpty());
        assertTrue(json.at("/environment/subject_versions/java-netty").asText().contains("17"));
        assertTrue(Files.exists(dir.resolve("logs/r1-java-netty-memory-h1.log")));
        assertTrue(json.at("/environment/cpu_governor").isTextual() && json.at("/environment/cpu_boost").isTextual(),
                "governor and boost are recorded, or why they are not known");
        for (Map<String, String> r : rows) {
            String what = r.get("run_id") + " " + r.get("subject") + " " + r.get("workload");
            assertEquals(0.3, Double.parseDouble(r.get("warmup_s")), 0.15, what + ": the fixed warm-up it ran");
            assertTrue(Set.of("true", "false").contains(r.get("steady")), what);
            assertTrue(Double.parseDouble(r.get("noise_cpu_s")) >= 0, what + " noise measured");
            assertTrue(Double.parseDouble(r.get("steal_s")) >= 0, what + " steal measured");
            assertEquals("", r.get("missed"), "closed loop: nothing is due, empty not 0");
        }
        // Workloads rotate inside a subject process: each subject's first workload differs by round.
        Map<String, Set<String>> firstWorkload = new HashMap<>();
        for (Map<String, String> r : rows) {
            String process = r.get("round") + " " + r.get("subject");
            boolean first = rows.stream().filter(x -> (x.get("round") + " " + x.get("subject")).equals(process))
                    .mapToInt(x -> Integer.parseInt(x.get("run_id"))).min().getAsInt() == Integer.parseInt(r.get("run_id"));
            if (first) {
                firstWorkload.computeIfAbsent(r.get("subject"), k -> new HashSet<>()).add(r.get("workload"));
            }
        }
        assertEquals(Map.of("java-netty", Set.of("plaintext", "json"), "java-httpserver", Set.of("plaintext", "json")),
                firstWorkload, "each workload runs first on a fresh process once in two rounds");
        assertFalse(Files.exists(dir.resolve("work")), "scratch folders are removed");
    }

    @Test
    void aSubjectKilledMidRunGivesFailedRowsWithItsLogAndTheExperimentGoesOn(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("killed");
        ExperimentSpec spec = shortRuns("killed").subjects("java-netty").workloads("plaintext|json|bytes-64k")
                .rounds(2).duration(Duration.ofMillis(1500)).build();
        Experiment exp = Experiment.create(HOME, spec, dir, List.of("test"), new Runner.Progress() {
            @Override
            public void runStarting(Plan.Run run, int done, int total) {
                if (run.runId() == 2) {
                    // Kill the subject (by PID) while the second run is starting.
                    ProcessHandle.current().descendants()
                            .filter(p -> p.info().commandLine().orElse("").contains("NettyServer"))
                            .forEach(ProcessHandle::destroyForcibly);
                }
            }
        });
        Runner.Outcome o = exp.execute();
        assertEquals("completed", o.status());
        List<Map<String, String>> rows = rows(dir);
        assertEquals(6, rows.size());
        assertEquals("ok", rows.get(0).get("status"));
        for (int i = 1; i < 3; i++) {
            assertEquals("failed", rows.get(i).get("status"), "run " + (i + 1));
            assertTrue(rows.get(i).get("error").contains("java-netty"), rows.get(i).get("error"));
        }
        for (int i = 3; i < 6; i++) {
            assertEquals("ok", rows.get(i).get("status"), "round 2 starts a fresh subject: " + rows.get(i).get("error"));
        }
        assertTrue(ProcessHandle.current().descendants().noneMatch(ProcessHandle::isAlive), "no subject left running");
    }

    @Test
    void anInterruptedExperimentKeepsItsRowsAndResumeCompletesIt(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("resume");
        ExperimentSpec spec = shortRuns("resume").subjects("java-netty").rounds(3).build();
        CompletableFuture<Void> twoDone = new CompletableFuture<>();
        Experiment exp = Experiment.create(HOME, spec, dir, List.of("test"), new Runner.Progress() {
            @Override
            public void runFinished(Plan.Run run, RunRow row, int done, int total) {
                if (done == 2) {
                    twoDone.complete(null);
                }
            }
        });
        // As a notebook kernel runs a cell: inside a scope, which an interrupt stops.
        ExperimentScope cell = new ExperimentScope();
        CompletableFuture<Runner.Outcome> running = CompletableFuture.supplyAsync(() -> {
            try {
                return cell.call(exp::execute);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        twoDone.get(2, TimeUnit.MINUTES);
        assertTrue(cell.stop(Duration.ofSeconds(60)), "an experiment was running in the scope");
        Runner.Outcome first = running.get(1, TimeUnit.MINUTES);
        assertEquals("interrupted", first.status());
        int recorded = rows(dir).size();
        assertTrue(recorded >= 2 && recorded < 6, "rows so far: " + recorded);
        assertEquals("interrupted", new ObjectMapper().readTree(dir.resolve("experiment.json").toFile())
                .get("status").asText());
        assertTrue(ProcessHandle.current().descendants().noneMatch(ProcessHandle::isAlive), "subject stopped");

        // An experiment begun by the version before steady, missed, noise_cpu_s, steal_s, the sweep's three
        // columns, errors_tls, protocol and every column since existed: its runs.csv has fewer columns, which
        // resume upgrades so that the new rows line up.
        List<String> lines = Files.readAllLines(dir.resolve("runs.csv"));
        int newer = io.loadlab.data.RunColumn.values().length - io.loadlab.data.RunColumn.STEADY.ordinal();
        List<String> older = lines.stream().map(l -> l.substring(0, nthCommaFromEnd(l, newer))).toList();
        Files.write(dir.resolve("runs.csv"), older);
        // A kill -9 in the middle of writing leaves a partial row and a partial histogram line: resume repairs both.
        Files.writeString(dir.resolve("runs.csv"), "resume,99,3,1,java-ne", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(dir.resolve("latency.hlog"), "Tag=99,0.0,1.0,HISTFAAAA", StandardCharsets.US_ASCII,
                java.nio.file.StandardOpenOption.APPEND);

        Experiment again = Experiment.resume(HOME, dir, new Runner.Progress() { });
        assertEquals(recorded, again.done().size());
        Runner.Outcome second = again.execute();
        assertEquals("completed", second.status());
        assertEquals(6 - recorded, second.rows().size(), "finished runs are not repeated");
        List<Map<String, String>> rows = rows(dir);
        assertEquals(RunRow.csvHeader(), Files.readAllLines(dir.resolve("runs.csv")).get(0), "header upgraded");
        assertEquals("", rows.get(0).get("steady"), "not measured by the older version: empty");
        assertTrue(Set.of("true", "false").contains(rows.get(5).get("steady")), "measured now");
        List<String> ids = rows.stream().map(r -> r.get("run_id")).toList();
        assertEquals(List.of("1", "2", "3", "4", "5", "6"), ids);
        Map<String, Long> hlog = hlogCounts(dir);
        assertEquals(Set.of("1", "2", "3", "4", "5", "6"), hlog.keySet());
        for (Map<String, String> r : rows) {
            assertEquals(Long.parseLong(r.get("requests")), hlog.get(r.get("run_id")));
        }
    }

    /** Index of the n-th comma from the end of a line without quoted fields. */
    private static int nthCommaFromEnd(String line, int n) {
        int at = line.length();
        for (int i = 0; i < n; i++) {
            at = line.lastIndexOf(',', at - 1);
        }
        return at;
    }
}
