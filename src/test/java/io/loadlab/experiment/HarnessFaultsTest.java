package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadlab.data.DataException;
import io.loadlab.data.Results;
import io.loadlab.data.RunRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Harness faults inside one JVM (issue 7): output folders that cannot be written or fill up, and
 * subjects that exit at once, listen elsewhere, lose their port, never become ready or ignore
 * SIGTERM. Each gives failed rows naming the subject while the experiment goes on, or a clear
 * error, and leaves no subject process behind (checked by pid).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hang guard only
class HarnessFaultsTest {

    private static final Duration SHORT_READY = Duration.ofSeconds(2);

    private static ExperimentSpec.Builder fast(String name, String subjects) {
        return ExperimentSpec.builder().name(name).subjects(subjects).workloads("plaintext").rounds(1)
                .duration(Duration.ofMillis(300)).warmup(Duration.ZERO).cooldown(Duration.ZERO).connections(2);
    }

    @Test
    void anOutputFolderThatCannotBeWrittenIsRefusedBeforeAnySubjectStarts(@TempDir Path tmp) throws IOException {
        FaultySubjects home = FaultySubjects.in(tmp.resolve("home")).subject("ok", "true", SHORT_READY);
        Path file = Files.writeString(tmp.resolve("a-file"), "not a folder");
        // Read-only for root too: sysfs refuses new folders, and an existing /proc folder new files.
        Map<Path, String> cases = Map.of(
                file.resolve("exp"), "Not a directory",
                Path.of("/sys/fs/loadlab-test-exp"), "cannot write to /sys/fs/loadlab-test-exp",
                Path.of("/proc/self"), "cannot write to /proc/self");
        cases.forEach((dir, expected) -> {
            DataException e = assertThrows(DataException.class, () -> Experiment.create(home.home,
                    fast("ro", "ok").build(), dir, List.of("test"), new Runner.Progress() { }), dir.toString());
            assertTrue(e.getMessage().contains(expected) && e.getMessage().contains("choose a writable --out"),
                    e.getMessage());
        });
        assertTrue(home.recordedPids().isEmpty() && !Files.exists(home.home.resolve("target")),
                "nothing was built or started");
    }

