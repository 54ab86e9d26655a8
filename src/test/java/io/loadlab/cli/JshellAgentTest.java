package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
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
        assumeTrue(JshellCommand.customAgentAllowed(), "this Java's JShell runs snippets only in its own agent");
        String text = JshellRun.run(dir, "tech.tablesaw.api.Table.create(\"t\","
                + " tech.tablesaw.api.DoubleColumn.create(\"rps\", 123456.789))\n/exit\n",
                List.of("--execution", JshellCommand.execution(true)));
        assertTrue(text.contains("123,457") && !text.contains("123456.789"), text);
    }
}
