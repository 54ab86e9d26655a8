package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Table;

class ProtocolsTest {

    private static final String CPU = "rps_per_server_cpu_s";
    private static final CompareOptions O = CompareOptions.defaults();

    /** nginx over h1, h1-tls (0.6 of h1 in every round) and h2-tls (as h1); node-http without protocols. */
    private static RunsTable nginx() {
        return new RunsTable(CPU)
                .group("nginx", "", "plaintext", 100, 110, 90)
                .group("nginx", "protocol=h1-tls", "plaintext", 60, 66, 54)
                .group("nginx", "protocol=h2-tls", "plaintext", 99, 111, 90)
                .group("node-http", "", "plaintext", 50, 51, 49);
    }

    @Test
    void eachProtocolIsHeldAgainstTheSubjectsOwnH1Runs() {
        Table t = Protocols.compare(nginx().table(), CPU, O);
        assertEquals(2, t.rowCount(), "node-http has no protocol variant: no row");
        assertEquals(List.of("h1-tls", "h2-tls"), t.stringColumn("protocol").asList());
        assertEquals(List.of("", ""), t.stringColumn("variant").asList());
        assertEquals(0.6, t.doubleColumn("ratio").get(0), 1e-12);
        assertEquals(60, t.doubleColumn("mean").get(0), 1e-12);
        assertEquals(100, t.doubleColumn("h1_mean").get(0), 1e-12);
        assertEquals(3, t.intColumn("h1_n").get(0));
        assertEquals(0.1, t.doubleColumn("h1_cv").get(0), 1e-12, "sd 10 over mean 100");
        assertEquals(0.1, t.doubleColumn("cv").get(0), 1e-12);
        // 0.6 in every round: each bootstrap resample of rounds gives 0.6, and the log ratios have no spread.
        assertEquals(0.6, t.doubleColumn("ratio_ci_low").get(0), 1e-12);
        assertEquals(0.6, t.doubleColumn("ratio_ci_high").get(0), 1e-12);
        assertEquals("paired", t.stringColumn("test").get(0));
        assertEquals(0.0, t.doubleColumn("p_test").get(0));
        assertEquals("slower", t.stringColumn("verdict").get(0));
        assertEquals("h1-tls gives 40.0% less than h1", t.stringColumn("note").get(0));
        assertEquals(1.0, t.doubleColumn("ratio").get(1), 1e-12, "300 / 300");
        // Rounds 1% apart either way over 3 rounds: neither a difference nor equivalence within 1 ± 1%.
        assertEquals("undecided", t.stringColumn("verdict").get(1));
    }

    @Test
    void theTestIsTheComparisonsPairedTestOnTheRoundsLogRatios() {
        Table runs = new RunsTable(CPU).group("go-nethttp", "", "json", 100, 100, 100)
                .group("go-nethttp", "protocol=h2c", "json", 50, 60, 70).table();
        Table t = Protocols.compare(runs, CPU, O);
        assertEquals(0.6, t.doubleColumn("ratio").get(0), 1e-12, "mean 60 over mean 100");
        assertEquals(TTests.pairedLogRatio(new double[] {50, 60, 70}, new double[] {100, 100, 100}),
                t.doubleColumn("p_test").get(0), 1e-15);
        assertEquals(TTests.welch(new double[] {50, 60, 70}, new double[] {100, 100, 100}),
                t.doubleColumn("p_welch").get(0), 1e-15);
        // A resample of 3 rounds has a mean between 50 and 70, over h1's constant 100.
        double low = t.doubleColumn("ratio_ci_low").get(0);
        double high = t.doubleColumn("ratio_ci_high").get(0);
        assertTrue(0.5 <= low && low < 0.6 && 0.6 < high && high <= 0.7, low + " .. " + high);
        assertEquals(Comparison.rows(runs, CPU, "go-nethttp", O).get(1).ratioCiLow(), low, 1e-15,
                "the same bootstrap as compare's, with the same seed");
    }

