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
    /** A noise band of 0.5%: the golden samples differ by 1.5% with a paired CI of about [1.009, 1.021]. */
    private static final CompareOptions HALF_PERCENT = new CompareOptions(0.05, 0.005, 10_000, 1);

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
    void clearlyFasterWithGoldenStatisticsPairedByRound() {
        // Both samples ran in rounds 1..8: a paired design, whose p is scipy's ttest_rel on the logs.
        ComparisonRow r = only(Comparison.rows(golden("rps"), "rps", "beta", HALF_PERCENT), "alpha");
        assertRel(GoldenData.RATIO, r.ratio(), 1e-9, "ratio");
        assertEquals(Design.PAIRED, r.design());
        assertRel(GoldenData.P_PAIRED, r.pTest(), 1e-9, "paired p");
        assertRel(GoldenData.P_WELCH, r.pWelch(), 1e-6, "Welch p, reported whatever the design");
        assertRel(GoldenData.P_MANN_WHITNEY, r.pMannWhitney(), 1e-12, "exact Mann-Whitney p");
        assertRel(GoldenData.A_MEAN, r.mean(), 1e-9, "mean");
        assertRel(GoldenData.A_CI_HIGH, r.ciHigh(), 1e-9, "ci high");
        assertTrue(r.ratioCiLow() > 1.005, r.toString());
        assertEquals(Verdict.FASTER, r.verdict());
        assertEquals("beta", r.baseline());
        assertEquals("", r.note());
    }

    @Test
    void welchWhenTheGroupsRanInDifferentRounds() {
        RunsTable t = new RunsTable("rps").group("alpha", "plaintext", GoldenData.A);
        for (int i = 0; i < GoldenData.B.length; i++) {
            t.row("beta", "", "plaintext", 9 + i, "ok", GoldenData.B[i], false, 0, 0);
        }
        ComparisonRow r = only(Comparison.rows(t.table(), "rps", "beta", HALF_PERCENT), "alpha");
        assertEquals(Design.WELCH, r.design());
        assertRel(GoldenData.P_WELCH, r.pTest(), 1e-6, "the test is Welch's");
        assertEquals(r.pWelch(), r.pTest());
        assertEquals(Verdict.FASTER, r.verdict());
    }

    @Test
    void aSignificantDifferenceWhoseCiReachesIntoTheNoiseBandIsUndecided() {
        // The golden samples differ by 1.5% (p_paired 0.0026), but the ratio's CI starts below 1.01: not a
        // difference beyond the band, and with a ratio of 1.015 not equivalent within it either.
        ComparisonRow r = only(Comparison.rows(golden("rps"), "rps", "beta", DEFAULTS), "alpha");
        assertTrue(r.pTest() < 0.01 && r.ratioCiLow() < 1.01 && r.ratioCiLow() > 1, r.toString());
        assertEquals(Verdict.UNDECIDED, r.verdict());
        assertTrue(r.pEquivalence() > 0.5, "the ratio lies beyond the band's edge: " + r.pEquivalence());
        assertTrue(r.note().startsWith("the ratio's 95% CI [1.0") && r.note().contains(
                "] is not outside the noise band 1 ± 1%; not equivalent: the 90% CI ["), r.note());
        assertTrue(r.smallestDetectable() > 0.01 && r.smallestDetectable() < 0.03, r.toString());
        assertTrue(r.roundsAdvised() > 8, "more rounds than the 8 it has: " + r.roundsAdvised());
        assertTrue(r.note().contains("this experiment could detect " + io.loadlab.format.Units.percent(
                r.smallestDetectable()) + " with 80% power; about "), r.note());
    }

    @Test
    void clearlySlowerAgainstTheOtherBaseline() {
        ComparisonRow r = only(Comparison.rows(golden("rps"), "rps", "alpha", HALF_PERCENT), "beta");
        assertRel(1 / GoldenData.RATIO, r.ratio(), 1e-9, "ratio");
        assertRel(GoldenData.P_WELCH, r.pWelch(), 1e-6, "Welch p");
        assertRel(GoldenData.P_PAIRED, r.pTest(), 1e-9, "paired p: the log ratios change sign only");
        assertEquals(Verdict.SLOWER, r.verdict());
    }

    @Test
    void latencyIsBetterWhenLower() {
        // Sample B has the lower mean: as latency that is faster, as throughput slower.
        assertEquals(Verdict.FASTER, only(Comparison.rows(golden("lat_p99_us"), "lat_p99_us", "alpha", HALF_PERCENT),
                "beta").verdict());
        assertEquals(Verdict.SLOWER, only(Comparison.rows(golden("svc_p50_us"), "svc_p50_us", "beta", HALF_PERCENT),
                "alpha").verdict());
    }

    @Test
    void otherMetricsAreHigherOrLower() {
        Table runs = golden("server_peak_rss_bytes");
        assertEquals(Verdict.HIGHER, only(Comparison.rows(runs, "server_peak_rss_bytes", "beta", HALF_PERCENT),
                "alpha").verdict());
        assertEquals(Verdict.LOWER, only(Comparison.rows(runs, "server_peak_rss_bytes", "alpha", HALF_PERCENT),
                "beta").verdict());
    }

    @Test
    void significantButWithinNoiseIsEquivalent() {
        double[] base = {1000.0, 1001.0, 999.0, 1000.5, 999.5, 1000.2};
        double[] shifted = new double[base.length];
        for (int i = 0; i < base.length; i++) {
            shifted[i] = base[i] + 5;  // +0.5%, far beyond the rounds' spread
        }
        Table runs = new RunsTable("rps").group("base", "w", base).group("other", "w", shifted).table();
        ComparisonRow r = only(Comparison.rows(runs, "rps", "base", DEFAULTS), "other");
        assertTrue(r.pWelch() < 1e-6 && r.pTest() < 1e-6, r.toString());
        assertEquals(1.005, r.ratio(), 1e-4);
        // Certainly +0.5%, and certainly inside 1 ± 1%: a real difference too small to matter is equivalent.
        assertEquals(Verdict.EQUIVALENT, r.verdict());
        assertTrue(r.pEquivalence() < 1e-6, r.toString());
        assertEquals("equivalent: the ratio's 90% CI [1.005, 1.005] lies inside 1 ± 1% (TOST p < 0.001)", r.note());
        assertTrue(Double.isNaN(r.roundsAdvised()), "decided: no rounds advised");
        // Without a noise threshold the same data is a difference.
        assertEquals(Verdict.FASTER, only(Comparison.rows(runs, "rps", "base",
                new CompareOptions(0.05, 0, 1000, 1)), "other").verdict());
    }

    @Test
    void aCiOutsideTheBandWithoutASignificantTestIsUndecidedAndSaysTheRoundsItNeeds() {
        // Log ratios 0.1, 0.3, 0.5: every resampled ratio is above 1.1, but a t-test on 3 rounds gives p 0.12.
        Table runs = new RunsTable("rps").group("base", "w", 1000, 1000, 1000)
                .group("other", "w", 1000 * Math.exp(0.1), 1000 * Math.exp(0.3), 1000 * Math.exp(0.5)).table();
        ComparisonRow r = only(Comparison.rows(runs, "rps", "base", DEFAULTS), "other");
        assertEquals(Design.PAIRED, r.design());
        assertTrue(r.ratioCiLow() > 1.1, r.toString());
        assertEquals(Verdict.UNDECIDED, r.verdict());
        assertTrue(r.note().startsWith("not significant: p_paired 0.12 >= alpha 0.05; not equivalent: the 90% CI ["),
                r.note());
        // Log ratios of sd 0.2 around 0.3. Planning raises the sd to its 80% upper limit with 2 df,
        // 0.2 * sqrt(2 / 0.4463) = 0.423 (chi-squared with 2 df: P(X <= x) = 1 - exp(-x / 2)); then
        // (t_0.975 + t_0.80) * 0.423 / sqrt(n) reaches 0.3 - ln 1.01 = 0.290 at n = 19
        // (18 df: 2.101 + 0.862 = 2.963, / sqrt(19) = 0.680 <= 0.290 / 0.423 = 0.685; at n = 18, 0.701).
        assertEquals(19.0, r.roundsAdvised(), r.note());
        assertTrue(r.note().endsWith("about 19 rounds each would decide a ratio of " + io.loadlab.format.Units.ratio(
                r.ratio())), r.note());
    }

    @Test
    void aRatioOnTheBandsEdgeAdvisesMoreRoundsThanTheSearchTriesAndSaysSoInEveryForm() {
        // Log ratios ln 1.01 - 0.1, ln 1.01, ln 1.01 + 0.1: the observed ratio sits on the band's edge,
        // so no number of rounds decides it (neither a difference nor equivalence).
        double edge = 1000 * 1.01;
        Table runs = new RunsTable("rps").group("base", "w", 1000, 1000, 1000)
                .group("other", "w", edge * Math.exp(-0.1), edge, edge * Math.exp(0.1)).table();
        ComparisonRow r = only(Comparison.rows(runs, "rps", "base", DEFAULTS), "other");
        assertEquals(Verdict.UNDECIDED, r.verdict(), r.toString());
        assertEquals(Double.POSITIVE_INFINITY, r.roundsAdvised(), r.note());
        assertTrue(r.note().contains("more than 10,000 rounds each"), r.note());
        assertTrue(r.verdictText().endsWith(", > 10,000 rounds)"), r.verdictText());
        Table t = Comparison.toTable("rps", Comparison.rows(runs, "rps", "base", DEFAULTS));
        int row = t.stringColumn("subject").indexOf("other");
        String shown = io.loadlab.format.ShownTable.of(t, 5).rows().get(row).get(t.columnIndex("rounds_advised"));
        assertEquals("> 10,000", shown);
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
        // Rounds 10% apart cannot tell 0.6% from nothing, nor show it is inside 1 ± 1%.
        assertEquals(Verdict.UNDECIDED, r.verdict());
        assertTrue(r.smallestDetectable() > 0.1, r.toString());
        assertTrue(r.note().startsWith("not significant: p_paired 0.9") && r.note().contains(" >= alpha 0.05; the"
                + " ratio's 95% CI ["), r.note());
    }

    @Test
    void oneRoundGivesNoPValuesAndTooFewRounds() {
        Table runs = new RunsTable("rps").group("base", "w", 1000, 1001, 999).group("other", "w", 2000).table();
        ComparisonRow r = only(Comparison.rows(runs, "rps", "base", DEFAULTS), "other");
        assertEquals(2.0, r.ratio(), 1e-12);
        assertTrue(Double.isNaN(r.pWelch()) && Double.isNaN(r.pMannWhitney()) && Double.isNaN(r.pTest()));
        assertTrue(Double.isNaN(r.ratioCiLow()) && Double.isNaN(r.ratioCiHigh()));
        assertEquals(Verdict.TOO_FEW_ROUNDS, r.verdict());
        assertEquals(Design.NONE, r.design());
        assertEquals("too few rounds: n=1, baseline n=3; a verdict needs 3 rounds each", r.note());
    }

    @Test
    void twoRoundsAtASixthOfTheBaselineAreTooFewRoundsNeverNoClearDifference() {
        // Regression (issue 11): 0.16x the baseline with a bootstrap CI of 0.14-0.20 read "no clear difference",
        // because Welch's test cannot reach p < 0.05 with 2 rounds.
        Table runs = new RunsTable("rps").group("base", "w", 50_000, 62_000).group("slow", "w", 8_400, 9_300).table();
        ComparisonRow r = only(Comparison.rows(runs, "rps", "base", DEFAULTS), "slow");
        assertEquals(Verdict.TOO_FEW_ROUNDS, r.verdict());
        assertEquals("too few rounds: n=2, baseline n=2; a verdict needs 3 rounds each", r.note());
        assertTrue(r.ratio() < 0.17 && r.ratioCiHigh() < 0.2, "the figures are still shown: " + r);
    }

    @Test
    void threeRoundsAtASixthOfTheBaselineAreSlower() {
        // Regression (issue 11): with 3 rounds the same difference is called.
        Table runs = new RunsTable("rps").group("base", "w", 50_000, 62_000, 55_000)
                .group("slow", "w", 8_400, 9_300, 8_900).table();
        ComparisonRow r = only(Comparison.rows(runs, "rps", "base", DEFAULTS), "slow");
        assertEquals(Design.PAIRED, r.design());
        assertTrue(r.pTest() < 0.001, r.toString());
        assertEquals(Verdict.SLOWER, r.verdict());
    }

    @Test
    void pairingSeesAConsistentDifferenceThatWelchCannot() {
        // Every round the subject is 2-4% below the baseline, while the rounds themselves vary by 15%:
        // Welch p 0.47 (scipy), paired p 0.0043 (scipy ttest_rel on the logs).
        Table runs = new RunsTable("rps").group("base", "w", 41900, 46100, 41500, 47900, 45800)
                .group("other", "w", 40100, 45200, 39800, 47000, 43900).table();
        ComparisonRow r = only(Comparison.rows(runs, "rps", "base", DEFAULTS), "other");
        assertEquals(Design.PAIRED, r.design());
        assertRel(0.004344918336895297, r.pTest(), 1e-9, "paired p");
        assertRel(0.46868054364987016, r.pWelch(), 1e-9, "Welch p");
        assertTrue(r.ratioCiLow() > 0.95 && r.ratioCiHigh() < 0.99, r.toString());
        assertEquals(Verdict.SLOWER, r.verdict());
    }

    @Test
    void aRoundMissingInOneGroupMakesTheDesignUnpaired() {
        RunsTable t = new RunsTable("rps").group("base", "w", 41900, 46100, 41500, 47900, 45800)
                .group("other", "w", 40100, 45200, 39800, 47000);
        t.row("other", "", "w", 5, "failed", Double.NaN, false, 0, 0);
        ComparisonRow r = only(Comparison.rows(t.table(), "rps", "base", DEFAULTS), "other");
        assertEquals(Design.WELCH, r.design());
        assertEquals(r.pWelch(), r.pTest());
        // 2-4% lower each round, but Welch's test sees the rounds' 15% spread: undecided, not equivalent.
        assertEquals(Verdict.UNDECIDED, r.verdict());
        assertTrue(r.roundsAdvised() > 5, r.toString());
    }

    @Test
    void roundsOfTwoExperimentsAreDifferentBlocks() {
        // Two experiments with rounds 1..3 each: six blocks, still paired, never two values in one round.
        RunsTable t = new RunsTable("rps");
        double[][] base = {{1000, 1100, 950}, {1200, 1300, 1150}};
        for (int e = 0; e < 2; e++) {
            t.experiment("exp" + e);
            for (int i = 0; i < 3; i++) {
                t.row("base", "", "w", i + 1, "ok", base[e][i], false, 0, 0);
                t.row("other", "", "w", i + 1, "ok", base[e][i] * 0.9, false, 0, 0);
            }
        }
        ComparisonRow r = only(Comparison.rows(t.table(), "rps", "base", DEFAULTS), "other");
        assertEquals(6, r.n());
        assertEquals(Design.PAIRED, r.design());
        assertEquals(0.0, r.pTest(), "every log ratio is ln 0.9");
        assertEquals(Verdict.SLOWER, r.verdict());
    }

    @Test
    void roundsWithoutAnySpreadStillCompare() {
        // commons-math3's t-test cannot take two samples without variance; the difference is then certain.
        Table runs = new RunsTable("rps").group("base", "w", 100, 100, 100).group("same", "w", 100, 100, 100)
                .group("up", "w", 120, 120, 120).table();
        List<ComparisonRow> rows = Comparison.rows(runs, "rps", "base", DEFAULTS);
        assertEquals(1.0, only(rows, "same").pWelch());
        assertEquals(1.0, only(rows, "same").pTest());
        // Identical in every round: the ratio is 1 with no spread at all, inside any band.
        assertEquals(Verdict.EQUIVALENT, only(rows, "same").verdict());
        assertEquals(0.0, only(rows, "same").pEquivalence());
        assertEquals(0.0, only(rows, "up").pWelch());
        assertEquals(0.0, only(rows, "up").pTest());
        assertEquals(Verdict.FASTER, only(rows, "up").verdict());
    }

    @Test
    void zeroBaselineMeanHasNoRatio() {
        Table runs = new RunsTable("errors_read").group("base", "w", 0, 0, 0).group("other", "w", 1, 2, 1).table();
        ComparisonRow r = only(Comparison.rows(runs, "errors_read", "base", DEFAULTS), "other");
        assertTrue(Double.isNaN(r.ratio()));
        // Without a ratio there is no band to be outside or inside: undecided, and no power figures.
        assertEquals(Verdict.UNDECIDED, r.verdict());
        assertTrue(Double.isNaN(r.smallestDetectable()) && Double.isNaN(r.roundsAdvised()), r.toString());
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
        Table t = Comparison.compare(golden("rps"), "rps", "beta", HALF_PERCENT);
        assertEquals(List.of("subject", "workload", "metric", "n", "mean", "sd", "ci_low", "ci_high", "ratio",
                "ratio_ci_low", "ratio_ci_high", "p_welch", "p_mannwhitney", "verdict", "variant", "baseline", "note",
                "test", "p_test", "p_adjusted", "adjustment", "p_equivalence", "smallest_detectable", "rounds_advised"),
                t.columnNames());
        assertEquals(List.of("alpha", "beta"), t.stringColumn("subject").asList());
        assertEquals(List.of("faster", "baseline"), t.stringColumn("verdict").asList());
        assertEquals(List.of("paired", ""), t.stringColumn("test").asList());
        assertRel(GoldenData.P_PAIRED, t.doubleColumn("p_test").get(0), 1e-9, "p_test column");
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
        assertEquals("base [tuned]", odd.baseline(), "no 'odd' variant in the baseline: its own variant");
        assertEquals(0.5, odd.ratio(), 0.01);
        assertEquals("base [tuned]", tuned.baseline(), "same variant label");
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
        assertEquals("base [fsync]", other.baseline(), "an explicit variant wins over the same label");
        assertEquals(1L, rows.stream().filter(r -> r.verdict() == Verdict.BASELINE).count());
        // The baseline as every table shows it, with the space, is the same baseline.
        assertEquals(rows, Comparison.rows(runs, "rps", "base [fsync]", DEFAULTS));
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
        ComparisonRow r = only(Comparison.rows(golden("rps"), "rps", "beta", HALF_PERCENT), "alpha");
        assertTrue(r.toString().startsWith("alpha / plaintext rps: n=8 mean=10,319 ratio=1.01 ["), r.toString());
        assertTrue(r.toString().endsWith("vs beta, p_paired=0.0026 p_holm=0.0026 p_welch=0.0044 p_mw=0.0070: faster"), r.toString());
    }
}
