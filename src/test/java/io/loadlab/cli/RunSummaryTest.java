package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.agent.AgentEngine;
import io.loadlab.engine.Engine;
import io.loadlab.engine.EngineResult;
import io.loadlab.engine.Latency;
import io.loadlab.engine.RunSpec;
import io.loadlab.experiment.Experiment;
import io.loadlab.experiment.ExperimentSpec;
import io.loadlab.experiment.Runner;
import io.loadlab.load.LoadListener;
import io.loadlab.load.Warmed;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table {@code loadlab run} prints at the end, from a real runner's outcome: its groups are the
 * runner's groups, so every engine that keeps histograms gets its merged p99.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES) // a hang guard only
class RunSummaryTest {

    private static final Path REPO = Path.of(System.getProperty("user.dir"));
    private static final Path SERVER = REPO.resolve("src/test/resources/faults/fault_server.py");
    private static final String PYTHON = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    /** The p99 of {@link #histogram()}: every value is this many µs. */
    private static final long P99_US = 1234;

    /**
     * Regression: {@code run --agents} runs have the engine {@code agents}, which is not external.
     * The runner keyed their merged histogram without the engine while the summary looked it up with
     * it, so {@code p99_us_merged} came out blank.
     */
    @Test
    void agentsRunsShowTheirMergedP99(@TempDir Path tmp) throws IOException {
        Path home = subjectHome(tmp.resolve("home"));
        ExperimentSpec spec = ExperimentSpec.builder().name("agents-summary").subjects("ok").workloads("plaintext")
                .rounds(2).duration(Duration.ofMillis(300)).warmup(Duration.ZERO).cooldown(Duration.ZERO)
                .connections(2).engines(List.of(new StandIn(AgentEngine.LABEL))).build();
        Runner.Outcome outcome = Experiment.create(home, spec, tmp.resolve("out"), List.of("test"),
                new Runner.Progress() { }).execute();
        assertEquals("completed", outcome.status());

        List<String> lines = summary(outcome);
        assertEquals(2, lines.size(), "a header and one group: " + lines);
        assertEquals("ok", cell(lines, "subject"));
        assertEquals("agents", cell(lines, "engine"));
        assertEquals("2/2", cell(lines, "ok_runs"));
        assertEquals("1,000", cell(lines, "rps_mean"));
        assertEquals("1,234", cell(lines, "p99_us_merged"), String.join("\n", lines));
    }

    /** The summary's header and rows. */
    private static List<String> summary(Runner.Outcome outcome) {
        StringWriter s = new StringWriter();
        try (PrintWriter out = new PrintWriter(s)) {
            RunSummary.print(out, outcome);
        }
        return s.toString().lines().filter(l -> !l.isBlank()).toList();
    }

    /**
     * The first row's cell in a column: the text columns are left-aligned (they start where their
     * name starts), the figures right-aligned (they end where their name ends); "" when blank.
     */
    private static String cell(List<String> lines, String column) {
        String header = lines.get(0);
        String row = lines.get(1);
        int at = header.indexOf(column);
        assertTrue(at >= 0, "no column " + column + " in " + header);
        if (List.of("subject", "workload", "engine").contains(column)) {
            return row.substring(at).split(" ", 2)[0];
        }
        String upToEnd = row.substring(0, Math.min(row.length(), at + column.length()));
        return upToEnd.endsWith(" ") ? "" : upToEnd.substring(upToEnd.lastIndexOf(' ') + 1);
    }

    /** A home folder with one subject, {@code ok}: the fault tests' server, answering normally. */
    private static Path subjectHome(Path home) throws IOException {
        Path dir = Files.createDirectories(home.resolve("subjects").resolve("ok"));
        Files.writeString(dir.resolve("subject.yaml"), "name: ok\n"
                + "description: a subject for the summary test\n"
                + "language: Python\n"
                + "requires: [python3]\n"
                + "start: |-\n  " + PYTHON + " " + SERVER + " --port {port} --pids " + home.resolve("pids") + "\n"
                + "ready: {path: /plaintext, timeout: 5000ms}\n"
                + "workloads: [plaintext]\n");
        return home;
    }

    private static Histogram histogram() {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(P99_US, 1000);
        return h;
    }

    /**
     * An engine in this JVM that loads nothing and reports 1,000 requests/s with a known histogram,
     * under the label it is given.
     */
    private record StandIn(String label) implements Engine {
        @Override
        public Optional<String> version() {
            return Optional.of("stand-in");
        }

        @Override
        public EngineResult run(RunSpec spec, LoadListener window) {
            window.started();
            window.windowStarted();
            window.windowEnded();
            Histogram h = histogram();
            return new EngineResult(label, 300, 0.3, OptionalDouble.of(1000), OptionalLong.empty(), OptionalLong.empty(),
                    Map.of(), Latency.of(h), Optional.empty(), OptionalDouble.empty(), OptionalDouble.empty(),
                    Optional.of(false), new Warmed(0, Optional.of(false), List.of()), OptionalLong.empty(), List.of(),
                    Optional.of(h), Optional.empty(), Optional.empty());
        }
    }
}
