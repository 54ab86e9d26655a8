package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One real kernel process, driven over ZeroMQ by {@code src/test/python/kernel_survival.py}
 * (jupyter_client, as a notebook server would), through cells that throw, loop forever until
 * interrupted, print megabytes, fill the heap (one of them run again) and call {@code System.exit}:
 * after each, the kernel answers the next cell, keeps the variables of earlier cells, and its
 * heartbeat answers. The kernel gets a small heap ({@value #HEAP}) so that filling it is quick.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class KernelSurvivalTest {

    private static final Path DRIVER = Path.of(System.getProperty("user.dir"), "src/test/python/kernel_survival.py");
    private static final String HEAP = "-Xmx256m";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private final ArrayNode steps = JSON.createArrayNode();

    @Test
    void theKernelAnswersTheNextCellAfterEachHostileCell() throws Exception {
        JupyterFixture jupyter = JupyterFixture.install(tmp);
        try {
            boundTheHeap(jupyter.prefix.resolve("share/jupyter/kernels/loadlab/kernel.json"));
            int keep = step("int keep = 41;\nString word = \"kept\";");
            int unchecked = step("throw new IllegalStateException(\"x\");");
            int checked = step("throw new java.io.IOException(\"checked\");");
            int recursion = step("int down(int n) { return down(n + 1) + 1; }\ndown(0)");
            int afterThrows = step("keep + 1");
            int spin = interrupted("long spins = 0;\nwhile (true) { spins++; }");
            int afterSpin = step("spins > 0 && keep == 41");
            int sleeper = interrupted("while (true) { Thread.sleep(50); }");
            int blocked = interrupted("new java.util.concurrent.CountDownLatch(1).await();");
            int afterInterrupts = step("word + \" \" + (keep + 1)");
            int lines = step("for (int i = 0; i < 200_000; i++) { System.out.println(\"line \" + i + \" \" + \"x\".repeat(70)); }");
            int oneLine = step("System.out.print(\"y\".repeat(20_000_000));\nSystem.out.println(\"END\");");
            int afterOutput = step("keep + 2");
            int tooBig = step("long[] big = new long[Integer.MAX_VALUE - 8];");
            String hogCell = "List<long[]> hog = new ArrayList<>();\nwhile (true) { hog.add(new long[1 << 20]); }";
            int chunks = step(hogCell);
            int crumbs = step("List<long[]> crumbs = new ArrayList<>();\nwhile (true) { crumbs.add(new long[64]); }");
            // Run again word for word, JShell runs the declaration in the first run's class.
            int chunksAgain = step(hogCell);
            int afterHeap = step("keep + word.length()");
            int halfTheHeap = step("new long[(int) (Runtime.getRuntime().maxMemory() / 8 / 2)].length > 0");
            int exit = step("System.exit(0);");
            int halt = step("Runtime.getRuntime().halt(1);");
            int last = step("keep");

            JsonNode report = drive(jupyter);
            assertEquals("message", report.path("interrupt_mode").asText());
            JsonNode s = report.path("steps");
            assertEquals(steps.size(), s.size(), "the kernel stopped answering after step " + (s.size() - 1) + ": "
                    + (s.size() > 0 ? s.get(s.size() - 1) : report));
            for (JsonNode step : s) {
                assertTrue(step.path("idle").asBoolean(), "no idle status after " + step.path("code").asText());
                assertTrue(step.path("heartbeat_after").asBoolean(), "no heartbeat after " + step.path("code").asText());
            }

            ok(s.get(keep));
            failed(s.get(unchecked), "java.lang.IllegalStateException", "x");
            failed(s.get(checked), "java.io.IOException", "checked");
            failed(s.get(recursion), "java.lang.StackOverflowError", "");
            assertTrue(s.get(recursion).path("reply").path("traceback").toString().contains("at down (cell line 1)"),
                    s.get(recursion).toString());
            assertEquals("42", result(s.get(afterThrows)));

            for (int i : new int[] {spin, sleeper, blocked}) {
                failed(s.get(i), CellError.INTERRUPTED, "the cell was stopped by an interrupt request");
                assertTrue(s.get(i).path("heartbeat_during").asBoolean(), "no heartbeat while " + s.get(i).path("code"));
            }
            assertEquals("true", result(s.get(afterSpin)), "the interrupted loop's variable and earlier ones are kept");
            assertEquals("kept 42", result(s.get(afterInterrupts)));

            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < 200_000; i++) {
                expected.append("line ").append(i).append(' ').append("x".repeat(70)).append('\n');
            }
            truncated(s.get(lines), expected.toString());
            truncated(s.get(oneLine), "y".repeat(20_000_000) + "END\n");
            assertEquals("43", result(s.get(afterOutput)));

            failed(s.get(tooBig), "java.lang.OutOfMemoryError", null);
            failed(s.get(chunks), "java.lang.OutOfMemoryError", null);
            assertTrue(traceback(s.get(chunks)).contains("to give its memory back: hog"), traceback(s.get(chunks)));
            failed(s.get(crumbs), "java.lang.OutOfMemoryError", null);
            assertTrue(traceback(s.get(crumbs)).contains("to give its memory back: crumbs"), traceback(s.get(crumbs)));
            failed(s.get(chunksAgain), "java.lang.OutOfMemoryError", null);
            assertTrue(traceback(s.get(chunksAgain)).contains("to give its memory back: hog"), traceback(s.get(chunksAgain)));
            assertEquals("45", result(s.get(afterHeap)));
            assertEquals("true", result(s.get(halfTheHeap)), "the failed cells' memory was given back");

            failed(s.get(exit), "java.lang.SecurityException", "System.exit(0) was refused: it would end the kernel "
                    + "and lose every variable; restart the kernel from the notebook instead");
            failed(s.get(halt), "java.lang.SecurityException", null);
            assertEquals("41", result(s.get(last)));

            // The guard lets the kernel itself exit when Jupyter asks it to.
            assertEquals(0, report.path("exit_code").asInt(), "the kernel's exit code after a shutdown request");
        } finally {
            jupyter.assertNoKernelLeft();
        }
    }

    private int step(String code) {
        ObjectNode s = steps.addObject();
        s.put("code", code);
        return steps.size() - 1;
    }

    private int interrupted(String code) {
        int i = step(code);
        ((ObjectNode) steps.get(i)).put("interrupt", true);
        return i;
    }

    /** Gives the installed kernel a small heap: its argv is java, then the options. */
    private static void boundTheHeap(Path kernelJson) throws Exception {
        ObjectNode spec = (ObjectNode) JSON.readTree(kernelJson.toFile());
        ArrayNode argv = (ArrayNode) spec.path("argv");
        argv.insert(1, HEAP);
        JSON.writeValue(kernelJson.toFile(), spec);
    }

    private JsonNode drive(JupyterFixture jupyter) throws Exception {
        Path stepsFile = tmp.resolve("steps.json");
        Path reportFile = tmp.resolve("report.json");
        JSON.writeValue(stepsFile.toFile(), steps);
        Path log = tmp.resolve("driver.log");
        JupyterFixture.Run run = jupyter.run(List.of(JupyterFixture.PYTHON.toString(), DRIVER.toString(), stepsFile.toString(),
                reportFile.toString()), tmp, log, Duration.ofSeconds(200));
        assertEquals(0, run.exitCode(), JupyterFixture.tail(log));
        assertTrue(Files.isRegularFile(reportFile), JupyterFixture.tail(log));
        return JSON.readTree(reportFile.toFile());
    }

    private static void ok(JsonNode step) {
        assertNotNull(step.path("reply"), step.toString());
        assertEquals("ok", step.path("reply").path("status").asText(), step.toString());
    }

    /** The step failed with this exception (and message, unless null). */
    private static void failed(JsonNode step, String ename, String evalue) {
        JsonNode reply = step.path("reply");
        assertEquals("error", reply.path("status").asText(), step.toString());
        assertEquals(ename, reply.path("ename").asText(), traceback(step));
        if (evalue != null) {
            assertEquals(evalue, reply.path("evalue").asText(), traceback(step));
        }
    }

    private static String result(JsonNode step) {
        ok(step);
        assertEquals(1, step.path("results").size(), step.toString());
        return step.path("results").get(0).asText();
    }

    private static String traceback(JsonNode step) {
        List<String> lines = new ArrayList<>();
        step.path("reply").path("traceback").forEach(l -> lines.add(l.asText()));
        return String.join("\n", lines);
    }

    /** The cell printed {@code printed}: the first MiB of it arrived, and a note says how much did not. */
    private static void truncated(JsonNode step, String printed) {
        ok(step);
        String stdout = step.path("stdout").asText();
        assertEquals(CellOutput.LIMIT_BYTES, stdout.length(), "stdout shows exactly the limit");
        assertTrue(printed.startsWith(stdout), "stdout is the start of what was printed");
        String stderr = step.path("stderr").asText();
        assertTrue(stderr.contains("[output truncated: a cell shows at most 1 MiB of printed text; the rest of this "
                + "cell's output is left out]"), stderr);
        assertTrue(stderr.contains(String.format(Locale.ROOT, "[output truncated: %,d bytes of this cell's output were left out]",
                printed.length() - CellOutput.LIMIT_BYTES)), stderr);
    }
}
