package io.loadlab.load;

import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * One interval (normally one second) of the measured window, merged over all threads.
 *
 * @param startEpochMs start of the interval, ms since the epoch
 * @param endEpochMs   end of the interval, ms since the epoch
 * @param requests     complete responses in the interval
 * @param missed       at a fixed rate, requests that fell due but were never sent (recorded at the
 *                     window's end, so only the last interval has them); their lower-bound latencies
 *                     are in {@code latency}, whose count is {@code requests + missed}
 * @param errors       failed requests in the interval, by category
 * @param bytesRead    bytes received in the interval
 * @param latency      latency of the interval's responses, µs (from the due time at a fixed rate)
 * @param serviceTime  service time (from the actual send), µs; present only at a fixed rate
 *
 * <p>The histograms are copied in, so the engine's own stay its own, but read as they are: every
 * merge and listener reads each interval once a second, and a copy per read was a histogram
 * allocated per reader and second. They are the reader's to read, never to change (unlike
 * {@link LoadResult}'s, which are copied out).
 */
public record IntervalSample(long startEpochMs, long endEpochMs, long requests, long missed, ErrorCounts errors,
                             long bytesRead, Histogram latency, Optional<Histogram> serviceTime) {

    public IntervalSample {
        if (endEpochMs < startEpochMs) {
            throw new IllegalArgumentException("interval ends (" + endEpochMs + ") before it starts ("
                    + startEpochMs + ")");
        }
        latency = latency.copy();
        serviceTime = serviceTime.map(Histogram::copy);
    }

    /** One line, without the histograms (see {@link LoadResult#toString()}). */
    @Override
    public String toString() {
        return "IntervalSample[" + startEpochMs + ".." + endEpochMs + " ms: " + requests + " requests, "
                + errors.total() + " errors]";
    }

    /** Length of the interval in seconds. */
    public double seconds() {
        return (endEpochMs - startEpochMs) / 1000.0;
    }

    /** Responses per second within the interval. */
    public double rps() {
        double s = seconds();
        return s > 0 ? requests / s : 0;
    }
}
