package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The compiler directives that {@code ./loadlab} gives the kernel on small machines
 * ({@code src/main/jvm/kernel-compiler-directives.json}): a file the JVM cannot parse stops it
 * from starting, so every kernel would fail. Checked on the Java running the tests and on the
 * newest Java 24+ installed ({@link KernelOnNewJavaTest#newJava()}), with the flags the launcher
 * passes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KernelCompilerDirectivesTest {

    static final Path DIRECTIVES = Path.of(System.getProperty("user.dir"), "src/main/jvm/kernel-compiler-directives.json");

    @Test
    void theJavaInUseAcceptsTheDirectives() throws Exception {
        assertAccepted(Path.of(System.getProperty("java.home")));
    }

    @Test
    void theNewestJavaAcceptsTheDirectives() throws Exception {
        Optional<Path> home = KernelOnNewJavaTest.newJava();
        assumeTrue(home.isPresent(), "no Java " + KernelOnNewJavaTest.OLDEST + " or later under /usr/lib/jvm");
        assertAccepted(home.get());
    }

    private static void assertAccepted(Path javaHome) throws Exception {
        Process p = new ProcessBuilder(List.of(javaHome.resolve("bin/java").toString(), "-XX:+DisplayVMOutputToStderr",
                "-XX:+UnlockDiagnosticVMOptions", "-XX:CompilerDirectivesFile=" + DIRECTIVES, "-version"))
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try {
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "java -version did not end in 30 s");
        } finally {
            p.destroyForcibly();
        }
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("1 compiler directives added"), out);
        assertTrue(!out.contains("error") && !out.contains("Could not load"), out);
    }
}
