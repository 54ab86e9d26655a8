package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** End to end: nbconvert executes a notebook on the installed kernel; its outputs hold a table and a chart. */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class KernelNotebookTest {

    private static final Path NOTEBOOK = Path.of(System.getProperty("user.dir"), "src/test/resources/kernel/smoke.ipynb");

    @TempDir
    Path tmp;

    @Test
    void nbconvertExecutesANotebookWithATableAndAChart() throws Exception {
        JupyterFixture jupyter = JupyterFixture.install(tmp);
        try {
            Path out = tmp.resolve("out");
            Path log = tmp.resolve("nbconvert.log");
            JupyterFixture.Run run = jupyter.run(List.of(JupyterFixture.JUPYTER.toString(), "nbconvert", "--to", "notebook",
                            "--execute", "--ExecutePreprocessor.kernel_name=loadlab", "--ExecutePreprocessor.timeout=120",
                            "--output-dir", out.toString(), NOTEBOOK.getFileName().toString()),
                    NOTEBOOK.getParent(), log, Duration.ofSeconds(240));
            assertEquals(0, run.exitCode(), JupyterFixture.tail(log));

            JsonNode nb = new ObjectMapper().readTree(out.resolve("smoke.ipynb").toFile());
            List<JsonNode> outputs = new ArrayList<>();
            nb.path("cells").forEach(c -> c.path("outputs").forEach(outputs::add));
            assertTrue(outputs.stream().noneMatch(o -> o.path("output_type").asText().equals("error")), outputs.toString());

            String html = outputs.stream().map(o -> JupyterFixture.join(o.path("data").path("text/html"))).filter(s -> s.contains("<table>"))
                    .findFirst().orElseThrow(() -> new AssertionError("no text/html table in " + outputs));
            assertTrue(html.contains("<caption>rps summary"), html);
            assertTrue(html.contains("<td>java-netty</td>"), html);

            String png = outputs.stream().map(o -> JupyterFixture.join(o.path("data").path("image/png"))).filter(s -> !s.isEmpty())
                    .findFirst().orElseThrow(() -> new AssertionError("no image/png in " + outputs));
            byte[] bytes = Base64.getMimeDecoder().decode(png);
            assertEquals("PNG", new String(bytes, 1, 3, StandardCharsets.US_ASCII));

            // The progress bar's one output, updated in place to its last state.
            assertTrue(outputs.stream().anyMatch(o -> JupyterFixture.join(o.path("data").path("text/plain")).contains("steps [")
                    && JupyterFixture.join(o.path("data").path("text/plain")).contains("3/3 (100%)")), outputs.toString());
            assertEquals(1, outputs.stream().filter(o -> JupyterFixture.join(o.path("data").path("text/plain")).startsWith("steps")).count());
            assertTrue(outputs.stream().anyMatch(o -> JupyterFixture.join(o.path("text")).equals("runs: 45\n")), outputs.toString());
        } finally {
            jupyter.assertNoKernelLeft();
        }
    }
}
