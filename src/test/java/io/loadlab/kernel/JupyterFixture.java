package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadlab.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Debian's Jupyter with the Loadlab kernel installed into a temporary prefix by the real
 * {@code loadlab kernel install --prefix}, and a runtime folder of its own, so that every kernel
 * JVM a test starts can be found by its connection file's path and checked to be gone.
 */
final class JupyterFixture {

    static final Path JUPYTER = Path.of("/usr/bin/jupyter");
    static final Path PYTHON = Path.of("/usr/bin/python3");

    final Path prefix;
    final Path runtime;

    /** What a command printed (standard output and error together) and its exit code. */
    record Run(int exitCode, String output) {}

    private JupyterFixture(Path dir) {
        this.prefix = dir.resolve("prefix");
        this.runtime = dir.resolve("runtime");
    }

    /** Skips the test (with the reason) when Debian's Jupyter is not installed; else installs the kernelspec. */
    static JupyterFixture install(Path dir) throws IOException {
        assumeTrue(Files.isExecutable(JUPYTER), "needs " + JUPYTER
                + ": apt-get install jupyter-client jupyter-core jupyter-nbconvert python3-jupyter-kernel-test");
        JupyterFixture f = new JupyterFixture(dir);
        Files.createDirectories(f.runtime);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"kernel", "install", "--prefix", f.prefix.toString()},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, out + "\n" + err);
        Path spec = f.prefix.resolve("share/jupyter/kernels/loadlab/kernel.json");
        assertTrue(Files.isRegularFile(spec), "no " + spec + "; output: " + out);
        String json = Files.readString(spec);
        assertTrue(json.contains("\"interrupt_mode\" : \"message\"") && json.contains("io.loadlab.kernel.KernelMain"), json);
        return f;
    }

    /**
     * Runs a command with this Jupyter's environment, its output in {@code log}.
     *
     * @throws AssertionError when it does not finish in {@code limit} (it is then killed)
     */
    Run run(List<String> command, Path workDir, Path log, Duration limit) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.put("JUPYTER_PATH", prefix.resolve("share/jupyter").toString());
        env.put("JUPYTER_RUNTIME_DIR", runtime.toString());
        env.put("JUPYTER_CONFIG_DIR", prefix.resolve("config").toString());
        env.put("JUPYTER_PLATFORM_DIRS", "1");
        env.put("PYTHONDONTWRITEBYTECODE", "1");
        env.put("LOADLAB_JAVA_VERSION", System.getProperty("java.version"));
        Process p = pb.start();
        p.getOutputStream().close();
        if (!p.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(String.join(" ", command) + " did not finish in " + limit.toSeconds() + " s:\n"
                    + tail(log));
        }
        return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    /**
     * Checks that no kernel JVM of this fixture is left, by PID: kernels are found by the runtime
     * folder their connection file lies in. Kills leftovers, then fails naming them.
     */
    void assertNoKernelLeft() throws InterruptedException {
        List<ProcessHandle> kernels = kernels();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!kernels.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            kernels = kernels();
        }
        kernels.forEach(ProcessHandle::destroyForcibly);
        assertTrue(kernels.isEmpty(), "kernel JVMs left running (killed now): "
                + kernels.stream().map(h -> Long.toString(h.pid())).collect(Collectors.joining(", ")));
    }

    private List<ProcessHandle> kernels() {
        String marker = runtime.toString();
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(h -> h.info().arguments().map(a -> String.join(" ", a)).orElse("").contains("io.loadlab.kernel.KernelMain"))
                .filter(h -> h.info().arguments().map(a -> String.join(" ", a)).orElse("").contains(marker))
                .collect(Collectors.toList());
    }

    static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "";
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
    }

    /** nbformat stores text as a string or a list of lines. */
    static String join(JsonNode node) {
        if (node.isArray()) {
            StringBuilder b = new StringBuilder();
            node.forEach(n -> b.append(n.asText()));
            return b.toString();
        }
        return node.isMissingNode() || node.isNull() ? "" : node.asText();
    }
}
