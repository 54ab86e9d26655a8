package io.loadlab.cli;

import static io.loadlab.cli.ReportProcesses.assertNoneLeft;
import static io.loadlab.cli.ReportProcesses.classpath;
import static io.loadlab.cli.ReportProcesses.javaCommand;
import static io.loadlab.cli.ReportProcesses.tail;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.kernel.PipJupyter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadlab report data/sample} for a user whose Jupyter came from pip: the virtual
 * environment's {@code bin} first on the PATH, and no {@code --jupyter}. The environment's jupyter
 * is reached through a script that notes each call, so the test sees that it, not Debian's, listed
 * the kernels, installed the kernel and ran nbconvert.
 */
@Timeout(value = 360, unit = TimeUnit.SECONDS)
class PipJupyterReportTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir")).toAbsolutePath();

    @TempDir
    Path tmp;

    @Test
    void reportRendersWithOnlyAPipJupyterOnThePath() throws Exception {
        Path venvBin = PipJupyter.bin();
        Path wrapper = Files.createDirectories(tmp.resolve("bin")).resolve("jupyter");
        Path calls = tmp.resolve("calls.log");
        Files.writeString(wrapper, "#!/bin/sh\necho \"$*\" >> '" + calls + "'\nexec '" + venvBin.resolve("jupyter")
                + "' \"$@\"\n");
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path report = tmp.resolve("sample.html");
        Path runtime = tmp.resolve("jupyter-runtime");
        ProcessBuilder pb = new ProcessBuilder(javaCommand(), "-Dloadlab.home=" + HOME, "-cp", classpath(),
                Main.class.getName(), "report", "data/sample", "--out", report.toString())
                .directory(HOME.toFile()).redirectErrorStream(true).redirectOutput(tmp.resolve("out.log").toFile());
        pb.environment().put("PATH", wrapper.getParent() + ":" + venvBin + ":" + System.getenv("PATH"));
        pb.environment().put("JUPYTER_DATA_DIR", tmp.resolve("jupyter-data").toString());
        pb.environment().put("JUPYTER_CONFIG_DIR", tmp.resolve("jupyter-config").toString());
        pb.environment().put("JUPYTER_RUNTIME_DIR", runtime.toString());
        pb.environment().put("PYTHONNOUSERSITE", "1");
        Process p = pb.start();
        p.getOutputStream().close();
        try {
            boolean done = p.waitFor(300, TimeUnit.SECONDS);
            String out = Files.readString(tmp.resolve("out.log"), StandardCharsets.UTF_8);
            assertTrue(done, "loadlab report did not finish in 300 s:\n" + tail(out));
            assertEquals(0, p.exitValue(), out);
        } finally {
            if (p.isAlive()) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            assertNoneLeft("kernel JVM", runtime.toString());
        }
        List<String> ran = Files.readAllLines(calls);
        assertTrue(ran.stream().anyMatch(l -> l.startsWith("kernelspec list")), String.join("\n", ran));
        assertTrue(ran.stream().anyMatch(l -> l.startsWith("kernelspec install")), String.join("\n", ran));
        assertTrue(ran.stream().anyMatch(l -> l.startsWith("nbconvert --to html --execute")), String.join("\n", ran));
        String html = Files.readString(report, StandardCharsets.UTF_8);
        assertTrue(html.contains("Experiment sample"), "no title with the experiment's name");
        assertTrue(html.contains("data:image/png;base64,"), "no chart in the report");
    }
}
