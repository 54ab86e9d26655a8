package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import io.loadlab.stats.Warning;
import io.loadlab.stats.WarningOptions;
import io.loadlab.stats.Warnings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * {@code loadlab run -f loadlab.yaml} on a project's own subjects (a small Python orders API): the
 * expect check before the rounds, the engine's check of every answer during them, a server someone
 * else started ({@code url:} with its pid), and the plan against the command line.
 */
class ProjectRunTest {

    private static final Path SERVER = Path.of(System.getProperty("user.dir"))
            .resolve("src/test/resources/project/orders_server.py").toAbsolutePath();
    private static final String PYTHON = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    private static final String WORKLOADS = """
            workloads:
              create:
                method: POST
                path: "/api/orders/{seq}"
                headers: {Content-Type: application/json}
                body: '{"item": 42, "qty": 1}'
                expect: {status: [201], body-contains: '"id"'}
            """;
    /** Short runs: what is asserted is counted, not timed. */
    private static final String[] QUICK = {"--duration", "1s", "--warmup", "300ms", "--cooldown", "0s", "-c", "2"};

    @TempDir
    Path tmp;

    private String subject(String name, String wrong) {
        return "  " + name + ":\n"
                + "    start: \"" + PYTHON + " " + SERVER + " --port {port} --wrong " + wrong + " --wrong-after 1\"\n"
                + "    ready: {path: /healthz, timeout: 20s}\n"
                + "    workloads: [create]\n";
    }

    private Path project(String subjects, String plan) throws IOException {
        Path file = tmp.resolve("loadlab.yaml");
        Files.writeString(file, "name: shop\nsubjects:\n" + subjects + WORKLOADS + plan);
        return file;
    }

    private CliRun run(Path file, String out, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("run", "-f", file.toString(), "--out",
                tmp.resolve(out).toString()));
        args.addAll(List.of(QUICK));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    /**
     * Answers that turn wrong after the check before the rounds are counted during them: a wrong
     * status as errors_status, a body without the expected text as errors_body; never as successes.
     * The plan's rounds (2) give way to the command line's (1).
     */
    @Test
    void wrongStatusesAndBodiesDuringTheRunsAreCountedAsErrors() throws IOException {
        Path file = project(subject("bad-status", "status") + subject("bad-body", "body") + subject("good", "none"),
                "plan: {rounds: 2}\n");
        CliRun r = run(file, "errors", "--rounds", "1");
        assertEquals(0, r.code(), r.err());
        Table runs = Results.load(tmp.resolve("errors")).runs();
        assertEquals(3, runs.rowCount(), runs.print());
        for (int i = 0; i < runs.rowCount(); i++) {
            String subject = runs.stringColumn(RunColumn.SUBJECT.id()).get(i);
            long requests = runs.longColumn(RunColumn.REQUESTS.id()).get(i);
            long status = runs.longColumn(RunColumn.ERRORS_STATUS.id()).get(i);
            long body = runs.longColumn(RunColumn.ERRORS_BODY.id()).get(i);
            assertTrue(requests > 10, subject + ": " + requests + " requests");
            switch (subject) {
                case "bad-status" -> assertEquals(List.of(requests, 0L), List.of(status, body), "bad-status");
                case "bad-body" -> assertEquals(List.of(0L, requests), List.of(status, body), "bad-body");
                default -> assertEquals(List.of(0L, 0L), List.of(status, body), "good");
            }
        }
    }

    /** A server that is wrong from its first answer stops the experiment before anything is measured, in one line. */
    @Test
    void aMismatchBeforeTheFirstRoundStopsTheExperimentInOneLine() throws IOException {
        Path file = project(subject("good", "none") + "  broken:\n"
                + "    start: \"" + PYTHON + " " + SERVER + " --port {port} --wrong status\"\n"
                + "    ready: {path: /healthz, timeout: 20s}\n    workloads: [create]\n", "");
        CliRun r = run(file, "broken");
        assertEquals(Main.EXIT_USAGE, r.code(), r.err());
        String line = r.err().lines().filter(l -> l.startsWith("loadlab: ")).findFirst().orElseThrow();
        assertTrue(line.startsWith("loadlab: subject broken, workload create (POST /api/orders/0): expected status 201,"
                + " got 500 with body '{\"error\": \"wrong on purpose\"}'"), line);
        assertEquals(0, Results.load(tmp.resolve("broken")).runs().rowCount(), "nothing measured");
    }

