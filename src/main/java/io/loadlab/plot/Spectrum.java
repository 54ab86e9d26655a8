package io.loadlab.plot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The latency spectrum: latency against percentile on the nines scale, one line per series. */
final class Spectrum {

    private static final double MICROS_PER_MS = 1000.0;

    private Spectrum() {
    }

    static XYChart chart(Map<String, Histogram> byLabel, String workload) {
        Objects.requireNonNull(byLabel, "histograms");
        if (byLabel.isEmpty()) {
            throw new PlotException("no latency histograms were given: nothing to plot");
        }
        String title = workload == null || workload.isBlank()
                ? "Latency by percentile" : "Latency by percentile — " + workload;
        NinesChart chart = Look.xy(new NinesChart(), title, "percentile", "latency (ms)");
        chart.styleNinesAxis();

        List<String> labels = new ArrayList<>(byLabel.keySet());
        labels.sort(Comparator.comparing(SeriesKey::ofLabel).thenComparing(Comparator.naturalOrder()));
        Variants variants = new Variants(labels.stream().map(SeriesKey::ofLabel).toList());
        double low = Double.POSITIVE_INFINITY;
        double high = 0;
        for (String label : labels) {
            Histogram h = Objects.requireNonNull(byLabel.get(label), "histogram of " + label);
            if (h.getTotalCount() == 0) {
                continue; // a subject whose every request failed has no latency to draw
            }
            double[][] xy = points(h);
            for (double y : xy[1]) {
                low = Math.min(low, y);
                high = Math.max(high, y);
            }
            SeriesKey key = SeriesKey.ofLabel(label);
            XYSeries series = chart.addSeries(label, xy[0], xy[1]);
            series.setLineColor(Palette.colorFor(key.subject()));
            series.setLineStyle(Look.stroke(2.5f, variants.index(key)));
            series.setMarker(SeriesMarkers.NONE);
        }
        if (chart.getSeriesMap().isEmpty()) {
            throw new PlotException("every latency histogram is empty " + byLabel.keySet() + ": nothing to plot");
        }
        scaleY(chart, low, high);
        return chart;
    }

    /**
     * The spectrum of one histogram: x on the nines scale, y in ms. The maximum is added at
     * x = count, where the largest of N values sits on that scale, when that lies beyond the grid.
     */
    static double[][] points(Histogram h) {
        long count = h.getTotalCount();
        List<Double> xs = new ArrayList<>(Nines.grid(count));
        List<Double> ys = new ArrayList<>();
        for (double x : xs) {
            ys.add(h.getValueAtPercentile(Nines.percentile(x)) / MICROS_PER_MS);
        }
        if (xs.isEmpty() || count > xs.get(xs.size() - 1)) {
            xs.add((double) count);
            ys.add(h.getMaxValue() / MICROS_PER_MS);
        }
        double[][] out = new double[2][xs.size()];
        for (int i = 0; i < xs.size(); i++) {
            out[0][i] = xs.get(i);
            out[1][i] = ys.get(i);
        }
        return out;
    }

    // Tails often sit orders of magnitude above the median; a log y axis keeps the median readable.
    // XChart labels only whole decades there (all nine steps of each would collide), so when the
    // data cross fewer than two of them the range is widened to whole decades.
    static void scaleY(XYChart chart, double low, double high) {
        if (low > 0 && high / low >= 10) {
            chart.getStyler().setYAxisLogarithmic(true);
            chart.getStyler().setYAxisLogarithmicDecadeOnly(true);
            double lowDecade = Math.floor(Math.log10(low));
            double highDecade = Math.ceil(Math.log10(high));
            boolean twoLabels = Math.floor(Math.log10(high)) - Math.ceil(Math.log10(low)) >= 1;
            if (!twoLabels) {
                chart.getStyler().setYAxisMin(Math.pow(10, lowDecade));
                chart.getStyler().setYAxisMax(Math.pow(10, highDecade));
            }
        } else {
            chart.getStyler().setYAxisMin(0.0);
            chart.getStyler().setYAxisDecimalPattern(Look.yPattern(high));
        }
    }
}
