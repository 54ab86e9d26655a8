package io.loadlab.load;

import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * One event loop's counters at a snapshot (cumulative since the window opened) and its
 * histograms of the interval since the previous snapshot. The calling thread owns one per loop
 * for the whole run: the loop fills it in {@link Worker#snapshotInto}, swapping its histograms
 * for the tally's empty ones, and the calling thread reads it, merges the histograms and empties
 * them again with {@link #recycle()} before the next snapshot. So a second's snapshot makes no
 * histogram and no object on the loop.
 */
final class Tally {
    long requests;
    /** Good answers (an expected status and body), for the warm-up's check that the server answers at all. */
    long good;
    long missed;
    long bytesRead;
    long bytesWritten;
    /** Failed requests by category, in {@link ErrorCounts}' order (connect, read, write, timeout, status, protocol, tls, body). */
    private final long[] errors = new long[8];
    final long[] statusCounts = new long[Worker.STATUS_CODES];
    /** The interval's latencies after a snapshot; an empty histogram for the loop's next interval before. */
    Histogram latency = Totals.newHistogram();
    /** Likewise for service times; null in the closed loop (an Optional would be one object a swap). */
    Histogram service;

    Tally(boolean fixedRate) {
        this.service = fixedRate ? Totals.newHistogram() : null;
    }

    ErrorCounts errors() {
        return new ErrorCounts(errors[0], errors[1], errors[2], errors[3], errors[4], errors[5], errors[6], errors[7]);
    }

    /** Sets the error counts of a loop (on the loop). */
    void errors(long connect, long read, long write, long timeout, long status, long protocol, long tls, long body) {
        errors[0] = connect;
        errors[1] = read;
        errors[2] = write;
        errors[3] = timeout;
        errors[4] = status;
        errors[5] = protocol;
        errors[6] = tls;
        errors[7] = body;
    }

    /** Empties the histograms for the loop's next interval; on the calling thread, after reading them. */
    void recycle() {
        latency.reset();
        if (service != null) {
            service.reset();
        }
    }

    /** Copies the status counts of a loop (on the loop). */
    void copyStatus(long[] counts) {
        System.arraycopy(counts, 0, statusCounts, 0, statusCounts.length);
    }

    @Override
    public String toString() {
        return "Tally[" + requests + " requests, " + Arrays.stream(statusCounts).sum() + " statuses, interval "
                + latency.getTotalCount() + " latencies]";
    }
}
