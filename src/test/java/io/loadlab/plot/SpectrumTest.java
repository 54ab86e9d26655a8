package io.loadlab.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

class SpectrumTest {

    @Test
    void ninesPutsEachAddedNineOneDecadeFurther() {
        assertEquals(1.0, Nines.x(0));
        assertEquals(2.0, Nines.x(50));
        assertEquals(10.0, Nines.x(90));
        assertEquals(100.0, Nines.x(99));
        assertEquals(1000.0, Nines.x(99.9));
        assertEquals(10000.0, Nines.x(99.99));
        assertThrows(IllegalArgumentException.class, () -> Nines.x(100));
    }

    @Test
    void ninesLabelsAreShortPercentages() {
        assertEquals("50%", Nines.label(2));
        assertEquals("90%", Nines.label(10));
        assertEquals("99.9%", Nines.label(1000));
        assertEquals("99.999%", Nines.label(100_000));
        assertEquals(List.of(2.0, 10.0, 100.0, 1000.0), Nines.ticks(1, 5000));
    }

    @Test
    void seriesSitAtTheNinesPositionsWithLatencyInMilliseconds() {
        Histogram h = Fixtures.histograms(List.of("nginx"), 100_000).get("nginx");

        XYChart chart = Charts.latencySpectrum(Map.of("nginx", h), "plaintext");

        XYSeries series = chart.getSeriesMap().get("nginx");
        double[] xs = series.getXData();
        for (double[] expected : new double[][] {{50, 2}, {90, 10}, {99, 100}, {99.9, 1000}, {99.99, 10_000}}) {
            int i = indexOf(xs, expected[1]);
            assertTrue(i >= 0, "no point at x = " + expected[1]);
            assertEquals(h.getValueAtPercentile(expected[0]) / 1000.0, series.getYData()[i], 1e-12);
        }
        // The maximum closes the line at x = count.
        assertEquals(100_000.0, xs[xs.length - 1]);
        assertEquals(h.getMaxValue() / 1000.0, series.getYData()[xs.length - 1], 1e-12);
        assertEquals("Latency by percentile — plaintext", chart.getTitle());
        assertTrue(chart.getStyler().isXAxisLogarithmic());
    }

    @Test
    void smallHistogramsStopWhereTheirCountEnds() {
        Histogram h = new Histogram(3);
        for (int i = 1; i <= 150; i++) {
            h.recordValue(i * 10L);
        }

        double[][] points = Spectrum.points(h);

        double[] xs = points[0];
        assertEquals(1.0, xs[0]);
        assertTrue(Arrays.stream(xs).allMatch(x -> x <= 150), Arrays.toString(xs));
        assertEquals(150.0, xs[xs.length - 1], "max at x = count");
        assertEquals(1.5, points[1][xs.length - 1], 0.01);
    }

    @Test
    void emptyHistogramsAreLeftOutAndAllEmptyIsAnError() {
        Map<String, Histogram> input = new LinkedHashMap<>(Fixtures.histograms(List.of("nginx"), 1_000));
        input.put("node-http", new Histogram(3));

        assertEquals(List.of("nginx"), List.copyOf(Charts.latencySpectrum(input, "json").getSeriesMap().keySet()));
        PlotException e = assertThrows(PlotException.class,
                () -> Charts.latencySpectrum(Map.of("node-http", new Histogram(3)), "json"));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
        assertThrows(PlotException.class, () -> Charts.latencySpectrum(Map.of(), "json"));
    }

    @Test
    void narrowSpectraUseALinearAxisFromZero() {
        Histogram h = new Histogram(3);
        for (int i = 0; i < 1000; i++) {
            h.recordValue(1000 + i % 200);
        }

        XYChart chart = Charts.latencySpectrum(Map.of("nginx", h), null);

        assertEquals(false, chart.getStyler().isYAxisLogarithmic());
        assertEquals(0.0, chart.getStyler().getYAxisMin());
        assertEquals("Latency by percentile", chart.getTitle());
    }

    private static int indexOf(double[] values, double wanted) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == wanted) {
                return i;
            }
        }
        return -1;
    }
}
