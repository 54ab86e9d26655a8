package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Help texts reflowed into paragraphs: no orphaned words after a wrapped source line. */
class HelpTextTest {

    /** How a continued option description starts: under the description column, past the option names. */
    private static final String CONTINUATION = " ".repeat(24);

    @Test
    void linesOfAParagraphAreJoinedAndBlankOrIndentedLinesKept() {
        String[] in = {"first line of a", "paragraph.", "", "  loadlab run --rounds 3", "next", "paragraph"};
        assertArrayEquals(new String[] {"first line of a paragraph.", "", "  loadlab run --rounds 3",
                "next paragraph"}, HelpText.paragraphs(in));
    }

    @Test
    void everyCommandsHelpIsWrappedOnceWithItsOptionsInTheirOrder() {
        for (String command : List.of("load", "run", "rerun", "compare", "report", "demo", "subjects", "import")) {
            CliRun help = CliRun.of(command, "--help");
            assertEquals(0, help.code(), command + ": " + help.err());
            List<String> lines = Arrays.asList(help.out().split("\n"));
            assertTrue(lines.stream().allMatch(l -> l.length() <= 100), command + " has a line over 100 columns");
            // An orphan is a short continuation of an option's description that the next line goes on from.
            for (int i = 1; i + 1 < lines.size(); i++) {
                String line = lines.get(i);
                boolean continuation = line.startsWith(CONTINUATION);
                boolean followedBy = lines.get(i + 1).startsWith(CONTINUATION);
                assertTrue(!(continuation && followedBy && line.strip().length() < 25),
                        command + " --help has an orphaned line: '" + line.strip() + "'");
            }
        }
        String run = CliRun.of("run", "--help").out();
        assertTrue(run.replaceAll("\\s+", " ").contains("(at most --warmup-max, widened by"), run);
        assertTrue(run.lastIndexOf("--subjects=RE") < run.lastIndexOf("--workloads=RE")
                && run.lastIndexOf("--workloads=RE") < run.lastIndexOf("--resume=DIR"), "options out of their order");
    }

    @Test
    void rebuiltOptionsStillBind() {
        CliRun bad = CliRun.of("run", "--warmup", "soon");
        assertEquals(Main.EXIT_USAGE, bad.code(), bad.err());
        assertTrue(bad.err().contains("soon"), bad.err());
    }
}
