package io.loadlab.importer;

import static io.loadlab.importer.ImportersTest.expect;
import static io.loadlab.importer.ImportersTest.fixture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Detection, unit variants, runs pasted as one line, and outputs that cannot be read. */
class ParsingTest {

    private static final String[] FIXTURES = {"wrk.txt", "wrk-latency.txt", "wrk-non2xx.txt", "wrk-socket-errors.txt",
        "wrk2-u-latency.txt", "oha.txt", "oha.json", "oha-timeout.txt", "oha-timeout.json", "hey.txt", "h2load.txt",
        "ab-k.txt", "ab-non2xx.txt"};

    @Test
    void detectsEachToolFromTheContent() {
        Tool[] expected = {Tool.WRK, Tool.WRK, Tool.WRK, Tool.WRK, Tool.WRK2, Tool.OHA, Tool.OHA, Tool.OHA, Tool.OHA,
            Tool.HEY, Tool.H2LOAD, Tool.AB, Tool.AB};
        for (int i = 0; i < FIXTURES.length; i++) {
            assertEquals(expected[i], Importers.detect(fixture(FIXTURES[i])), FIXTURES[i]);
        }
    }

    @Test
    void aRunPastedAsOneLineReadsTheSame() {
        for (String f : FIXTURES) {
            String text = fixture(f);
            String oneLine = text.replaceAll("\\s*\\R\\s*", " ");
            assertEquals(Importers.parse(text), Importers.parse(oneLine), f);
        }
    }

    @Test
    void windowsLineEndsReadTheSame() {
        String text = fixture("wrk-latency.txt");
        assertEquals(Importers.parse(text), Importers.parse(text.replace("\n", "\r\n")));
    }

    @Test
    void unitVariants() {
        assertEquals(1.5e6, UnitParser.micros("1.5s", "us"));
        assertEquals(250, UnitParser.micros("250us", "ms"));
        assertEquals(250, UnitParser.micros("250µs", "ms"));
        assertEquals(2, UnitParser.micros("2000ns", "us"));
        assertEquals(1.2e8, UnitParser.micros("2.00m", "s"));
        assertEquals(3000, UnitParser.micros("3", "ms"));
        assertEquals(512 * 1024, UnitParser.bytes("512.00KB"));
        assertEquals(512 * 1024, UnitParser.bytes("512KiB"));
        assertEquals(3 * 1024 * 1024, UnitParser.bytes("3 MiB"));
        assertEquals(2.0 * 1024 * 1024 * 1024, UnitParser.bytes("2.00GB"));
        assertEquals(624, UnitParser.bytes("624.00B"));
        assertEquals(24640, UnitParser.count("24.64k"), 1e-6);
        assertEquals(1_040_000, UnitParser.count("1.04M"), 1e-6);
        assertThrows(NumberFormatException.class, () -> UnitParser.micros("3 fortnights", "s"));
    }

    @Test
    void wrkWithOtherUnitsAndSuffixedCounts() {
        String text = """
                Running 1m test @ http://10.0.0.2:8080/
                  4 threads and 1k connections
                  Thread Stats   Avg      Stdev     Max   +/- Stdev
                    Latency     1.50s   250.00us    2.00m    70.00%
                    Req/Sec    10.00k     1.00k    12.00k    60.00%
                  Latency Distribution
                     50%  900.00us
                     75%    1.20s
                     90%    1.50s
                     99%    1.00m
                  1.20M requests in 1.00m, 1.50GB read
                  Socket errors: connect 3, read 4, write 5, timeout 6
                Requests/sec:  20000.00
                Transfer/sec:     25.60MB
                """;
        expect(Importers.parse(text), "connections", "1000", "threads", "4", "lat_mean_us", "1500000",
                "lat_stdev_us", "250", "lat_max_us", "120000000", "lat_p50_us", "900", "lat_p75_us", "1200000",
                "lat_p99_us", "60000000", "requests", "1200000", "duration_s", "60",
                "bytes_read", Long.toString(Math.round(1.5 * 1024 * 1024 * 1024)), "errors_connect", "3",
                "errors_read", "4", "errors_write", "5", "errors_timeout", "6", "errors_status", "0");
    }

