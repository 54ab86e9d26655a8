package io.loadlab.data;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The latency of one group, merged over its successful runs: the one-call answer to "what is
 * java-netty's p99.9 on json", {@code results.latency("java-netty", "json").p(99.9)}.
 *
 * @param group     the group (subject, analysis variant, workload)
 * @param histogram its merged histogram, µs (a copy is kept and given out)
 */
public record GroupLatency(Group group, Histogram histogram) {

    public GroupLatency {
        if (group == null || histogram == null) {
            throw new DataException("group latency: group and histogram must be given");
        }
        histogram = histogram.copy();
    }

    /** The histogram, µs (a copy). */
    @Override
    public Histogram histogram() {
        return histogram.copy();
    }

    /** Requests recorded. */
    public long count() {
        return histogram.getTotalCount();
    }

    /**
     * The latency at a percentile, µs, over every request of every successful run of the group.
     *
     * @param percentile in (0, 100], such as 99.9
     * @throws DataException for a percentile out of range, or a group with no latency recorded
     *                       (imported runs, and runs without {@code latency.hlog}, have none)
     */
    public long p(double percentile) {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new DataException("a percentile is above 0 and at most 100, such as 99.9; got " + percentile);
        }
        if (count() == 0) {
            throw new DataException(group.label() + " has no latency recorded: its runs have no intervals in"
                    + " latency.hlog (imported runs have none)");
        }
        return histogram.getValueAtPercentile(percentile);
    }

    /** {@code GroupLatency[java-netty [durability=memory] / json: 1,234,567 requests, p50 412 µs, p99 1,803 µs, p99.9 3,020 µs, max 9,871 µs]}. */
    @Override
    public String toString() {
        if (count() == 0) {
            return "GroupLatency[" + group.label() + ": no latency recorded]";
        }
        return String.format(Locale.ROOT, "GroupLatency[%s: %,d requests, p50 %,d µs, p99 %,d µs, p99.9 %,d µs,"
                + " max %,d µs]", group.label(), count(), p(50), p(99), p(99.9), histogram.getMaxValue());
    }
}
