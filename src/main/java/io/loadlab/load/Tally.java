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
    long missed;
    long bytesRead;
    long bytesWritten;
    long errConnect;
    long errRead;
    long errWrite;
    long errTimeout;
    long errStatus;
    long errProtocol;
    /** Failed TLS handshakes and TLS connections ended by an alert (the {@code tls} category). */
    long errTls;
    final long[] statusCounts = new long[Worker.STATUS_CODES];
    /** The interval's latencies after a snapshot; an empty histogram for the loop's next interval before. */
    Histogram latency = Totals.newHistogram();
    /** Likewise for service times; null in the closed loop (an Optional would be one object a swap). */
    Histogram service;

    Tally(boolean fixedRate) {
        this.service = fixedRate ? Totals.newHistogram() : null;
    }

    ErrorCounts errors() {
        return new ErrorCounts(errConnect, errRead, errWrite, errTimeout, errStatus, errProtocol, errTls);
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
