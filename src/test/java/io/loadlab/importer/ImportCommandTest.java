package io.loadlab.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadlab.cli.Main;
import io.loadlab.data.Results;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.Comparison;
import io.loadlab.stats.ComparisonRow;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/** End to end: {@code loadlab import} into a new, then an existing experiment, read by Results and Comparison. */
class ImportCommandTest {

    @TempDir
    Path tmp;

    private record Outcome(int code, String out, String err) {}

    private Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    private String file(String fixture) throws IOException {
        Path p = tmp.resolve(fixture);
        Files.writeString(p, ImportersTest.fixture(fixture));
        return p.toString();
    }

    @Test
    void importedRunsAreAnExperimentThatCompareReads() throws IOException {
        String dir = tmp.resolve("data/imported").toString();
        Outcome a = run("import", file("wrk-latency.txt"), file("wrk.txt"), file("wrk-non2xx.txt"),
                "--subject", "netty", "--workload", "plaintext", "--out", dir);
        assertEquals(0, a.code(), a.err());
        Outcome b = run("import", file("hey.txt"), file("h2load.txt"), file("ab-k.txt"),
                "--subject", "nginx", "--workload", "plaintext", "--out", dir);
        assertEquals(0, b.code(), b.err());
        Outcome c = run("import", file("oha.json"), "--subject", "nginx", "--workload", "plaintext", "--round", "7",
                "--variant", "tuned", "--out", dir);
        assertEquals(0, c.code(), c.err());

        Table runs = Results.load(Path.of(dir)).runs();
        assertEquals(7, runs.rowCount());
        List<String> got = new ArrayList<>();
        for (int i = 0; i < runs.rowCount(); i++) {
            got.add(runs.intColumn("run_id").get(i) + ":" + runs.stringColumn("subject").get(i) + ":"
                    + runs.intColumn("round").get(i) + ":" + runs.intColumn("position").get(i) + ":"
                    + runs.stringColumn("engine").get(i) + ":" + runs.stringColumn("status").get(i));
        }
        assertEquals(List.of("1:netty:1:1:wrk:ok", "2:netty:2:1:wrk:ok", "3:netty:3:1:wrk:ok", "4:nginx:1:2:hey:ok",
                "5:nginx:2:2:h2load:ok", "6:nginx:3:2:ab:ok", "7:nginx:7:1:oha:ok"), got);
        assertEquals("imported", runs.stringColumn("experiment").get(0));
        assertEquals(48954.03, runs.doubleColumn("rps").get(0), 1e-9);
        assertEquals(611L, runs.longColumn("lat_p50_us").get(0));
        assertTrue(runs.longColumn("lat_p50_us").isMissing(1), "wrk without --latency has no percentiles");
        assertTrue(runs.doubleColumn("server_cpu_s").isMissing(0), "not measured by an imported run");
        assertEquals("tuned", runs.stringColumn("variant").get(6));

        List<ComparisonRow> rows = Comparison.rows(runs, "rps", "netty", CompareOptions.defaults());
        assertFalse(rows.isEmpty());
        assertTrue(rows.stream().anyMatch(r -> r.toString().contains("nginx")), rows.toString());

        Outcome compare = run("compare", dir);
        assertEquals(0, compare.code(), compare.err());
        assertTrue(compare.out().contains("nginx") && compare.out().contains("netty"), compare.out());

        JsonNode json = new ObjectMapper().readTree(Path.of(dir, "experiment.json").toFile());
        assertTrue(json.path("imported").asBoolean());
        assertEquals(7, json.path("imported_files").size());
        assertEquals("oha", json.path("imported_files").get(6).path("tool").asText());
    }

    @Test
    void theEnvironmentGivenIsRecordedAndTheRestIsUnknownWhenReconciled() throws IOException {
        String dir = tmp.resolve("data/theirs").toString();
        for (String subject : List.of("go-nethttp", "java-netty")) {
            // One output three times: its 16 connections in every round, so that the rounds form one group.
            Outcome o = run("import", file("wrk.txt"), file("wrk.txt"), file("wrk.txt"), "--subject",
                    subject, "--variant", "durability=memory", "--workload", "plaintext", "--env",
                    "cpu=Intel Xeon E5-2690,cores=8", "--out", dir);
            assertEquals(0, o.code(), o.err());
        }
        JsonNode env = new ObjectMapper().readTree(Path.of(dir, "experiment.json").toFile()).path("environment");
        assertEquals("Intel Xeon E5-2690", env.path("cpu_model").asText());
        assertEquals("8", env.path("cores").asText());
        assertEquals(ExperimentImport.NOT_GIVEN, env.path("kernel").asText());

        Outcome compare = run("compare", System.getProperty("user.dir") + "/data/sample", dir);
        assertEquals(0, compare.code(), compare.err());
        List<String> lines = compare.out().lines().toList();
        String cpu = lines.stream().filter(l -> l.startsWith("CPU model")).findFirst().orElseThrow();
        assertTrue(cpu.contains("Intel(R) Xeon(R) Processor") && cpu.contains("Intel Xeon E5-2690") && cpu.endsWith("yes"), cpu);
        String kernel = lines.stream().filter(l -> l.startsWith("kernel")).findFirst().orElseThrow();
        assertTrue(kernel.contains(ExperimentImport.NOT_GIVEN) && kernel.endsWith("unknown"), kernel);
        assertTrue(compare.out().contains("builtin / wrk"), "met across engines, which are named: " + compare.out());

        Outcome bad = run("import", file("wrk.txt"), "--subject", "s", "--workload", "w", "--env", "ram=64G", "--out",
                tmp.resolve("data/bad-env").toString());
        assertEquals(Main.EXIT_USAGE, bad.code());
        assertTrue(bad.err().contains("--env: unknown environment fact 'ram': give cpu, cores, kernel"), bad.err());
    }

