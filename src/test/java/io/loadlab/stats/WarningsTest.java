package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class WarningsTest {

    private static final WarningOptions DEFAULTS = WarningOptions.defaults();
    /** Steady rounds: cv 0.1%, no outlier (largest score 1.5), no trend (rho -0.09), first round typical. */
    private static final double[] CLEAN = {1000, 1002, 998, 1001, 999, 1000.5};

    private static List<Warning> find(Table runs, String metric) {
        return Warnings.find(runs, metric, DEFAULTS);
    }

    private static Warning only(List<Warning> warnings, String kind) {
        List<Warning> found = warnings.stream().filter(w -> w.kind().equals(kind)).toList();
        assertEquals(1, found.size(), kind + " in " + warnings);
        return found.get(0);
    }

    private static void assertNamesGroupAndRounds(Warning w, String rounds) {
        assertTrue(w.message().startsWith("web / json: "), w.message());
        assertTrue(w.message().contains(rounds), w.message());
    }

    @Test
    void cleanRunsHaveNoWarnings() {
        Table runs = new RunsTable("rps").group("web", "json", CLEAN)
                .row("web", "", "json", 7, "ok", 1000.2, null, 0, 0)
                .table();
        assertEquals(List.of(), find(runs, "rps"));
        assertEquals(List.of(), find(new RunsTable("lat_p99_us").group("web", "json", CLEAN).table(), "lat_p99_us"));
        assertEquals(List.of(), find(new RunsTable("server_cpu_s").group("web", "json", CLEAN).table(), "server_cpu_s"));
    }

    @Test
    void highCoefficientOfVariation() {
        Warning w = only(find(new RunsTable("rps").group("web", "json", 1000, 1200, 900, 1100).table(), "rps"),
                "high_cv");
        assertEquals(List.of(1, 2, 3, 4), w.rounds());
        assertNamesGroupAndRounds(w, "rounds 1, 2, 3, 4");
        assertTrue(w.message().contains("12.3% (cv)"), w.message());
        // A looser limit accepts the same data.
        assertTrue(Warnings.find(new RunsTable("rps").group("web", "json", 1000, 1200, 900, 1100).table(), "rps",
                new WarningOptions(0.2, 0.05, 0.01, 3.5, 0.10, 0.02, 0.01)).isEmpty());
    }

    @Test
    void outlierByModifiedZScore() {
        Table runs = new RunsTable("rps").group("web", "json", 1000, 1001, 999, 1000.5, 999.5, 1200).table();
        Warning w = only(find(runs, "rps"), "outlier");
        assertEquals(List.of(6), w.rounds());
        assertNamesGroupAndRounds(w, "round 6: 1,200, score 179.6");
    }

    @Test
    void noOutlierWithFewerThanFiveRounds() {
        // Three rounds: the MAD is the smaller distance (1), so 1040 would score 26 against 1000, 1001.
        Table runs = new RunsTable("rps").group("web", "json", 1000, 1001, 1040).table();
        assertTrue(find(runs, "rps").stream().noneMatch(w -> w.kind().equals("outlier")));
    }

    @Test
    void noOutlierWhenMostRoundsAreEqual() {
        // MAD is 0 here, so every score would be infinite; hyperfine skips such data, and so do we.
        Table runs = new RunsTable("rps").group("web", "json", 1000, 1000, 1000, 1000, 1001).table();
        assertTrue(find(runs, "rps").stream().noneMatch(w -> w.kind().equals("outlier")));
    }

    @Test
    void slowFirstRoundForThroughput() {
        Table runs = new RunsTable("rps").group("web", "json", 900, 1000, 1001, 999, 1000.5).table();
        Warning w = only(find(runs, "rps"), "slow_first_round");
        assertEquals(List.of(1), w.rounds());
        assertNamesGroupAndRounds(w, "round 1");
        assertTrue(w.message().contains("10.0% off"), w.message());
    }

    @Test
    void fastFirstRoundIsNotSlow() {
        Table runs = new RunsTable("rps").group("web", "json", 1100, 1000, 1001, 999, 1000.5).table();
        assertTrue(find(runs, "rps").stream().noneMatch(w -> w.kind().equals("slow_first_round")));
    }

    @Test
    void slowFirstRoundForLatencyIsAHighValue() {
        Table runs = new RunsTable("lat_p99_us").group("web", "json", 1100, 1000, 1001, 999, 1000.5).table();
        assertEquals(List.of(1), only(find(runs, "lat_p99_us"), "slow_first_round").rounds());
        Table fast = new RunsTable("lat_p99_us").group("web", "json", 900, 1000, 1001, 999, 1000.5).table();
        assertTrue(find(fast, "lat_p99_us").stream().noneMatch(w -> w.kind().equals("slow_first_round")));
    }

    @Test
    void slowFirstRoundNeedsItToBeWorseThanAllAndBeyondNoise() {
        Table notAll = new RunsTable("rps").group("web", "json", 950, 940, 1001, 999, 1000.5).table();
        assertTrue(find(notAll, "rps").stream().noneMatch(w -> w.kind().equals("slow_first_round")));
        Table withinNoise = new RunsTable("rps").group("web", "json", 995, 1000, 1001, 999, 1000.5).table();
        assertTrue(find(withinNoise, "rps").stream().noneMatch(w -> w.kind().equals("slow_first_round")));
        // The lowest of three noisy rounds, as one in three first rounds is by chance: 9.6% below the
        // later rounds' median, but they vary by 5.4% themselves.
        Table noisyRest = new RunsTable("rps").group("web", "json", 940, 1000, 1080).table();
        assertTrue(find(noisyRest, "rps").stream().noneMatch(w -> w.kind().equals("slow_first_round")));
        Table twoRounds = new RunsTable("rps").group("web", "json", 500, 1000).table();
        assertTrue(find(twoRounds, "rps").stream().noneMatch(w -> w.kind().equals("slow_first_round")));
    }

    @Test
    void driftWithRoundNumber() {
        Table runs = new RunsTable("rps").group("web", "json", 1000, 995, 990, 985, 980, 975).table();
        Warning w = only(find(runs, "rps"), "drift");
        assertEquals(List.of(1, 2, 3, 4, 5, 6), w.rounds());
        assertNamesGroupAndRounds(w, "falls with the round number over rounds 1, 2, 3, 4, 5, 6");
        // Exact: 2 of the 720 orderings are as extreme (scipy's permutation_test), not the t approximation's 0.
        assertTrue(w.message().contains("Spearman rho -1.00, p 0.0028, exact)"), w.message());
    }

    @Test
    void driftPValueMatchesScipy() {
        Table runs = new RunsTable("rps").group("web", "json", GoldenData.SPEARMAN_VALUES).table();
        Warning w = only(find(runs, "rps"), "drift");
        assertTrue(w.message().contains("rises") && w.message().contains("rho 0.93, p 0.0022, exact"), w.message());
        GoldenData.assertRel(GoldenData.SPEARMAN_P, Spearman.tApproximation(GoldenData.SPEARMAN_RHO, 8), 1e-6, "p");
    }

    @Test
    void aPerfectOrderOfFourRoundsIsNoDrift() {
        // Regression (issue 11): the t approximation gave p = 0 for a perfect order; exactly it is 2/24 = 0.083.
        Table runs = new RunsTable("rps").group("web", "json", 1000, 1010, 1020, 1030).table();
        assertTrue(find(runs, "rps").stream().noneMatch(w -> w.kind().equals("drift")), find(runs, "rps").toString());
    }

    @Test
    void noDriftWithTooFewRounds() {
        Table runs = new RunsTable("rps").group("web", "json", 1000, 995, 990).table();
        assertTrue(find(runs, "rps").stream().noneMatch(w -> w.kind().equals("drift")));
    }

    @Test
    void loadBoundRounds() {
        RunsTable t = new RunsTable("rps");
        for (int i = 0; i < CLEAN.length; i++) {
            t.row("web", "", "json", i + 1, "ok", CLEAN[i], i == 2 || i == 4 ? Boolean.TRUE : null, 0, 0);
        }
        Warning w = only(find(t.table(), "rps"), "load_bound");
        assertEquals(List.of(3, 5), w.rounds());
        assertNamesGroupAndRounds(w, "the load generator was saturated in rounds 3, 5");
    }

    @Test
    void errorsInSuccessfulRunsWithTheirTotal() {
        RunsTable t = new RunsTable("rps");
        for (int i = 0; i < CLEAN.length; i++) {
            t.row("web", "", "json", i + 1, "ok", CLEAN[i], false, i == 1 ? 3 : 0, i == 1 || i == 3 ? 4 : 0);
        }
        Warning w = only(find(t.table(), "rps"), "errors");
        assertEquals(List.of(2, 4), w.rounds());
        assertNamesGroupAndRounds(w, "11 errors in successful rounds 2, 4 (connect 3, timeout 8)");
    }

    @Test
    void failedRunsAreListedAndLeftOut() {
        RunsTable t = new RunsTable("rps").group("web", "json", CLEAN);
        t.row("web", "", "json", 7, "failed", 1, false, 50, 0);
        t.row("web", "", "json", 8, "failed", Double.NaN, null, 0, 0);
        List<Warning> warnings = find(t.table(), "rps");
        assertEquals(1, warnings.size(), warnings.toString());
        Warning w = only(warnings, "failed_runs");
        assertEquals(List.of(7, 8), w.rounds());
        assertNamesGroupAndRounds(w, "rounds 7, 8 failed");
    }

    @Test
    void variantIsNamedAndWarningsComeInGroupOrder() {
        Table runs = new RunsTable("rps")
                .group("web", "tuned", "json", 1000, 1200, 900, 1100)
                .group("api", "json", 1000, 1200, 900, 1100)
                .table();
        List<Warning> warnings = find(runs, "rps");
        assertEquals(List.of("api", "web"), warnings.stream().map(Warning::subject).toList());
        assertTrue(warnings.get(1).message().startsWith("web [tuned] / json: "), warnings.get(1).message());
        assertEquals("tuned", warnings.get(1).variant());
    }

    @Test
    void tableHasOneRowPerWarning() {
        Table runs = new RunsTable("rps").group("web", "json", 1000, 995, 990, 985, 980, 975).table();
        Table t = Warnings.toTable(find(runs, "rps"));
        assertEquals(List.of("kind", "subject", "variant", "workload", "rounds", "message"), t.columnNames());
        assertEquals(List.of("drift"), t.stringColumn("kind").asList());
        assertEquals("1,2,3,4,5,6", t.stringColumn("rounds").get(0));
    }

    @Test
    void unknownMetricAndBadWarningsAreRejected() {
        Table runs = new RunsTable("rps").group("web", "json", CLEAN).table();
        StatsException e = assertThrows(StatsException.class, () -> find(runs, "rps_total"));
        assertTrue(e.getMessage().contains("unknown metric 'rps_total'") && e.getMessage().contains("rps"),
                e.getMessage());
        assertThrows(StatsException.class, () -> new Warning("odd", "s", "", "w", List.of(1), "m"));
        assertThrows(StatsException.class, () -> new Warning("drift", "s", "", "w", List.of(), "m"));
        assertThrows(StatsException.class, () -> new WarningOptions(0.05, 1.5, 0.01, 3.5, 0.10, 0.02, 0.01));
    }
}