    @Test
    @Timeout(10) // a hang guard, not a speed test: the lazy pattern took minutes on this input
    void aHeyErrorMessageWithAHugeRunOfBlanksIsReadInLinearTime() {
        // Hostile input: the lazy message pattern tried "blanks, then [n]" at every blank of the run,
        // each try scanning the rest of it: quadratic in the run's length.
        String blanks = " ".repeat(200_000);
        String text = fixture("hey.txt") + "Error distribution:\n"
                + "  [3]\tGet \"http://127.0.0.1:9/\": dial tcp 127.0.0.1:9: connect: connection refused" + blanks + "x\n"
                + "  [1]\tGet \"http://127.0.0.1:9/\": EOF" + blanks + "[2]\tGet \"http://127.0.0.1:9/\": context deadline"
                + " exceeded (Client.Timeout exceeded while awaiting headers)\n";
        expect(Importers.parse(text), "errors_connect", "3", "errors_timeout", "2", "errors_read", "1",
                "errors_write", "0");
    }

    @Test
    void heyErrorsAreSortedByKind() {
        String text = fixture("hey.txt") + """
                Error distribution:
                  [3]	Get "http://127.0.0.1:9/": dial tcp 127.0.0.1:9: connect: connection refused
                  [2]	Get "http://127.0.0.1:9/": context deadline exceeded (Client.Timeout exceeded while awaiting headers)
                  [1]	Get "http://127.0.0.1:9/": EOF
                """;
        expect(Importers.parse(text), "errors_connect", "3", "errors_timeout", "2", "errors_read", "1",
                "errors_write", "0");
    }

    @Test
    void anUnreadableValueQuotesItsLineAndNamesTheTool() {
        String text = fixture("wrk.txt").replace("Requests/sec:  18694.37", "Requests/sec:  lots");
        ImportException e = assertThrows(ImportException.class, () -> Importers.parse(text));
        assertTrue(e.getMessage().contains("'Requests/sec:  lots'"), e.getMessage());
        assertTrue(e.getMessage().contains("wrk output"), e.getMessage());
        assertTrue(e.getMessage().contains("line 7"), e.getMessage());
    }

    @Test
    void anUnreadablePercentileQuotesItsLine() {
        String text = fixture("wrk-latency.txt").replace("90%    2.06ms", "90%    quick");
        ImportException e = assertThrows(ImportException.class, () -> Importers.parse(text));
        assertTrue(e.getMessage().contains("'90%    quick'"), e.getMessage());
        String ab = fixture("ab-k.txt").replace(" 98%      0", " 98%      zero");
        e = assertThrows(ImportException.class, () -> Importers.parse(ab));
        assertTrue(e.getMessage().contains("'98%      zero'") && e.getMessage().contains("ab output"), e.getMessage());
    }

    @Test
    void aBadValueInAOneLinePasteQuotesTheNeighbourhood() {
        String text = fixture("h2load.txt").replace("83395 done", "many done").replaceAll("\\s*\\R\\s*", " ");
        ImportException e = assertThrows(ImportException.class, () -> Importers.parse(text));
        assertTrue(e.getMessage().contains("h2load output") && e.getMessage().contains("many done"), e.getMessage());
        assertTrue(e.getMessage().length() < 400, e.getMessage());
    }

    @Test
    void aMissingLineIsNamed() {
        String text = fixture("hey.txt").replaceAll("Total:\\s+2.0054 secs", "");
        ImportException e = assertThrows(ImportException.class, () -> Importers.parse(Tool.HEY, text));
        assertTrue(e.getMessage().contains("hey output") && e.getMessage().contains("'Total: ... secs'"), e.getMessage());
    }

    @Test
    void brokenOhaJsonQuotesTheLine() {
        String text = fixture("oha.json").replace("\"total\": 2.001530693,", "\"total\": 2.001530693 oops,");
        ImportException e = assertThrows(ImportException.class, () -> Importers.parse(text));
        assertTrue(e.getMessage().contains("oha output") && e.getMessage().contains("2.001530693 oops"), e.getMessage());
    }

    @Test
    void anUnknownOutputIsRefusedWithItsFirstLine() {
        ImportException e = assertThrows(ImportException.class,
                () -> Importers.detect("Benchmark results\nthroughput: 5 ops/s\n"));
        assertTrue(e.getMessage().contains("'Benchmark results'") && e.getMessage().contains("wrk"), e.getMessage());
    }
}
