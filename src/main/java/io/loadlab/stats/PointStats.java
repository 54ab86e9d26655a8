package io.loadlab.stats;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The figures of one sweep point over a draw of rounds (each drawn round counted as often as it
 * was drawn): its runs, mean target and achieved rates, mean missed requests, and the corrected
 * and service-time percentiles of the merged histograms of the drawn runs. Percentiles are never
 * averaged over rounds: the drawn runs' histograms are merged first.
 */
final class PointStats {

    /** The percentiles of a curve, in percent, and how columns name them. */
    static final double[] PERCENTILES = {50, 99, 99.9};
    static final List<String> NAMES = List.of("p50", "p99", "p999");

    static final int RUNS = 0;
    static final int TARGET = 1;
    static final int RPS = 2;
    static final int MISSED = 3;
    /** The first corrected percentile; the others follow in {@link #PERCENTILES} order. */
    static final int LATENCY = 4;
    /** The first service-time percentile. */
    static final int SERVICE = LATENCY + PERCENTILES.length;
    static final int WIDTH = SERVICE + PERCENTILES.length;

    private PointStats() {
    }

    /**
     * @param blocks the series' rounds; {@code counts[i]} is how often {@code blocks.get(i)} was drawn
     * @return the figures, indexed by the constants above; NaN where the drawn rounds hold no run of
     *         the point (and service times where none was recorded)
     */
    static double[] of(SweepSeries.Point point, int[] counts, List<String> blocks) {
        double[] out = new double[WIDTH];
        java.util.Arrays.fill(out, Double.NaN);
        Histogram latency = new Histogram(3);
        Histogram service = new Histogram(3);
        double runs = 0;
        double target = 0;
        double rps = 0;
        double missed = 0;
        for (SweepSeries.PointRun r : point.runs()) {
            int times = counts[blocks.indexOf(r.block())];
            for (int k = 0; k < times; k++) {
                latency.add(r.latency());
                r.service().ifPresent(service::add);
            }
            runs += times;
            target += times * r.target();
            rps += times * r.rps();
            missed += times * r.missed();
        }
        if (runs == 0) {
            return out;
        }
        out[RUNS] = runs;
        out[TARGET] = target / runs;
        out[RPS] = rps / runs;
        out[MISSED] = missed / runs;
        for (int k = 0; k < PERCENTILES.length; k++) {
            out[LATENCY + k] = latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(PERCENTILES[k]);
            out[SERVICE + k] = service.getTotalCount() == 0 ? Double.NaN : service.getValueAtPercentile(PERCENTILES[k]);
        }
        return out;
    }
}
