package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every notebook in {@code notebooks/} (except the report template, which {@code loadlab report}'s
 * tests execute) runs top to bottom under nbconvert on the installed kernel, without an error output, and
 * shows at least one chart and one table, its numbers rounded for people. The quickstart runs a real (small) experiment into
 * {@code data/tmp/quickstart-*}; the folders it creates are removed afterwards. The system property
 * {@code notebooks} (names separated by commas, such as {@code -Dnotebooks=reconcile.ipynb}) runs
 * only those. Each notebook, the report template included, also runs under nbclient from a pip Jupyter
 * ({@link PipJupyter}).
 */
@Timeout(value = 170, unit = TimeUnit.SECONDS)
class NotebooksTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir"));
    private static final Path NOTEBOOKS = HOME.resolve("notebooks");
    private static final Path DATA_TMP = HOME.resolve("data/tmp");
    /** Not executed here: the report template has tests of its own, through {@code loadlab report}. */
    private static final Set<String> SKIPPED = Set.of("report.ipynb");

    @TempDir
    static Path tmp;

    private static JupyterFixture jupyter;

    @BeforeAll
    static void installKernel() throws IOException {
        jupyter = JupyterFixture.install(tmp);
    }

    @AfterEach
    void noKernelLeft() throws InterruptedException {
        jupyter.assertNoKernelLeft();
    }

    static List<String> notebooks() throws IOException {
        try (Stream<Path> files = Files.list(NOTEBOOKS)) {
            List<String> names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".ipynb"))
                    .filter(n -> !SKIPPED.contains(n)).filter(NotebooksTest::chosen).sorted().collect(Collectors.toList());
            assertFalse(names.isEmpty(), "no notebooks in " + NOTEBOOKS + " (-Dnotebooks=" + System.getProperty("notebooks", "")
                    + ")");
            return names;
        }
    }

    /** Whether the {@code notebooks} property (a comma-separated list of names) includes the notebook; all when unset. */
    private static boolean chosen(String name) {
        String only = System.getProperty("notebooks", "").strip();
        return only.isEmpty() || Set.of(only.split("\\s*,\\s*")).contains(name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notebooks")
    void executesWithoutErrorsShowingATableAndAChart(String name) throws Exception {
        Path out = tmp.resolve("out-" + name.replace(".ipynb", ""));
        Path log = tmp.resolve(name + ".log");
        Set<Path> before = quickstartFolders();
        try {
            JupyterFixture.Run run = jupyter.run(List.of(JupyterFixture.JUPYTER.toString(), "nbconvert", "--to", "notebook",
                            "--execute", "--ExecutePreprocessor.kernel_name=loadlab", "--ExecutePreprocessor.timeout=300",
                            "--output-dir", out.toString(), name),
                    NOTEBOOKS, log, Duration.ofSeconds(160));
            assertEquals(0, run.exitCode(), JupyterFixture.tail(log));

            JsonNode nb = new ObjectMapper().readTree(out.resolve(name).toFile());
            List<JsonNode> outputs = new ArrayList<>();
            nb.path("cells").forEach(c -> c.path("outputs").forEach(outputs::add));
            List<JsonNode> errors = outputs.stream().filter(o -> o.path("output_type").asText().equals("error"))
                    .collect(Collectors.toList());
            assertTrue(errors.isEmpty(), name + ": " + errors);

            assertTrue(outputs.stream().anyMatch(o -> JupyterFixture.join(o.path("data").path("text/html")).contains("<table")),
                    name + ": no text/html table among " + outputs.size() + " outputs");
            assertNumbersRounded(name, outputs);
            String png = outputs.stream().map(o -> JupyterFixture.join(o.path("data").path("image/png"))).filter(s -> !s.isEmpty())
                    .findFirst().orElseThrow(() -> new AssertionError(name + ": no image/png output"));
            byte[] bytes = Base64.getMimeDecoder().decode(png);
            assertEquals("PNG", new String(bytes, 1, 3, StandardCharsets.US_ASCII), name);

            for (Path made : newQuickstartFolders(before)) {
                String json = Files.readString(made.resolve("experiment.json"));
                String expected = made.getFileName().toString().startsWith("quickstart-") ? "completed" : "imported";
                assertTrue(json.contains("\"status\" : \"" + expected + "\""), made + ": " + json);
            }
        } finally {
            for (Path made : newQuickstartFolders(before)) {
                deleteTree(made);
            }
        }
    }

    /**
     * The same notebook under nbclient from a pip-installed Jupyter (the library behind JupyterLab 4's
     * and Notebook 7's Run All, and nbconvert's): every cell runs, none shows an error. The report
     * template too, on its default experiment.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyNotebook")
    void runsUnderNbclientFromAPipJupyter(String name) throws Exception {
        Path bin = PipJupyter.bin();
        Path log = tmp.resolve(name + ".nbclient.log");
        Set<Path> before = quickstartFolders();
        try {
            JupyterFixture.Run run = jupyter.run(List.of(bin.resolve("python").toString(),
                            HOME.resolve("src/test/python/run_notebook.py").toString(), name, "300"),
                    NOTEBOOKS, log, Duration.ofSeconds(160));
            assertEquals(0, run.exitCode(), JupyterFixture.tail(log));
            assertTrue(run.output().contains(name + ": ") && run.output().contains("no error"), run.output());
        } finally {
            for (Path made : newQuickstartFolders(before)) {
                deleteTree(made);
            }
        }
    }

    static List<String> everyNotebook() throws IOException {
        try (Stream<Path> files = Files.list(NOTEBOOKS)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".ipynb"))
                    .filter(NotebooksTest::chosen).sorted().collect(Collectors.toList());
        }
    }

    /**
     * Every number a table shows is rounded for people: whole numbers with separators (117,541), a
     * figure with a decimal point to at most 3 significant digits (0.614, 12.1%, 0.0079), tiny p-values
     * as {@code < 0.001}, rounds advised past the search's cap as {@code > 10,000}; so a mean of 76108.3,
     * a ratio of 0.613655, 117541 requests or {@code inf} fail.
     */
    private static void assertNumbersRounded(String name, List<JsonNode> outputs) {
        Pattern numericCell = Pattern.compile("<td style=\"text-align:right\">([^<]*)</td>");
        Pattern rounded = Pattern.compile("-?[0-9]{1,3}(,[0-9]{3})*(\\.[0-9]+)?%?|&lt; 0\\.001|&gt; [0-9]{1,3}(,[0-9]{3})*|");
        int checked = 0;
        for (JsonNode o : outputs) {
            Matcher cell = numericCell.matcher(JupyterFixture.join(o.path("data").path("text/html")));
            while (cell.find()) {
                String text = cell.group(1);
                String digits = text.replaceAll("[^0-9]", "").replaceFirst("^0+", "");
                assertTrue(rounded.matcher(text).matches() && (!text.contains(".") || digits.length() <= 3),
                        name + ": a table shows '" + text + "'");
                checked++;
            }
        }
        assertTrue(checked > 0, name + ": no table shows a number, so none was checked");
    }

    private static Set<Path> quickstartFolders() throws IOException {
        if (!Files.isDirectory(DATA_TMP)) {
            return Set.of();
        }
        try (Stream<Path> dirs = Files.list(DATA_TMP)) {
            // What the notebooks write: quickstart's experiment, engines' import.
            return dirs.filter(p -> p.getFileName().toString().startsWith("quickstart-")
                    || p.getFileName().toString().startsWith("notebook-import-")).collect(Collectors.toSet());
        }
    }

    private static List<Path> newQuickstartFolders(Set<Path> before) throws IOException {
        return quickstartFolders().stream().filter(p -> !before.contains(p)).sorted().collect(Collectors.toList());
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
        }
    }
}
