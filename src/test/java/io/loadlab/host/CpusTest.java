package io.loadlab.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CpusTest {

    @Test
    void withOneCpuNothingIsPinnedAndTheWarningNamesIt() {
        assertEquals(Optional.empty(), Cpus.defaultSplit(List.of(3), true));
        String w = Cpus.sharingWarning(List.of(3), true).orElseThrow();
        assertTrue(w.startsWith("only CPU 3 is available to Loadlab, so nothing is pinned"), w);
    }

    @Test
    void withoutTasksetNothingIsPinnedAndTheWarningSaysWhatToInstall() {
        assertEquals(Optional.empty(), Cpus.defaultSplit(List.of(0, 1, 2), false));
        String w = Cpus.sharingWarning(List.of(0, 1, 2), false).orElseThrow();
        assertTrue(w.contains("taskset is not on the PATH (Debian: util-linux)") && w.contains("CPUs 0,1,2"), w);
    }

    @Test
    void withTwoOrMoreTheSubjectGetsTheFirstAndTheEngineTheRest() {
        assertEquals(Optional.of(new Cpus.Split("2", "5,7")), Cpus.defaultSplit(List.of(2, 5, 7), true));
        assertEquals(Optional.empty(), Cpus.sharingWarning(List.of(2, 5, 7), true));
    }

    @Test
    void aTasksetFailureIsReportedByItsErrorLineNotItsListOfPinnedThreads() {
        String out = "pid 14168's current affinity list: 1\npid 14168's new affinity list: 0,1\n"
                + "taskset: failed to get pid 14685's affinity: No such process\n";
        assertEquals("taskset: failed to get pid 14685's affinity: No such process", Cpus.errorLines(out));
        assertEquals("pid 1's new affinity list: 0", Cpus.errorLines("pid 1's new affinity list: 0\n"),
                "nothing but the list: all of it");
    }
}