    @Test
    void theSubjectAndToolVersionsGivenAreRecordedAndTheOnesNotGivenAreUnknown() throws IOException {
        String dir = tmp.resolve("data/published").toString();
        Outcome known = run("import", file("wrk.txt"), file("wrk.txt"), file("wrk.txt"), "--subject", "java-netty",
                "--variant", "durability=memory", "--workload", "plaintext", "--env",
                "subject_version=Netty 4.1.100,tool_version=wrk 4.2.0", "--out", dir);
        assertEquals(0, known.code(), known.err());
        for (String tool : List.of("wrk.txt", "h2load.txt")) {
            Outcome unknown = run("import", file(tool), file(tool), file(tool), "--subject", "go-nethttp",
                    "--variant", "durability=memory", "--workload", "plaintext", "--out", dir);
            assertEquals(0, unknown.code(), unknown.err());
        }

        JsonNode env = new ObjectMapper().readTree(Path.of(dir, "experiment.json").toFile()).path("environment");
        assertEquals("Netty 4.1.100", env.path("subject_versions").path("java-netty").asText());
        assertEquals(ExperimentImport.NOT_GIVEN, env.path("subject_versions").path("go-nethttp").asText());
        assertEquals("wrk 4.2.0", env.path("engine_versions").path("wrk").asText());
        assertEquals(ExperimentImport.NOT_GIVEN, env.path("engine_versions").path("h2load").asText());

        Outcome again = run("import", file("wrk.txt"), "--subject", "java-netty", "--variant", "durability=memory",
                "--workload", "plaintext", "--out", dir);
        assertEquals(0, again.code(), again.err());
        env = new ObjectMapper().readTree(Path.of(dir, "experiment.json").toFile()).path("environment");
        assertEquals("Netty 4.1.100", env.path("subject_versions").path("java-netty").asText(),
                "a later import that gives no version keeps the one given before");
        assertEquals("wrk 4.2.0", env.path("engine_versions").path("wrk").asText());

        Outcome compare = run("compare", System.getProperty("user.dir") + "/data/sample-engines", dir);
        assertEquals(0, compare.code(), compare.err());
        List<String> lines = compare.out().lines().toList();
        String netty = line(lines, "version of java-netty");
        assertTrue(netty.contains("openjdk version") && netty.contains("Netty 4.1.100") && netty.endsWith("yes"), netty);
        String go = line(lines, "version of go-nethttp");
        assertTrue(go.contains(ExperimentImport.NOT_GIVEN) && go.endsWith("unknown"), go);
        String wrk = line(lines, "engine wrk");
        assertTrue(wrk.contains("wrk debian/4.1.0") && wrk.contains("wrk 4.2.0") && wrk.endsWith("yes"), wrk);
        String h2load = line(lines, "engine h2load");
        assertTrue(h2load.contains(ExperimentImport.NOT_GIVEN) && h2load.endsWith("unknown"), h2load);

        Outcome mixed = run("import", file("wrk.txt"), file("h2load.txt"), "--subject", "s", "--workload", "w",
                "--env", "tool_version=wrk 4.2.0", "--out", tmp.resolve("data/mixed").toString());
        assertEquals(Main.EXIT_USAGE, mixed.code());
        assertTrue(mixed.err().contains("--env: tool_version is one tool's version, but these outputs come from wrk"
                + " and h2load"), mixed.err());
        assertFalse(Files.exists(tmp.resolve("data/mixed")), "nothing written");
    }

    private static String line(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line " + prefix + " in\n" + String.join("\n", lines)));
    }

    @Test
    void anImportedExperimentCannotBeResumedAndSaysWhy() throws IOException {
        String dir = tmp.resolve("data/imported").toString();
        assertEquals(0, run("import", file("wrk.txt"), "--subject", "s", "--workload", "w", "--out", dir).code());
        Outcome resumed = run("run", "--resume", dir);
        assertEquals(2, resumed.code(), resumed.err());
        assertEquals("loadlab: cannot resume " + dir + ": it was imported from tool outputs (loadlab import) and records"
                + " no spec to run; import more outputs into it, or loadlab run a new experiment", resumed.err().strip());
        assertEquals(1, Results.load(Path.of(dir)).runs().rowCount(), "the imported run is kept");
    }

    @Test
    void anUnreadableFileImportsNothingAndQuotesTheLine() throws IOException {
        String dir = tmp.resolve("data/bad").toString();
        Path bad = tmp.resolve("bad-ab.txt");
        Files.writeString(bad, ImportersTest.fixture("ab-k.txt").replace("Complete requests:      192172",
                "Complete requests:      all"));
        Outcome o = run("import", file("wrk.txt"), bad.toString(), "--subject", "s", "--workload", "w", "--out", dir);
        assertEquals(Main.EXIT_USAGE, o.code());
        assertTrue(o.err().contains("'Complete requests:      all'") && o.err().contains("ab output")
                && o.err().contains("bad-ab.txt"), o.err());
        assertFalse(Files.exists(Path.of(dir, "runs.csv")), "nothing written");
    }

    @Test
    void subjectAndWorkloadAreRequired() {
        Outcome o = run("import", "x.txt", "--out", tmp.resolve("d").toString());
        assertEquals(Main.EXIT_USAGE, o.code());
        assertTrue(o.err().contains("--subject"), o.err());
    }
}
