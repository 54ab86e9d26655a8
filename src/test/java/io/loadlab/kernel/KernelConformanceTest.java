package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jupyter's kernel conformance suite ({@code jupyter_kernel_test}, Debian's package) against the
 * installed kernel: {@code src/test/python/test_kernel.py}, run by Debian's Python over the real
 * ZeroMQ protocol, with a kernelspec installed by {@code loadlab kernel install --prefix}. Its own
 * tests add what JupyterLab 4 needs, such as the busy/idle around a {@code history_request}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class KernelConformanceTest {

    private static final Path PYTHON_TESTS = Path.of(System.getProperty("user.dir"), "src/test/python");

    @TempDir
    Path tmp;

    @Test
    void theKernelPassesJupytersConformanceSuite() throws Exception {
        JupyterFixture jupyter = JupyterFixture.install(tmp);
        try {
            JupyterFixture.Run check = jupyter.run(List.of(JupyterFixture.PYTHON.toString(), "-c", "import jupyter_kernel_test"),
                    PYTHON_TESTS, tmp.resolve("import.log"), Duration.ofSeconds(60));
            assertEquals(0, check.exitCode(), "Debian's jupyter_kernel_test is missing: apt-get install "
                    + "python3-jupyter-kernel-test\n" + check.output());

            Path log = tmp.resolve("unittest.log");
            JupyterFixture.Run run = jupyter.run(List.of(JupyterFixture.PYTHON.toString(), "-m", "unittest", "-v", "test_kernel"),
                    PYTHON_TESTS, log, Duration.ofSeconds(240));
            assertEquals(0, run.exitCode(), JupyterFixture.tail(log));
            Matcher ran = Pattern.compile("(?m)^Ran (\\d+) tests? in").matcher(run.output());
            assertTrue(ran.find(), run.output());
            assertTrue(Integer.parseInt(ran.group(1)) >= 18, run.output());
            assertTrue(Pattern.compile("(?m)^OK( \\(skipped=\\d+\\))?$").matcher(run.output()).find(), run.output());
            // The suite's own checks for what the kernel has must run, not be skipped.
            for (String test : List.of("test_execute_stdout", "test_execute_stderr", "test_completion", "test_is_complete",
                    "test_error", "test_execute_result", "test_display_data", "test_inspect", "test_kernel_info",
                    "test_interrupt_stops_an_endless_loop", "test_progress_bar_updates_one_display",
                    "test_history_request_is_answered_between_busy_and_idle")) {
                assertTrue(Pattern.compile("(?m)^" + test + " \\(.*\\) \\.\\.\\. (\\n.*\\.\\.\\. )*ok$").matcher(run.output()).find(),
                        test + " did not pass:\n" + run.output());
            }
        } finally {
            jupyter.assertNoKernelLeft();
        }
    }
}
