package io.loadlab.stats;

import static io.loadlab.stats.GoldenData.assertRel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class ComparisonTest {

    private static final CompareOptions DEFAULTS = CompareOptions.defaults();

    private static Table golden(String metric) {
        return new RunsTable(metric).group("alpha", "plaintext", GoldenData.A)
                .group("beta", "plaintext", GoldenData.B).table();
    }

    private static ComparisonRow only(List<ComparisonRow> rows, String subject) {
        List<ComparisonRow> found = rows.stream().filter(r -> r.subject().equals(subject)).toList();
        assertEquals(1, found.size(), "rows of " + subject);
        return found.get(0);
    }

    @Test
    void clearlyFasterWithGoldenStatistics() {
        ComparisonRow r = only(Comparison.rows(golden("rps"), "rps", "beta", DEFAULTS), "alpha");
        assertRel(GoldenData.RATIO, r.ratio(), 1e-9, "ratio");
        assertRel(GoldenData.P_WELCH, r.pWelch(), 1e-6, "Welch p");
        assertRel(GoldenData.P_MANN_WHITNEY, r.pMannWhitney(), 1e-6, "Mann-Whitney p");
        assertRel(GoldenData.A_MEAN, r.mean(), 1e-9, "mean");
        assertRel(GoldenData.A_CI_HIGH, r.ciHigh(), 1e-9, "ci high");
        assertEquals(Verdict.FASTER, r.verdict());
        assertEquals("beta", r.baseline());
        assertEquals("", r.note());
    }

    @Test
    void clearlySlowerAgainstTheOtherBaseline() {
        ComparisonRow r = only(Comparison.rows(golden("rps"), "rps", "alpha", DEFAULTS), "beta");
        assertRel(1 / GoldenData.RATIO, r.ratio(), 1e-9, "ratio");
        assertRel(GoldenData.P_WELCH, r.pWelch(), 1e-6, "Welch p");
        assertEquals(Verdict.SLOWER, r.verdict());
    }

    @Test
    void latencyIsBetterWhenLower() {
        // Sample B has the lower mean: as latency that is faster, as throughput slower.
        assertEquals(Verdict.FASTER, only(Comparison.rows(golden("lat_p99_us"), "lat_p99_us", "alpha", DEFAULTS),
                "beta").verdict());
        assertEquals(Verdict.SLOWER, only(Comparison.rows(golden("svc_p50_us"), "svc_p50_us", "beta", DEFAULTS),
                "alpha").verdict());
    }

    @Test
    void otherMetricsAreHigherOrLower() {
        Table runs = golden("server_peak_rss_bytes");
        assertEquals(Verdict.HIGHER, only(Comparison.rows(runs, "server_peak_rss_bytes", "beta", DEFAULTS),
                "alpha").verdict());
        assertEquals(Verdict.LOWER, only(Comparison.rows(runs, "server_peak_rss_bytes", "alpha", DEFAULTS),
                "beta").verdict());
    }

    @Test
    void significantButWithinNoiseIsNoClearDifference() {
        double[] base = {1000.0, 1001.0, 999.0, 1000.5, 999.5, 1000.2};
        double[] shifted = new double[base.length];
        for (int i = 0; i < base.length; i++) {
            shifted[i] = base[i] + 5;  // +0.5%, far beyond the rounds' spread
        }
        Table runs = new RunsTable("rps").group("base", "w", base).group("other", "w", shifted).table();
        ComparisonRow r = only(Comparison.rows(runs, "rps", "base", DEFAULTS), "other");
        assertTrue(r.pWelch() < 1e-6, "p " + r.pWelch());
        assertEquals(1.005, r.ratio(), 1e-4);
        assertEquals(Verdict.NO_CLEAR_DIFFERENCE, r.verdict());
        assertTrue(r.note().contains("within the noise threshold of 1.00%"), r.note());
        // Without a noise threshold the same data is a difference.
        assertEquals(Verdict.FASTER, only(Comparison.rows(runs, "rps", "base",
                new CompareOptions(0.05, 0, 1000, 1)), "other").verdict());
    }

    @Test
    void overlappingSamplesAreNotSignificant() {
        Table runs = new RunsTable("rps")
                .group("base", "w", 1000, 1100, 900, 1050, 950)
                .group("other", "w", 1060, 940, 1110, 890, 1030)
                .table();
        ComparisonRow r = only(Comparison.rows(runs, "rps", "base", DEFAULTS), "other");
        assertTrue(r.pWelch() > 0.5, "p " + r.pWelch());
        assertEquals(1.006, r.ratio(), 1e-12);
        assertEquals(Verdict.NO_CLEAR_DIFFERENCE, r.verdict());
        assertTrue(r.note().startsWith("not significant: p_welch 0.9") && r.note().endsWith(" >= alpha 0.05"), r.note());
    }

    @Test
    void tooFewRoundsGiveNoPValuesAndNoVerdict() {
        Table runs = new RunsTable("rps").group("base", "w", 1000, 1001, 999).group("other", "w", 2000).table();
        ComparisonRow r = only(Comparison.rows(runs, "rps", "base", DEFAULTS), "other");
        assertEquals(2.0, r.ratio(), 1e-12);
        assertTrue(Double.isNaN(r.pWelch()) && Double.isNaN(r.pMannWhitney()));
        assertTrue(Double.isNaN(r.ratioCiLow()) && Double.isNaN(r.ratioCiHigh()));
        assertEquals(Verdict.NO_CLEAR_DIFFERENCE, r.verdict());
        assertTrue(r.note().contains("too few rounds"), r.note());
    }

    @Test
    void roundsWithoutAnySpreadStillCompare() {
        // commons-math3's t-test cannot take two samples without variance; the difference is then certain.
        Table runs = new RunsTable("rps").group("base", "w", 100, 100, 100).group("same", "w", 100, 100)
                .group("up", "w", 120, 120, 120).table();
        List<ComparisonRow> rows = Comparison.rows(runs, "rps", "base", DEFAULTS);
        assertEquals(1.0, only(rows, "same").pWelch());
        assertEquals(Verdict.NO_CLEAR_DIFFERENCE, only(rows, "same").verdict());
        assertEquals(0.0, only(rows, "up").pWelch());
        assertEquals(Verdict.FASTER, only(rows, "up").verdict());
    }

    @Test
    void zeroBaselineMeanHasNoRatio() {
        Table runs = new RunsTable("errors_read").group("base", "w", 0, 0).group("other", "w", 1, 2).table();
        ComparisonRow r = only(Comparison.rows(runs, "errors_read", "base", DEFAULTS), "other");
        assertTrue(Double.isNaN(r.ratio()));
        assertEquals(Verdict.NO_CLEAR_DIFFERENCE, r.verdict());
        assertTrue(r.note().contains("baseline mean is 0"), r.note());
    }

    @Test
    void bootstrapIntervalIsReproducibleAndHoldsTheRatio() {
        Table runs = golden("rps");
        ComparisonRow first = only(Comparison.rows(runs, "rps", "beta", DEFAULTS), "alpha");
        ComparisonRow again = only(Comparison.rows(runs, "rps", "beta", DEFAULTS), "alpha");
        assertEquals(first.ratioCiLow(), again.ratioCiLow());
        assertEquals(first.ratioCiHigh(), again.ratioCiHigh());
        assertTrue(first.ratioCiLow() < first.ratio() && first.ratio() < first.ratioCiHigh(), first.toString());
        // The means differ by about 1.5% with about 0.3% standard error each: the interval is narrow, above 1.
        assertTrue(first.ratioCiLow() > 1.005 && first.ratioCiHigh() < 1.025, first.toString());
        ComparisonRow otherSeed = only(Comparison.rows(runs, "rps", "beta", new CompareOptions(0.05, 0.01, 10_000, 2)),
                "alpha");
        assertNotEquals(first.ratioCiLow(), otherSeed.ratioCiLow());
        assertEquals(first.ratioCiLow(), otherSeed.ratioCiLow(), 0.002);
    }

    @Test
    void tableHasTheAgreedColumnsInOrderAndTheBaselineRows() {
        Table t = Comparison.compare(golden("rps"), "rps", "beta", DEFAULTS);
        assertEquals(List.of("subject", "workload", "metric", "n", "mean", "sd", "ci_low", "ci_high", "ratio",
                "ratio_ci_low", "ratio_ci_high", "p_welch", "p_mannwhitney", "verdict", "variant", "baseline", "note"),
                t.columnNames());
        assertEquals(List.of("alpha", "beta"), t.stringColumn("subject").asList());
        assertEquals(List.of("faster", "baseline"), t.stringColumn("verdict").asList());
        assertEquals(1.0, t.doubleColumn("ratio").get(1));
        assertRel(GoldenData.B_SD, t.doubleColumn("sd").get(1), 1e-9, "baseline sd");
        assertRel(GoldenData.P_WELCH, t.doubleColumn("p_welch").get(0), 1e-6, "p_welch column");
    }

    @Test
    void baselineVariantIsMatchedByLabelElseTheBaselinesOwnVariant() {
        Table runs = new RunsTable("rps")
                .group("base", "tuned", "w", 2000, 2001, 1999)
                .group("base", "", "w", 1000, 1001, 999)
                .group("other", "tuned", "w", 2000, 2002, 1998)
                .group("other", "odd", "w", 1000, 1002, 998)
                .table();
        // Without a variant, the baseline is the variant of base's first run: "tuned".
        List<ComparisonRow> rows = Comparison.rows(runs, "rps", "base", DEFAULTS);
        assertEquals(4, rows.size());
        ComparisonRow odd = rows.stream().filter(r -> r.variant().equals("odd")).findFirst().orElseThrow();
        ComparisonRow tuned = rows.stream().filter(r -> r.subject().equals("other") && r.variant().equals("tuned"))
                .findFirst().orElseThrow();
        ComparisonRow plainBase = rows.stream().filter(r -> r.subject().equals("base") && r.variant().isEmpty())
                .findFirst().orElseThrow();
        assertEquals("base[tuned]", odd.baseline(), "no 'odd' variant in the baseline: its own variant");
        assertEquals(0.5, odd.ratio(), 0.01);
        assertEquals("base[tuned]", tuned.baseline(), "same variant label");
        assertEquals(1.0, tuned.ratio(), 1e-12);
        // The baseline subject's other variant is compared, not marked as baseline.
        assertEquals(Verdict.SLOWER, plainBase.verdict());
        assertEquals(0.5, plainBase.ratio(), 0.01);
    }

    @Test
    void anExplicitBaselineVariantIsUsedForEveryGroup() {
        Table runs = new RunsTable("rps")
                .group("base", "memory", "w", 2000, 2001, 1999)
                .group("base", "fsync", "w", 1000, 1001, 999)
                .group("other", "memory", "w", 2000, 2002, 1998)
                .table();
        List<ComparisonRow> rows = Comparison.rows(runs, "rps", "base[fsync]", DEFAULTS);
        ComparisonRow memory = rows.stream().filter(r -> r.subject().equals("base") && r.variant().equals("memory"))
                .findFirst().orElseThrow();
        assertEquals(Verdict.FASTER, memory.verdict(), "memory against the fsync baseline");
        assertEquals(2.0, memory.ratio(), 0.01);
        ComparisonRow other = rows.stream().filter(r -> r.subject().equals("other")).findFirst().orElseThrow();
        assertEquals("base[fsync]", other.baseline(), "an explicit variant wins over the same label");
        assertEquals(1L, rows.stream().filter(r -> r.verdict() == Verdict.BASELINE).count());
    }

    @Test
    void workloadWithoutBaselineIsSaidSo() {
        Table runs = new RunsTable("rps").group("base", "a", 1, 2).group("other", "b", 1, 2).table();
        ComparisonRow r = only(Comparison.rows(runs, "rps", "base", DEFAULTS), "other");
        assertEquals(Verdict.NO_BASELINE, r.verdict());
        assertTrue(Double.isNaN(r.ratio()));
    }

    @Test
    void unknownBaselineListsTheSubjects() {
        StatsException e = assertThrows(StatsException.class,
                () -> Comparison.compare(golden("rps"), "rps", "gamma", DEFAULTS));
        assertTrue(e.getMessage().contains("baseline 'gamma' is not a subject"), e.getMessage());
        assertTrue(e.getMessage().contains("alpha, beta"), e.getMessage());
    }

    @Test
    void unknownMetricListsTheNumericColumns() {
        StatsException e = assertThrows(StatsException.class,
                () -> Comparison.compare(golden("rps"), "latency", "beta", DEFAULTS));
        assertTrue(e.getMessage().contains("unknown metric 'latency'"), e.getMessage());
        assertTrue(e.getMessage().contains("rps"), e.getMessage());
    }

    @Test
    void defaultBaselineIsTheFirstSubjectByName() {
        Table runs = new RunsTable("rps").group("zeta", "w", 1, 2).group("mu", "w", 1, 2)
                .row("alpha", "", "w", 1, "failed", Double.NaN, false, 0, 0).table();
        assertEquals("mu", Comparison.defaultBaseline(runs));
        assertEquals("alpha", Comparison.defaultBaseline(golden("rps")));
    }

    @Test
    void optionsAreValidated() {
        assertEquals(new CompareOptions(0.05, 0.01, 10_000, 1), CompareOptions.defaults());
        assertThrows(StatsException.class, () -> new CompareOptions(0, 0.01, 10_000, 1));
        assertThrows(StatsException.class, () -> new CompareOptions(0.05, -0.01, 10_000, 1));
        assertThrows(StatsException.class, () -> new CompareOptions(0.05, 0.01, 10, 1));
    }

    @Test
    void rowToStringIsReadable() {
        ComparisonRow r = only(Comparison.rows(golden("rps"), "rps", "beta", DEFAULTS), "alpha");
        assertTrue(r.toString().startsWith("alpha / plaintext rps: n=8 mean=10319.2 ratio=1.0148 ["), r.toString());
        assertTrue(r.toString().endsWith("vs beta, p_welch=0.00438 p_mw=0.00865: faster"), r.toString());
    }
}
