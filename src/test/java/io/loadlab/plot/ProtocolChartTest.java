package io.loadlab.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** {@link Charts#protocolCost}: the bars and error bars drawn from a cost-of-protocols table. */
class ProtocolChartTest {

    private static Table cost() {
        StringColumn subject = StringColumn.create("subject", "nginx", "nginx", "go-nethttp", "nginx");
        StringColumn variant = StringColumn.create("variant", "", "", "durability=memory", "");
        StringColumn workload = StringColumn.create("workload", "plaintext", "plaintext", "plaintext", "plaintext");
        StringColumn protocol = StringColumn.create("protocol", "h1-tls", "h2-tls", "h2c", "h1-tls");
        StringColumn metric = StringColumn.create("metric", "rps_per_server_cpu_s", "rps_per_server_cpu_s",
                "rps_per_server_cpu_s", "rps");
        DoubleColumn ratio = DoubleColumn.create("ratio", 0.6, 0.5, Double.NaN, 0.7);
        DoubleColumn low = DoubleColumn.create("ratio_ci_low", 0.5, 0.45, Double.NaN, 0.6);
        DoubleColumn high = DoubleColumn.create("ratio_ci_high", 0.65, 0.6, Double.NaN, 0.8);
        return Table.create("cost", subject, variant, workload, protocol, metric, ratio, low, high);
    }

    @Test
    void oneBarPerProtocolBesideH1WithTheCisFartherEnd() {
        CategoryChart chart = Charts.protocolCost(cost(), "rps_per_server_cpu_s");
        assertEquals(List.of("h1 (= 1)", "h1-tls", "h2-tls"), List.copyOf(chart.getSeriesMap().keySet()),
                "go-nethttp's h2c has no ratio (no h1 runs): no bar");
        CategorySeries tls = chart.getSeriesMap().get("h1-tls");
        assertEquals(List.of("nginx"), List.copyOf(tls.getXData()));
        assertEquals(0.6, tls.getYData().iterator().next().doubleValue(), 1e-12);
        // [0.5, 0.65] about 0.6: the farther end is 0.1 below.
        assertEquals(0.1, tls.getExtraValues().iterator().next().doubleValue(), 1e-12);
        assertEquals(1.0, chart.getSeriesMap().get("h1 (= 1)").getYData().iterator().next().doubleValue());
        assertTrue(chart.getTitle().startsWith("Throughput per server CPU-second"), chart.getTitle());
    }

    @Test
    void aMetricWithoutRatiosIsAPlotError() {
        PlotException e = assertThrows(PlotException.class, () -> Charts.protocolCost(cost(), "lat_p99_us"));
        assertTrue(e.getMessage().contains("no ratio for metric 'lat_p99_us'"), e.getMessage());
    }
}
