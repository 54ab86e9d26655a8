package io.loadlab.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which kind of figure a column holds, from the names Loadlab's files and tables use. */
class FigureTest {

    @Test
    void pValuesFirst() {
        for (String name : List.of("p", "p_test", "p_welch", "p_mannwhitney", "p_mw", "P")) {
            assertEquals(Figure.P_VALUE, Figure.of(name), name);
        }
        // Percentiles are latencies, not p-values.
        assertEquals(Figure.MICROS, Figure.of("p99_us"));
    }

    @Test
    void coefficientsOfVariationAndRatios() {
        for (String name : List.of("cv", "CV", "rps_cv")) {
            assertEquals(Figure.PERCENT, Figure.of(name), name);
        }
        for (String name : List.of("ratio", "ratio_ci_low", "ratio_ci_high", "spread", "builtin_spread", "spearman")) {
            assertEquals(Figure.RATIO, Figure.of(name), name);
        }
    }

    @Test
    void latenciesAndCounts() {
        for (String name : List.of("lat_p99_us", "svc_p50_us", "max_us", "p99_us_merged", "latency (µs)")) {
            assertEquals(Figure.MICROS, Figure.of(name), name);
        }
        for (String name : List.of("rps", "mean rps", "rps_per_server_cpu_s", "requests", "bytes_read",
                "server_peak_rss_bytes", "errors_read", "missed", "target_rps")) {
            assertEquals(Figure.COUNT, Figure.of(name), name);
        }
    }

    @Test
    void aStatisticIsShownAsItsMetric() {
        assertEquals(Figure.COUNT, Figure.of("mean", "rps"));
        assertEquals(Figure.MICROS, Figure.of("ci_high", "lat_p99_us"));
        assertEquals(Figure.DECIMAL, Figure.of("sd", "server_cpu_s"));
        assertEquals(Figure.DECIMAL, Figure.of("mean"));
        assertEquals(Figure.PERCENT, Figure.of("cv", "rps"), "the cv of any metric is a fraction");
    }

    @Test
    void everythingElseIsADecimal() {
        assertEquals(Figure.DECIMAL, Figure.of("server_cpu_s"));
        assertEquals(Figure.DECIMAL, Figure.of("noise (CPU-s per s)"));
        assertEquals("1.83", Figure.DECIMAL.format(1.8349));
        assertEquals("12", Figure.INTEGER.format(12));
    }
}
