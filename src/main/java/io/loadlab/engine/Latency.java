package io.loadlab.engine;

import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.HdrHistogram.Histogram;

/**
 * A latency distribution as an engine reports it, µs: from the built-in engine's histogram, or
 * what a tool printed (each figure empty when the tool does not print it, never 0).
 *
 * @param mean  mean, µs
 * @param stdev standard deviation, µs
 * @param p50   median, µs
 * @param p75   75th percentile, µs
 * @param p90   90th percentile, µs
 * @param p99   99th percentile, µs
 * @param p999  99.9th percentile, µs
 * @param max   largest, µs
 */
public record Latency(OptionalDouble mean, OptionalDouble stdev, OptionalLong p50, OptionalLong p75,
                      OptionalLong p90, OptionalLong p99, OptionalLong p999, OptionalLong max) {

    /** Nothing reported. */
    public static final Latency NONE = new Latency(OptionalDouble.empty(), OptionalDouble.empty(), OptionalLong.empty(),
            OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());

    /** The figures of a histogram; {@link #NONE} when it is empty. */
    public static Latency of(Histogram h) {
        if (h.getTotalCount() == 0) {
            return NONE;
        }
        return new Latency(OptionalDouble.of(h.getMean()), OptionalDouble.of(h.getStdDeviation()),
                OptionalLong.of(h.getValueAtPercentile(50)), OptionalLong.of(h.getValueAtPercentile(75)),
                OptionalLong.of(h.getValueAtPercentile(90)), OptionalLong.of(h.getValueAtPercentile(99)),
                OptionalLong.of(h.getValueAtPercentile(99.9)), OptionalLong.of(h.getMaxValue()));
    }
}