    @Test
    void otherVariantsStayApartAndTooFewRoundsOrNoH1AreSaid() {
        Table runs = new RunsTable(CPU)
                .group("java-netty", "durability=memory", "plaintext", 100, 100, 100)
                .group("java-netty", "durability=memory,protocol=h1-tls", "plaintext", 70, 71)
                .group("java-netty", "durability=fsync", "plaintext", 10, 10, 10)
                .group("java-netty", "durability=fsync,protocol=h2-tls", "plaintext", 5, 5, 5)
                .group("go-nethttp", "protocol=h2c", "plaintext", 80, 80, 80)
                .row("java-netty", "durability=memory,protocol=h2c", "plaintext", 1, "failed", 1, false, 0, 0).table();
        Table t = Protocols.compare(runs, CPU, O);
        assertEquals(List.of("go-nethttp", "java-netty", "java-netty"), t.stringColumn("subject").asList(),
                "a failed run is no group");
        assertEquals(List.of("", "durability=fsync", "durability=memory"), t.stringColumn("variant").asList());
        assertEquals("no baseline", t.stringColumn("verdict").get(0));
        assertEquals(0, t.intColumn("h1_n").get(0));
        assertTrue(t.doubleColumn("ratio").isMissing(0), "no ratio without h1");
        assertEquals("no successful h1 run of go-nethttp on plaintext to hold it against; run h1 too"
                + " (--protocols 'h1|...')", t.stringColumn("note").get(0));
        assertEquals(0.5, t.doubleColumn("ratio").get(1), 1e-12, "fsync's h2-tls against fsync's h1, not memory's");
        assertEquals("too few rounds", t.stringColumn("verdict").get(2));
        assertEquals("too few rounds: n=2, h1 n=3; a verdict needs 3 rounds each", t.stringColumn("note").get(2));
    }

    @Test
    void theNoteNamesASubjectWithItsVariantAsTheGroupDoes() {
        Table runs = new RunsTable(CPU).group("java-netty", "durability=memory,protocol=h2c", "json", 80, 81, 79)
                .table();
        Table t = Protocols.compare(runs, CPU, O);
        assertEquals("no successful h1 run of java-netty [durability=memory] on json to hold it against; run h1 too"
                + " (--protocols 'h1|...')", t.stringColumn("note").get(0));
    }

    @Test
    void anOlderLabelWithProtocolH1IsTheH1Run() {
        Table runs = new RunsTable(CPU).group("java-netty", "durability=memory,protocol=h1", "plaintext", 100, 100, 100)
                .group("java-netty", "durability=memory,protocol=h2-tls", "plaintext", 6, 6, 6).table();
        Table t = Protocols.compare(runs, CPU, O);
        assertEquals(1, t.rowCount());
        assertEquals("durability=memory", t.stringColumn("variant").get(0));
        assertEquals(0.06, t.doubleColumn("ratio").get(0), 1e-12);
    }

    @Test
    void costHoldsBothMetricsCpuFirst() {
        Table runs = nginx().table();
        DoubleColumn rps = DoubleColumn.create("rps");
        for (int i = 0; i < runs.rowCount(); i++) {
            rps.append(runs.doubleColumn(CPU).get(i) * 2);
        }
        runs.addColumns(rps);
        Table t = Protocols.cost(runs, O);
        assertEquals(List.of(CPU, CPU, "rps", "rps"), t.stringColumn("metric").asList());
        assertEquals(120, t.doubleColumn("mean").get(2), 1e-12);
        assertEquals(0.6, t.doubleColumn("ratio").get(2), 1e-12);
    }

    @Test
    void runsWithoutProtocolVariantsHaveNoCostTable() {
        Table runs = new RunsTable(CPU).group("nginx", "", "plaintext", 1, 2, 3)
                .group("nginx", "protocol=h1", "json", 1, 2, 3).table();
        assertFalse(Protocols.present(runs));
        assertTrue(Protocols.present(nginx().table()));
        StatsException e = assertThrows(StatsException.class, () -> Protocols.compare(runs, CPU, O));
        assertTrue(e.getMessage().startsWith("the runs have no protocol variant besides h1"), e.getMessage());
    }
}
