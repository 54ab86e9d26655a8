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
 *
 * <p>The copies are sized to the values they hold ({@link #compactCopy}), not to the engine's range:
 * a run keeps every interval, and at the engine's range (1 µs to an hour) each histogram took 188 KB,
 * 0.7 GB an hour of run (1.4 GB at a fixed rate, with the service times), where latencies under
 * 2 ms take 17 KB.
 */
public record IntervalSample(long startEpochMs, long endEpochMs, long requests, long missed, ErrorCounts errors,
                             long bytesRead, Histogram latency, Optional<Histogram> serviceTime) {

    public IntervalSample {
        if (endEpochMs < startEpochMs) {
            throw new IllegalArgumentException("interval ends (" + endEpochMs + ") before it starts ("
                    + startEpochMs + ")");
        }
        latency = compactCopy(latency);
        serviceTime = serviceTime.map(IntervalSample::compactCopy);
    }

    /**
     * A copy of {@code h} (its counts, precision, lowest value and time stamps) whose counts reach only
     * as far as its largest value; it grows when more is added to it (merges add intervals together).
     */
    static Histogram compactCopy(Histogram h) {
        Histogram c = compactEmpty(h.getLowestDiscernibleValue(), h.getNumberOfSignificantValueDigits());
        c.add(h);
        c.setStartTimeStamp(h.getStartTimeStamp());
        c.setEndTimeStamp(h.getEndTimeStamp());
        return c;
    }

    /** An empty histogram that grows to the values added to it: {@code lowest} and up, {@code digits} significant digits. */
    static Histogram compactEmpty(long lowest, int digits) {
        Histogram c = new Histogram(lowest, 2 * lowest, digits);
        c.setAutoResize(true);
        return c;
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
