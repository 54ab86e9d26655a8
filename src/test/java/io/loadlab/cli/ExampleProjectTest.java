package io.loadlab.cli;

import static io.loadlab.cli.ReportProcesses.classpath;
import static io.loadlab.cli.ReportProcesses.javaCommand;
import static io.loadlab.cli.ReportProcesses.tail;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadlab.data.ExperimentJson;
import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import io.loadlab.data.SpecSection;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.Comparison;
import io.loadlab.stats.ComparisonRow;
import io.loadlab.stats.Verdict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example project ({@code examples/orders}) end to end, as a user runs it: its two revisions made
 * by {@code make-repo.sh} in a temporary git repository, then {@code loadlab run} in that folder (a
 * process of its own, started there, Loadlab's folder given as {@code -Dloadlab.home} as the launcher
 * gives it). Both revisions are built at their commits and measured on the JSON POST and GET
 * workloads, their commit ids recorded, and the faster one called faster.
 */
class ExampleProjectTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir")).toAbsolutePath();

    @TempDir
    Path tmp;

    @Test
    void bothRevisionsAreMeasuredWithTheirCommitsAndHeadIsCalledFaster() throws Exception {
        Path repo = tmp.resolve("orders");
        String made = exec(tmp, List.of("bash", HOME.resolve("examples/orders/make-repo.sh").toString(), repo.toString()));
        assertTrue(made.contains("revisions v1 and HEAD"), made);
        String v1 = exec(repo, List.of("git", "rev-parse", "v1^{commit}")).strip();
        String head = exec(repo, List.of("git", "rev-parse", "HEAD")).strip();
        assertFalse(v1.equals(head));

        Path cache = tmp.resolve("cache");
        String out = exec(repo, java.util.Map.of("LOADLAB_CACHE", cache.toString()), List.of(javaCommand(),
                "-Dloadlab.home=" + HOME, "-cp",
                classpath(), Main.class.getName(), "run", "--rounds", "5", "--duration", "1s", "--warmup", "500ms",
                "--cooldown", "0s", "-c", "8"));
        assertTrue(out.contains("api@HEAD") && out.contains("api@v1"), out);

        Path dir = onlyExperiment(repo.resolve("data"));
        assertTrue(dir.getFileName().toString().startsWith("orders-"), dir.toString());
        JsonNode commits = ExperimentJson.read(dir).spec().value(SpecSection.PROJECT).get(SpecSection.COMMITS);
        assertEquals(v1, commits.get("api@v1").asText());
        assertEquals(head, commits.get("api@HEAD").asText());

        Results results = Results.load(dir);
        var ok = results.okRuns();
        assertEquals(20, ok.rowCount(), "2 revisions x 2 workloads x 5 rounds, all ok:\n" + results.runs().print());
        assertEquals(Set.of("api@v1", "api@HEAD"), new TreeSet<>(ok.stringColumn(RunColumn.SUBJECT.id()).asList()));
        assertEquals(Set.of("create-order", "list-orders"), new TreeSet<>(ok.stringColumn(RunColumn.WORKLOAD.id()).asList()));
        for (int i = 0; i < ok.rowCount(); i++) {
            assertEquals(0L, ok.longColumn(RunColumn.ERRORS_STATUS.id()).get(i), "status errors in row " + i);
        }
        // Five rounds, not three: HEAD is about 3.4 times as fast, but on a machine busy with the rest of the
        // suite three rounds' ratios ranged from 2 to 8, and a paired test with 2 degrees of freedom left that
        // undecided (p 0.09, seen once in CI).
        for (ComparisonRow row : Comparison.rows(ok, RunColumn.RPS.id(), "api@v1", CompareOptions.defaults())) {
            if (row.subject().equals("api@HEAD")) {
                assertEquals(Verdict.FASTER, row.verdict(), row.toString());
            }
        }
        assertFalse(Files.exists(HOME.resolve("data").resolve(dir.getFileName())), "nothing goes to Loadlab's data/");
    }

    private static Path onlyExperiment(Path data) throws IOException {
        try (Stream<Path> s = Files.list(data)) {
            List<Path> dirs = s.toList();
            assertEquals(1, dirs.size(), dirs.toString());
            return dirs.get(0);
        }
    }

    /** Runs a command in {@code dir}; its standard output, or a failure with the tail of both streams. */
    private String exec(Path dir, List<String> command) throws IOException, InterruptedException {
        return exec(dir, java.util.Map.of(), command);
    }

    private String exec(Path dir, java.util.Map<String, String> env, List<String> command)
            throws IOException, InterruptedException {
        Path stdout = Files.createTempFile(tmp, "out", ".txt");
        Path stderr = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().putAll(env);
        Process p = pb.start();
        boolean done = p.waitFor(5, TimeUnit.MINUTES);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String out = Files.readString(stdout, StandardCharsets.UTF_8);
        String all = out + Files.readString(stderr, StandardCharsets.UTF_8);
        assertTrue(done && p.exitValue() == 0, String.join(" ", command) + " failed:\n" + tail(all));
        return out;
    }
}