    /**
     * A disk that fills up: the data file is swapped for a link to {@code /dev/full} (writes fail
     * with ENOSPC) after the first run, and swapped back after the failure to read the result.
     */
    @ParameterizedTest
    @ValueSource(strings = {"latency.hlog", "runs.csv"})
    void aFullDiskFailsTheExperimentWithEarlierRowsIntactAndResumeCompletesIt(String full, @TempDir Path tmp)
            throws Exception {
        FaultySubjects home = home(tmp);
        home.subject("ok", home.server(""), Duration.ofSeconds(30));
        Path dir = tmp.resolve("full");
        Path saved = dir.resolve(full + ".saved");
        // 1 s windows: a 0.3 s first window of a cold engine can end before its first answer, and a run
        // with no answer is a failed run (not a throughput of 0), which would break the premise here.
        Experiment exp = Experiment.create(home.home, fast("full", "ok").rounds(3).duration(Duration.ofSeconds(1)).build(),
                dir, List.of("test"),
                new Runner.Progress() {
                    @Override
                    public void runFinished(Plan.Run run, RunRow row, int done, int total) {
                        if (done == 1) {
                            try {
                                Files.move(dir.resolve(full), saved);
                                Files.createSymbolicLink(dir.resolve(full), Path.of("/dev/full"));
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        }
                    }
                });
        try {
            fillUpAfterTheFirstRun(exp, home, dir, full, saved);
        } finally {
            FaultySubjects.kill(home.recordedPids());
        }
    }

    private static void fillUpAfterTheFirstRun(Experiment exp, FaultySubjects home, Path dir, String full, Path saved)
            throws IOException {
        DataException e = assertThrows(DataException.class, exp::execute);
        assertTrue(e.getMessage().contains("cannot append run 2") && e.getMessage().contains("No space left on device")
                && e.getMessage().contains("--resume " + dir), e.getMessage());
        assertTrue(FaultySubjects.await(Duration.ofSeconds(10), () -> alive(home).isEmpty()), "subject stopped");
        Files.delete(dir.resolve(full));
        Files.move(saved, dir.resolve(full));

        JsonNode json = new ObjectMapper().readTree(dir.resolve("experiment.json").toFile());
        assertEquals("failed", json.get("status").asText());
        assertTrue(json.get("error").asText().contains("No space left on device"), json.toString());
        assertEquals(List.of("1"), ids(dir), "the row before the failure is intact");
        assertEquals(1, Results.load(dir).okRuns().rowCount(), "the folder loads");

        Runner.Outcome done = Experiment.resume(home.home, dir, new Runner.Progress() { }).execute();
        assertEquals("completed", done.status());
        assertEquals(List.of("1", "2", "3"), ids(dir));
        assertEquals(3, Results.load(dir).okRuns().rowCount());
        assertTrue(alive(home).isEmpty());
    }

    @Test
    void subjectsThatMisbehaveGiveFailedRowsNamingThemAndTheExperimentGoesOn(@TempDir Path tmp) throws Exception {
        FaultySubjects h = home(tmp);
        String pids = h.pids.toString();
        h.subject("a-exits-at-once", "true", Duration.ofSeconds(30))
                .subject("b-wrong-port", h.server("--port 0"), SHORT_READY)
                .subject("c-port-taken", h.server("--squat"), Duration.ofSeconds(30))
                .subject("d-answers-500", h.server("--status 500"), SHORT_READY)
                .subject("e-never-answers", h.server("--silent"), SHORT_READY)
                // Ready (its probe is answered), then silent: a run of no answers is no throughput of 0.
                .subject("e2-silent-when-run", h.server("--silent-after 1"), SHORT_READY)
                // Ignores SIGTERM, as do its children (they inherit the ignored signal): one a
                // child, one re-parented away from the tree by a subshell.
                .subject("f-ignores-term", "bash -c 'trap \"\" TERM; (sleep 1000 & echo \"orphan $!\" >> " + pids
                        + "); sleep 1000 & echo \"child $!\" >> " + pids + "; exec " + h.server("").replace("{port}",
                        "$0") + "' {port}", Duration.ofSeconds(30))
                .subject("z-ok", h.server(""), Duration.ofSeconds(30));
        Path dir = tmp.resolve("faults");
        try {
            Runner.Outcome o = Experiment.create(h.home, fast("faults", ".*").build(), dir, List.of("test"),
                    new Runner.Progress() { }).execute();
            assertEquals("completed", o.status());
            Table runs = Results.load(dir).runs();
            Map<String, Map<String, String>> bySubject = new java.util.HashMap<>();
            for (Row r : runs) {
                bySubject.put(r.getString("subject"), Map.of("status", r.getString("status"),
                        "error", r.getString("error")));
            }
            assertEquals(8, bySubject.size());
            assertEquals(1, h.recordedPids("orphan").size());
            assertEquals(1, h.recordedPids("child").size());
            List<Long> subjects = new ArrayList<>(h.recordedPids());
            subjects.removeAll(h.recordedPids("squatter"));
            List<Long> squatter = h.recordedPids("squatter");
            assertAll(
                    () -> assertEquals(List.of(), FaultySubjects.alive(subjects).stream()
                            .map(p -> p + " " + FaultySubjects.commandLine(p).orElse("?")).toList(),
                            "every subject process was stopped, by pid"),
                    () -> assertEquals(1, FaultySubjects.alive(squatter).size(),
                            "the other program on the port is not the harness's to stop"),
                    () -> expectFailed(bySubject, "a-exits-at-once", "exited with code 0 before it was ready"),
                    () -> expectFailed(bySubject, "b-wrong-port", "listens on port"),
                    () -> expectFailed(bySubject, "c-port-taken", "another process holds port"),
                    () -> expectFailed(bySubject, "d-answers-500", "last probe: answered 'HTTP/1.1 500'"),
                    () -> expectFailed(bySubject, "e-never-answers", "last probe: connected, but no answer within"),
                    () -> expectFailed(bySubject, "e2-silent-when-run", "answered no request in the 0.3 s window"),
                    () -> expectOk(bySubject, "f-ignores-term"),
                    () -> expectOk(bySubject, "z-ok"));
        } finally {
            FaultySubjects.kill(h.recordedPids());
        }
    }

    private static void expectOk(Map<String, Map<String, String>> bySubject, String subject) {
        assertEquals("ok", bySubject.get(subject).get("status"), subject + ": " + bySubject.get(subject).get("error"));
    }

    private static void expectFailed(Map<String, Map<String, String>> bySubject, String subject, String why) {
        Map<String, String> row = bySubject.get(subject);
        assertEquals("failed", row.get("status"), subject);
        assertTrue(row.get("error").contains("subject '" + subject + "'") && row.get("error").contains(why),
                subject + ": " + row.get("error"));
    }

    private static FaultySubjects home(Path tmp) throws IOException {
        return FaultySubjects.in(tmp.resolve("home"));
    }

    private static List<Long> alive(FaultySubjects home) {
        try {
            return FaultySubjects.alive(home.recordedPids());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> ids(Path dir) throws IOException {
        return ExperimentRunTest.rows(dir).stream().map(r -> r.get("run_id")).toList();
    }
}
