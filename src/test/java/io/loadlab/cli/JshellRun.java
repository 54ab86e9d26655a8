package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The real jshell of the running Java, with the tests' class path: its snippets typed on standard input. */
final class JshellRun {

    private JshellRun() {
    }

    /**
     * Runs jshell with {@code options} after its class path, {@code input} on standard input (as typed:
     * a script file's expressions print no value), in {@code dir}; asserts it ends, with 0, within 100 s
     * (stopped by its process either way).
     *
     * @return what it printed, standard error included
     */
    static String run(Path dir, String input, List<String> options) throws IOException, InterruptedException {
        Path jshell = Path.of(System.getProperty("java.home"), "bin", "jshell");
        List<String> cmd = new ArrayList<>(List.of(jshell.toString(), "--class-path",
                System.getProperty("java.class.path")));
        cmd.addAll(options);
        Path in = Files.writeString(dir.resolve("in.jsh"), input);
        Path out = dir.resolve("out.txt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(in.toFile()).start();
        try {
            assertTrue(p.waitFor(100, TimeUnit.SECONDS), "jshell did not end");
        } finally {
            p.destroyForcibly();
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        return text;
    }
}
