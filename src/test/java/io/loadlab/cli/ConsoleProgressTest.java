package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadlab.data.RunColumn;
import io.loadlab.data.RunRow;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The line a run's end prints when standard error is not a terminal (as in CI and in the tests). */
class ConsoleProgressTest {

    private static String finished(Map<String, String> values) {
        StringWriter out = new StringWriter();
        new ConsoleProgress(new PrintWriter(out)).runFinished(null, new RunRow(values), 0, 1);
        return out.toString();
    }

    @Test
    void aSteadyRunSaysSo() {
        assertEquals("      12,345 rps after a 4.5 s warm-up (steady)\n", finished(Map.of(RunColumn.STATUS.id(), "ok",
                RunColumn.RPS.id(), "12345", RunColumn.WARMUP_S.id(), "4.5", RunColumn.STEADY.id(), "true")));
    }

    /** Issue 31: why the warm-up ended early is on the console, not only in runs.csv. */
    @Test
    void aWarmupCutShortSaysWhy() {
        String why = "no good answer in its last 1.0 s (812 answers, every one an error)";
        assertEquals("      812 rps after a 1 s warm-up (cut short: " + why + ")\n", finished(Map.of(
                RunColumn.STATUS.id(), "ok", RunColumn.RPS.id(), "812", RunColumn.WARMUP_S.id(), "1",
                RunColumn.STEADY.id(), "false", RunColumn.WARMUP_CUT_SHORT.id(), why)));
    }
}
