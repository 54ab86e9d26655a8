package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/**
 * The ratio of a percentile with its interval across rounds ({@link PercentileRatios}), checked
 * against a bootstrap computed independently with scipy 1.17.1 / numpy 2.4.6 (from PyPI, in a venv
 * outside the repository, as {@link GoldenData}'s values), by this script:
 *
 * <pre>
 * import numpy as np
 * from scipy import stats
 * a = np.array([1510., 1488., 1702., 1395., 1620., 1555., 1470., 1833.])   # SLOW's p99 per round, µs
 * b = np.array([1300., 1350., 1420., 1290., 1390., 1405., 1310., 1500.])   # BASE's p99 per round, µs
 * r = a / b
 * r.mean()                                                    # 1.1450142722761751
 * res = stats.bootstrap((r,), np.mean, method='percentile', n_resamples=200000, confidence_level=0.95,
 *                       random_state=np.random.default_rng(1))
 * res.confidence_interval                                     # (1.1137588791231812, 1.1777732570173547)
 * stats.ttest_1samp(np.log(r), 0).pvalue                      # 4.959369985407726e-05
 * </pre>
 *
 * The two bootstraps draw different random numbers, so their ends agree to within their Monte Carlo
 * error, not exactly; the test's p is exact.
 */
class PercentileRatiosTest {

    private static final double[] SLOW = {1510, 1488, 1702, 1395, 1620, 1555, 1470, 1833};
    private static final double[] BASE = {1300, 1350, 1420, 1290, 1390, 1405, 1310, 1500};
    private static final CompareOptions MANY = new CompareOptions(0.05, 0.01, 100_000, 7);

    @Test
    void p99RatioAndItsIntervalMatchScipysBootstrapOfThePerRoundRatios() {
        Table runs = new RunsTable("lat_p99_us").group("base", "json", BASE).group("slow", "json", SLOW).table();
        ComparisonRow r = other(PercentileRatios.rows(runs, PercentileRatios.Percentile.P99, "base", MANY));
        assertEquals(1.1450142722761751, r.ratio(), 1e-12);
        assertEquals(1.1137588791231812, r.ratioCiLow(), 0.002);
        assertEquals(1.1777732570173547, r.ratioCiHigh(), 0.002);
        assertEquals(4.959369985407726e-05, r.pTest(), 1e-12);
        assertEquals(Design.PAIRED, r.design());
        assertEquals(Verdict.SLOWER, r.verdict(), "a higher p99 is slower");
        assertEquals(8, r.n());
    }

    @Test
    void theRatioIsOfPercentilesRoundByRoundNeverOfTheirMeans() {
        Table runs = new RunsTable("lat_p99_us").group("base", "json", BASE).group("slow", "json", SLOW).table();
        ComparisonRow byRound = other(PercentileRatios.rows(runs, PercentileRatios.Percentile.P99, "base", MANY));
        ComparisonRow ofMeans = other(Comparison.rows(runs, "lat_p99_us", "base", MANY));
        assertEquals(mean(SLOW) / mean(BASE), ofMeans.ratio(), 1e-12);
        assertNotEquals(ofMeans.ratio(), byRound.ratio(), 1e-4);
        assertTrue(Double.isNaN(byRound.pWelch()) && Double.isNaN(byRound.pMannWhitney()),
                "tests of the ratios against a constant are not made");
    }

    @Test
    void aRoundWithoutBothIsLeftOutAndSaidSo() {
        RunsTable t = new RunsTable("lat_p50_us").group("base", "json", 100, 110, 105, 98)
                .group("other", "json", 150, 160, 170);
        t.row("other", "", "json", 4, "failed", Double.NaN, false, 0, 0);
        ComparisonRow r = other(PercentileRatios.rows(t.table(), PercentileRatios.Percentile.P50, "base",
                CompareOptions.defaults()));
        double expected = (150 / 100.0 + 160 / 110.0 + 170 / 105.0) / 3;
        assertEquals(expected, r.ratio(), 1e-12);
        assertTrue(r.note().contains("1 round(s) left out"), r.note());
    }

    @Test
    void twoRoundsAreTooFewWhateverTheRatios() {
        Table runs = new RunsTable("lat_p999_us").group("base", "json", 100, 100).group("x", "json", 300, 310).table();
        ComparisonRow r = other(PercentileRatios.rows(runs, PercentileRatios.Percentile.P999, "base",
                CompareOptions.defaults()));
        assertEquals(Verdict.TOO_FEW_ROUNDS, r.verdict());
    }

    @Test
    void namesAndColumnsReadBack() {
        assertEquals(Optional.of(PercentileRatios.Percentile.P999), PercentileRatios.Percentile.parse("p99.9"));
        assertEquals(Optional.of(PercentileRatios.Percentile.P999), PercentileRatios.Percentile.parse("P999"));
        assertEquals(Optional.of(PercentileRatios.Percentile.P90), PercentileRatios.Percentile.ofColumn("lat_p90_us"));
        assertEquals(Optional.empty(), PercentileRatios.Percentile.parse("p75"));
        assertEquals("lat_p99_us", PercentileRatios.Percentile.P99.column());
    }

    private static ComparisonRow other(List<ComparisonRow> rows) {
        List<ComparisonRow> others = rows.stream().filter(r -> r.verdict() != Verdict.BASELINE).toList();
        assertEquals(1, others.size(), rows.toString());
        return others.get(0);
    }

    private static double mean(double[] x) {
        return java.util.Arrays.stream(x).average().orElseThrow();
    }
}
