package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 30, item 8: the hlog repair on resume streams the log and refuses damage in one line. */
class StoreRepairTest {

    private static final String HEADER = "#header\n\"StartTimestamp\",\"Interval_Length\"\n";

    @TempDir
    Path tmp;

    private Path hlog(String text) throws IOException {
        return Files.writeString(tmp.resolve(ExperimentStore.HLOG_FILE), text, StandardCharsets.US_ASCII);
    }

    @Test
    void anAgentsFileFromAnOlderVersionIsRewrittenUnderTodaysHeaderAndItsRunsKept() throws IOException {
        List<String> older = AgentRows.COLUMNS.stream().filter(c -> !c.equals(AgentRows.Column.STEAL_S.id())).toList();
        String row1 = String.join(",", older.stream().map(c -> switch (c) {
            case "experiment" -> "exp";
            case "run_id" -> "1";
            case "agent" -> "10.0.0.2:5701";
            case "load_bound" -> "false";
            case "status" -> "ok";
            default -> "";
        }).toList());
        Path agents = Files.writeString(tmp.resolve(AgentRows.FILE), String.join(",", older) + "\n" + row1 + "\n"
                + row1.replaceFirst(",1,", ",2,") + "\n", StandardCharsets.UTF_8);
        StoreRepair.agents(agents, Set.of(1));
        List<String> lines = Files.readAllLines(agents);
        assertEquals(List.of(AgentRows.header(), AgentRows.line("exp", "1", java.util.Map.of("agent", "10.0.0.2:5701",
                "load_bound", "false", "status", "ok"))), lines, "run 2 has no row: its agent goes; steal_s is empty");

        Files.writeString(agents, "experiment,run_id,agent,kelvin\n", StandardCharsets.UTF_8);
        DataException e = assertThrows(DataException.class, () -> StoreRepair.agents(agents, Set.of(1)));
        assertEquals(agents + ": columns [kelvin] are not known to this version of Loadlab: resume it with the version"
                + " that wrote it", e.getMessage());
        Files.writeString(agents, "exp,1,10.0.0.2:5701\n", StandardCharsets.UTF_8);
        e = assertThrows(DataException.class, () -> StoreRepair.agents(agents, Set.of(1)));
        assertEquals(agents + ": line 1 is not the agents.csv header (it starts experiment,run_id,...)", e.getMessage());

        Files.writeString(agents, "experiment,run_id,ag", StandardCharsets.UTF_8);
        StoreRepair.agents(agents, Set.of(1));
        assertFalse(Files.exists(agents), "a header cut short by a kill: gone, so that the next run writes it whole");
    }

    @Test
    void histogramsOfRunsWithoutARowAndACutOffLastLineAreDropped() throws IOException {
        Path hlog = hlog(HEADER + "Tag=1,0.0,1.0,2.0,AAA\nTag=1-service,0.0,1.0,2.0,BBB\nTag=2,1.0,1.0,2.0,CCC\n"
                + "Tag=3,2.0,1.0,2.0,DDD\nTag=3,3.0,1.0,2.0,EE");
        StoreRepair.hlog(hlog, Set.of(1, 3));
        assertEquals(HEADER + "Tag=1,0.0,1.0,2.0,AAA\nTag=1-service,0.0,1.0,2.0,BBB\nTag=3,2.0,1.0,2.0,DDD\n",
                Files.readString(hlog));
        StoreRepair.hlog(hlog, Set.of(1, 3));
        assertEquals(HEADER + "Tag=1,0.0,1.0,2.0,AAA\nTag=1-service,0.0,1.0,2.0,BBB\nTag=3,2.0,1.0,2.0,DDD\n",
                Files.readString(hlog), "a repaired log is left as it is");
    }

    @Test
    void aWholeTagLineWithoutItsCommaIsRefusedWithTheFileAndLine() throws IOException {
        // Before: StringIndexOutOfBoundsException out of the resume.
        Path hlog = hlog(HEADER + "Tag=1,0.0,1.0,2.0,AAA\nTag=2\nTag=1,1.0,1.0,2.0,BBB\n");
        DataException e = assertThrows(DataException.class, () -> StoreRepair.hlog(hlog, Set.of(1)));
        assertEquals(hlog + ": line 4 is damaged (a Tag= without its comma); delete that line, then resume again",
                e.getMessage());
    }

    @Test
    void aResumeOfAFolderWithADamagedTagLineIsRefusedInOneLineNotCrashed() throws IOException {
        // Through the public door: before, ExperimentStore.open threw StringIndexOutOfBoundsException.
        Path sample = Path.of(System.getProperty("user.dir"), "data", "reconcile-steady");
        Path dir = Files.createDirectories(tmp.resolve("steady"));
        for (String f : List.of(ExperimentStore.SPEC_FILE, ExperimentStore.RUNS_FILE, ExperimentStore.HLOG_FILE)) {
            Files.copy(sample.resolve(f), dir.resolve(f));
        }
        Path hlog = dir.resolve(ExperimentStore.HLOG_FILE);
        int lines = Files.readAllLines(hlog).size();
        Files.writeString(hlog, "Tag=7\n", StandardOpenOption.APPEND);
        DataException e = assertThrows(DataException.class, () -> ExperimentStore.open(dir));
        assertEquals(hlog + ": line " + (lines + 1) + " is damaged (a Tag= without its comma); delete that line, then"
                + " resume again", e.getMessage());
    }

    @Test
    void aLineLongerThanTheCapIsRefusedRatherThanReadIntoMemory() throws IOException {
        // Before: the whole log was one String, whatever a line's length.
        Path hlog = hlog(HEADER + "Tag=1,0.0,1.0,2.0," + "A".repeat(LineChunks.MAX_LINE_BYTES) + "\n");
        DataException e = assertThrows(DataException.class, () -> StoreRepair.hlog(hlog, Set.of(1)));
        assertEquals(hlog + ": line 3 is longer than 1048576 bytes without a line feed: the file is damaged or not"
                + " written by Loadlab", e.getMessage());
    }
}