    /** A url: subject is loaded where it runs, sampled by its pid, left running, and its rows say so. */
    @Test
    void anAttachedServerIsMeasuredByItsPidAndSaidToBeUnpinned() throws Exception {
        int port = io.loadlab.subject.SubjectProcess.freePort();
        Path pidFile = tmp.resolve("server.pid");
        Process server = new ProcessBuilder(PYTHON, SERVER.toString(), "--port", Integer.toString(port), "--pid-file",
                pidFile.toString()).redirectErrorStream(true).redirectOutput(tmp.resolve("server.log").toFile()).start();
        try {
            Path file = project("  theirs: {url: \"http://127.0.0.1:" + port + "\", pid-file: server.pid,"
                    + " ready: {path: /healthz, timeout: 20s}, workloads: [create]}\n", "");
            CliRun r = run(file, "attached", "--rounds", "1");
            assertEquals(0, r.code(), r.err());
            Table runs = Results.load(tmp.resolve("attached")).runs();
            assertEquals(1, runs.rowCount(), runs.print());
            assertEquals("attached", runs.stringColumn(RunColumn.SERVER_LAUNCH.id()).get(0));
            assertEquals("", runs.stringColumn(RunColumn.SERVER_CPUS.id()).get(0));
            assertTrue(runs.doubleColumn(RunColumn.SERVER_CPU_S.id()).get(0) > 0, runs.print());
            assertTrue(server.isAlive(), "Loadlab leaves a server it did not start running");
            List<Warning> warnings = Warnings.find(runs, RunColumn.RPS.id(), WarningOptions.defaults());
            assertTrue(warnings.stream().anyMatch(w -> w.kind().equals("attached")
                    && w.message().contains("neither started nor pinned")), warnings.toString());
        } finally {
            server.destroy();
            assertTrue(server.waitFor(10, TimeUnit.SECONDS));
        }
    }

    /** Each wrong project is one line that says what to change, and exit code 2. */
    @Test
    void aPlanFieldThatIsNoOptionIsOneLine() throws IOException {
        Path file = project(subject("good", "none"), "plan: {rounds: 2, colour: blue}\n");
        CliRun r = run(file, "bad-plan");
        assertEquals(Main.EXIT_USAGE, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("plan.colour is not an option of loadlab run; the plan's fields are"), r.err());
        assertFalse(Files.exists(tmp.resolve("bad-plan")));
    }

    /** The plan takes rounds auto's options by their names, and they are checked as on the command line. */
    @Test
    void aPlanGivesRoundsAutoItsMostRounds() throws IOException {
        Path few = project(subject("good", "none"), "plan: {rounds: auto, max-rounds: 2}\n");
        CliRun r = run(few, "few");
        assertTrue(r.code() != 0 && r.err().contains("max-rounds: rounds auto looks after round 3 first"), r.err());
        Files.delete(few);
        Path without = project(subject("good", "none"), "plan: {rounds: 4, max-rounds: 6}\n");
        CliRun w = run(without, "without");
        assertEquals(Main.EXIT_USAGE, w.code(), w.err());
        assertTrue(w.err().contains("--max-rounds and --budget belong to --rounds auto"), w.err());
        assertFalse(Files.exists(tmp.resolve("without")));
    }

    /** From a notebook or JShell, one call runs the project file and returns its results. */
    @Test
    void oneCallRunsAProjectFileAndReturnsItsResults() throws IOException {
        Path file = project(subject("good", "none"), "plan: {rounds: 1}\n");
        List<String> options = new java.util.ArrayList<>(List.of("--out", tmp.resolve("from-code").toString()));
        options.addAll(List.of(QUICK));
        Results results = io.loadlab.Loadlab.run(file, options.toArray(String[]::new));
        Table runs = results.runs();
        assertEquals(1, runs.rowCount(), runs.print());
        assertEquals("good", runs.stringColumn(RunColumn.SUBJECT.id()).get(0));
        assertEquals("ok", runs.stringColumn(RunColumn.STATUS.id()).get(0));
        assertEquals(0L, runs.longColumn(RunColumn.ERRORS_BODY.id()).get(0));
    }
}
