package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code docs/reference/data-files.md} lists the columns the code writes, in the files' order. */
class DataFilesReferenceTest {

    @Test
    void theCommittedPageIsTheOneTheColumnsMake() throws IOException {
        assertEquals(DataFilesReference.markdown(), Files.readString(DataFilesReference.PAGE), DataFilesReference.PAGE
                + " differs from the columns in the code: write it again with `java -cp target/loadlab-0.1.0-SNAPSHOT.jar"
                + " io.loadlab.data.DataFilesReference` after `mvn -q package -DskipTests`");
    }

    /** The page's runs.csv rows are the header of a real runs.csv, in its order. */
    @Test
    void theRunsTableHasTheSampleHeaderInItsOrder() throws IOException {
        String page = DataFilesReference.markdown();
        List<String> header = List.of(Files.readAllLines(Path.of("data/sample/runs.csv")).get(0).split(","));
        int at = 0;
        for (String column : header) {
            int found = page.indexOf("| `" + column + "` | ");
            assertTrue(found > at, column + " is missing from the page or out of the file's order");
            at = found;
        }
        assertTrue(RunColumn.values().length >= header.size());
        for (RunColumn c : RunColumn.values()) {
            assertTrue(!c.meaning().isBlank() && !c.meaning().endsWith("."), c.id() + ": a meaning is a phrase, without a full stop");
        }
    }
}
