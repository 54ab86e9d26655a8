package io.loadlab.subject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.loadlab.workload.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Placeholder values reach {@code bash -c} quoted: whatever characters a value holds (a peer's variant,
 * a checkout path with spaces or {@code $}), the process gets exactly them as one argument and nothing
 * in them runs. Before values were quoted, {@code a b} became two arguments and {@code $(...)} ran.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PlaceholderQuotingTest {

    private static final List<String> HOSTILE = List.of("a b", "$HOME", "`id`", "it's", "a;b", "line1\nline2",
            "'; touch pwned; '", "$(touch pwned)", "\"{x}\"", "", "*", "-n");

    @TempDir
    Path dir;

    /** Runs {@code command} as the launcher would (bash -c) and returns its standard output. */
    private String bash(String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", command).directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    @Test
    void everyValueReachesTheProcessAsExactlyItsCharacters() throws Exception {
        for (String v : HOSTILE) {
            String command = SubjectLauncher.substitute("printf %s {x}", Map.of("x", v), "test start");
            assertEquals(v, bash(command), "value " + v);
        }
        assertFalse(Files.exists(dir.resolve("pwned")), "a command inside a value ran");
    }

    @Test
    void aValueInsideAWordStaysOneWordWithItsNeighbours() throws Exception {
        String command = SubjectLauncher.substitute("printf '<%s>' {build}/server 127.0.0.1:{port}",
                Map.of("build", "/tmp/with space/$x", "port", "8080"), "test start");
        assertEquals("</tmp/with space/$x/server><127.0.0.1:8080>", bash(command));
    }

    /** Through {@link SubjectLauncher#start}: a variant value and a work folder with a space and a quote. */
    @Test
    void theStartCommandGetsVariantAndPathsLiterally() throws Exception {
        Path subject = Files.createDirectories(dir.resolve("subjects/demo"));
        Files.writeString(subject.resolve("subject.yaml"), """
                name: demo
                description: prints its variant
                language: Bash
                start: "printf %s {mode} > {workdir}/out"
                ready: {path: /plaintext, timeout: 5s}
                workloads: [plaintext]
                variants: {mode: [plain]}
                """);
        SubjectManifest m = SubjectManifest.read(subject, Workload.builtinNames());
        Path work = dir.resolve("it's a $work");
        String value = "memory; touch " + dir.resolve("pwned") + "; #";
        SubjectProcess p = new SubjectLauncher(dir, dir.resolve("cache")).start(m, Map.of("mode", value), 1,
                Optional.empty(), work, dir.resolve("log"));
        try {
            p.handle().onExit().get(30, TimeUnit.SECONDS);
            assertEquals(Optional.of(0), p.exitCode(), () -> LogTail.of(dir.resolve("log"), 20));
            assertEquals(value, Files.readString(work.resolve("out")));
            assertFalse(Files.exists(dir.resolve("pwned")), "the variant's command ran");
        } finally {
            p.close();
        }
    }
}
