package io.loadlab.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.RunRow;
import org.junit.jupiter.api.Test;

/** The importer parses without knowing the files; its field names must still be columns of runs.csv. */
class ImportedFieldsTest {

    @Test
    void everyImportedFieldIsARunsCsvColumn() {
        for (String f : ImportedRun.FIELDS) {
            assertTrue(RunRow.COLUMNS.contains(f), "imported field '" + f + "' is not a runs.csv column");
        }
    }

    @Test
    void numbersAreWrittenAsTheFilesWriteThem() {
        for (double v : new double[] {0, 12, 1234.5, 0.1234567, 100707.123456789, -3.25, 1e6}) {
            assertEquals(RunRow.num(v), Scan.number(v), "value " + v);
        }
        assertEquals("", Scan.number(Double.NaN));
    }
}
