package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel on the newest Java installed, when it is 24 or later (the Javas without a security
 * manager; Temurin 25 on this machine kind): the real kernelspec with its {@code java} replaced,
 * driven over ZeroMQ by {@code src/test/python/kernel_survival.py}, through a few cells, the exit
 * guard and interrupts (of a sleeping and of a busy loop). Skipped, with the reason, when no such
 * Java is under {@code /usr/lib/jvm} (or {@code -Dloadlab.test.newJava=JAVA_HOME}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KernelOnNewJavaTest {

    static final int OLDEST = 24;
    private static final Path DRIVER = Path.of(System.getProperty("user.dir"), "src/test/python/kernel_survival.py");
    private static final Pattern VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void cellsTheExitGuardAndInterruptsWorkOnJava24OrLater() throws Exception {
        Optional<Path> home = newJava();
        assumeTrue(home.isPresent(), "no Java " + OLDEST + " or later under /usr/lib/jvm (nor -Dloadlab.test.newJava)");
        JupyterFixture jupyter = JupyterFixture.install(tmp);
        try {
            Path spec = jupyter.prefix.resolve("share/jupyter/kernels/loadlab/kernel.json");
            ObjectNode kernel = (ObjectNode) JSON.readTree(spec.toFile());
            ((ArrayNode) kernel.path("argv")).set(0, home.get().resolve("bin/java").toString());
            JSON.writeValue(spec.toFile(), kernel);
            ArrayNode steps = JSON.createArrayNode();
            for (String code : List.of("int keep = 41;", "Runtime.version().feature()", "System.exit(0);",
                    "Runtime.getRuntime().halt(1);", "while (true) { Thread.sleep(50); }", "long spins = 0;\nwhile (true) { spins++; }",
                    "keep + 1")) {
                steps.addObject().put("code", code).put("interrupt", code.contains("while"));
            }
            Path stepsFile = tmp.resolve("steps.json");
            Path reportFile = tmp.resolve("report.json");
            Path log = tmp.resolve("driver.log");
            JSON.writeValue(stepsFile.toFile(), steps);
            JupyterFixture.Run run = jupyter.run(List.of(JupyterFixture.PYTHON.toString(), DRIVER.toString(),
                    stepsFile.toString(), reportFile.toString()), tmp, log, Duration.ofSeconds(100));
            assertEquals(0, run.exitCode(), JupyterFixture.tail(log));
            JsonNode s = JSON.readTree(reportFile.toFile()).path("steps");
            assertEquals(steps.size(), s.size(), JupyterFixture.tail(log));
            assertEquals("ok", s.get(0).path("reply").path("status").asText(), s.get(0).toString());
            assertEquals(String.valueOf(major(home.get()).orElseThrow()), result(s.get(1)));
            assertEquals("System.exit(0) was refused: it would end the kernel and lose every variable; restart the "
                    + "kernel from the notebook instead", refused(s.get(2)));
            assertTrue(refused(s.get(3)).startsWith("Runtime.halt(1) was refused"), s.get(3).toString());
            assertEquals(CellError.INTERRUPTED, s.get(4).path("reply").path("ename").asText(), s.get(4).toString());
            assertEquals(CellError.INTERRUPTED, s.get(5).path("reply").path("ename").asText(), s.get(5).toString());
            assertEquals("42", result(s.get(6)), "the kernel kept its variables");
            // The kernel's stderr is in the driver's log: no security manager, so no warning about one.
            assertFalse(run.output().toLowerCase(java.util.Locale.ROOT).contains("security manager"), run.output());
        } finally {
            jupyter.assertNoKernelLeft();
        }
    }

    /** The home of the newest Java {@value #OLDEST} or later: the property's, else under /usr/lib/jvm. */
    static Optional<Path> newJava() throws IOException {
        String property = System.getProperty("loadlab.test.newJava");
        if (property != null) {
            return Optional.of(Path.of(property)).filter(h -> major(h).orElse(0) >= OLDEST);
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(h -> Files.isExecutable(h.resolve("bin/java")) && major(h).orElse(0) >= OLDEST)
                    .max(Comparator.comparingInt(h -> major(h).orElse(0)));
        }
    }

    /** The feature version in a Java home's {@code release} file. */
    static Optional<Integer> major(Path home) {
        try {
            Matcher m = VERSION.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String result(JsonNode step) {
        assertEquals("ok", step.path("reply").path("status").asText(), step.toString());
        return step.path("results").path(0).asText();
    }

    private static String refused(JsonNode step) {
        assertEquals("java.lang.SecurityException", step.path("reply").path("ename").asText(), step.toString());
        return step.path("reply").path("evalue").asText();
    }
}
