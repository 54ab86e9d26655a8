package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** Tables shown in {@code loadlab jshell} are rounded as {@code show(table)} rounds them. */
class JshellAgentTest {

    private static Table table() {
        return Table.create("t", StringColumn.create("subject", "a"), DoubleColumn.create("rps", 123456.789),
                DoubleColumn.create("ratio", 0.61437));
    }

    @Test
    void aTableIsShownRoundedAfterALineBreak() {
        String shown = JshellAgent.shown(table());
        assertTrue(shown.startsWith("\nt (1 rows × 3 columns)\n"), shown);
        assertTrue(shown.contains("123,457") && shown.contains("0.614"), shown);
        assertTrue(!shown.contains("123456.789"), shown);
    }

    /** The real jshell, with the agent loadlab jshell names: what a person sees after {@code $1 ==>}. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void jshellPrintsATableRounded(@TempDir Path dir) throws IOException, InterruptedException {
        Path jshell = Path.of(System.getProperty("java.home"), "bin", "jshell");
        // On standard input, as typed: a script file's expressions print no value.
        Path input = Files.writeString(dir.resolve("in.jsh"), "tech.tablesaw.api.Table.create(\"t\","
                + " tech.tablesaw.api.DoubleColumn.create(\"rps\", 123456.789))\n/exit\n");
        Path out = dir.resolve("out.txt");
        Process p = new ProcessBuilder(List.of(jshell.toString(), "--class-path", System.getProperty("java.class.path"),
                "--execution", "jdi:remoteAgent(" + JshellAgent.class.getName() + ")"))
                .redirectErrorStream(true).redirectOutput(out.toFile()).redirectInput(input.toFile()).start();
        try {
            assertTrue(p.waitFor(100, TimeUnit.SECONDS), "jshell did not end");
        } finally {
            p.destroyForcibly();
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        assertTrue(text.contains("123,457") && !text.contains("123456.789"), text);
    }
}
