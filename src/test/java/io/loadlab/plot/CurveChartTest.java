package io.loadlab.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.stats.Knee;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** The latency–throughput chart, on a small hand-made curves table. */
class CurveChartTest {

    private static Table curves() {
        StringColumn subject = StringColumn.create("subject", "nginx", "nginx", "nginx", "go-nethttp", "go-nethttp");
        StringColumn variant = StringColumn.create("variant", "", "", "", "", "");
        StringColumn workload = StringColumn.create("workload", "json", "json", "json", "json", "json");
        // Rows not in ascending throughput: the chart orders each line by it.
        DoubleColumn rps = DoubleColumn.create("rps", 2000, 1000, 2900, 1000, 1800);
        DoubleColumn p99 = DoubleColumn.create("lat_p99_us", 1500, 1200, 90_000, 2000, 40_000);
        DoubleColumn low = DoubleColumn.create("lat_p99_ci_low_us", 1400, 1100, 80_000, Double.NaN, Double.NaN);
        DoubleColumn high = DoubleColumn.create("lat_p99_ci_high_us", 1600, 1300, 99_000, Double.NaN, Double.NaN);
        return Table.create("curves", subject, variant, workload, rps, p99, low, high);
    }

    @Test
    void eachSubjectIsALineOfItsP99AgainstAchievedThroughputWithItsIntervalDotted() {
        XYChart chart = Charts.latencyThroughput(curves(), "p99", null);

        assertTrue(chart.getTitle().startsWith("Latency p99 against throughput — json"), chart.getTitle());
        assertEquals("latency p99 (ms)", chart.getYAxisTitle());
        XYSeries nginx = chart.getSeriesMap().get("nginx");
        assertEquals(List.of(1000.0, 2000.0, 2900.0), List.of(nginx.getXData()[0], nginx.getXData()[1],
                nginx.getXData()[2]));
        assertEquals(List.of(1.2, 1.5, 90.0), List.of(nginx.getYData()[0], nginx.getYData()[1], nginx.getYData()[2]));
        XYSeries nginxHigh = chart.getSeriesMap().get("nginx CI high");
        assertEquals(99.0, nginxHigh.getYData()[2]);
        assertFalse(nginxHigh.isShowInLegend());
        assertFalse(chart.getSeriesMap().containsKey("go-nethttp CI low"), "one round: no interval drawn");
        assertEquals(Palette.colorFor("go-nethttp"), chart.getSeriesMap().get("go-nethttp").getLineColor());
        assertTrue(chart.getStyler().isYAxisLogarithmic(), "1.1 ms to 99 ms spans two decades");
        assertEquals(CurveCharts.X_TICK_SPACING_PX, chart.getStyler().getXAxisTickMarkSpacingHint(),
                "x ticks spaced for labels like 75,000");
    }

    @Test
    void theKneesObjectiveIsADashedLineAndAKneeBetweenPointsADiamondOnIt() {
        List<Knee> knees = List.of(
                new Knee("nginx", "", "json", 5000, 2300, 2100, 2500, 3, Knee.Bound.WITHIN),
                new Knee("go-nethttp", "", "json", 5000, 1000, Double.NaN, Double.NaN, 1, Knee.Bound.BELOW),
                new Knee("nginx", "", "plaintext", 5000, 9999, 9000, 11000, 3, Knee.Bound.WITHIN));
        XYChart chart = Charts.latencyThroughputWithKnees(curves(), knees, "json");

        XYSeries slo = chart.getSeriesMap().get("p99 objective 5.00ms");
        assertEquals(List.of(0.0, 2900.0), List.of(slo.getXData()[0], slo.getXData()[1]), "across the curves' range");
        assertEquals(List.of(5.0, 5.0), List.of(slo.getYData()[0], slo.getYData()[1]));
        XYSeries marks = chart.getSeriesMap().get("knee");
        // Only nginx's json knee: go-nethttp's lies below the sweep's range, the other is of plaintext.
        assertEquals(1, marks.getXData().length);
        assertEquals(2300.0, marks.getXData()[0]);
        assertEquals(5.0, marks.getYData()[0]);
        assertEquals(XYSeries.XYSeriesRenderStyle.Scatter, marks.getXYSeriesRenderStyle());
        assertTrue(chart.getSeriesMap().containsKey("nginx"), "the curves are drawn as without knees");
        assertThrows(PlotException.class, () -> Charts.latencyThroughputWithKnees(curves(), List.of(), "json"));
    }

    @Test
    void anotherPercentileOrAMissingColumnIsRefused() {
        assertThrows(PlotException.class, () -> Charts.latencyThroughput(curves(), "p75", null));
        assertThrows(PlotException.class, () -> Charts.latencyThroughput(curves(), "p50", null), "no lat_p50 columns");
    }
}
