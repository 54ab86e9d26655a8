package io.loadlab.load;

import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/** Counters summed over every worker's snapshot, cumulative since the window opened. */
record Totals(long requests, long missed, long bytesRead, long bytesWritten, ErrorCounts errors) {

    static final Totals ZERO = new Totals(0, 0, 0, 0, ErrorCounts.NONE);

    static Totals of(List<Tally> snaps) {
        long r = 0, m = 0, b = 0, w = 0;
        ErrorCounts e = ErrorCounts.NONE;
        for (Tally s : snaps) {
            r += s.requests;
            m += s.missed;
            b += s.bytesRead;
            w += s.bytesWritten;
            e = e.plus(s.errors());
        }
        return new Totals(r, m, b, w, e);
    }

    Totals minus(Totals o) {
        return new Totals(requests - o.requests, missed - o.missed, bytesRead - o.bytesRead,
                bytesWritten - o.bytesWritten, errors.minus(o.errors));
    }

    /** The interval these counters span, with the snapshots' interval histograms merged. */
    IntervalSample toSample(long startMs, long endMs, List<Tally> snaps) {
        // Merged into histograms sized to the interval's values, as the sample keeps them: at the engine's
        // range this thread, which shares the load core with the loop when the run is pinned, allocated
        // and filled four histograms of 188 KB a second.
        Histogram lat = IntervalSample.compactEmpty(1, Worker.DIGITS);
        Histogram svc = IntervalSample.compactEmpty(1, Worker.DIGITS);
        boolean hasService = false;
        for (Tally s : snaps) {
            lat.add(s.latency);
            if (s.service != null) {
                svc.add(s.service);
                hasService = true;
            }
        }
        lat.setStartTimeStamp(startMs);
        lat.setEndTimeStamp(endMs);
        svc.setStartTimeStamp(startMs);
        svc.setEndTimeStamp(endMs);
        return new IntervalSample(startMs, endMs, requests, missed, errors, bytesRead, lat,
                hasService ? Optional.of(svc) : Optional.empty());
    }

    /** A histogram of the engine's range: µs, 1 µs to an hour, 3 significant digits. */
    static Histogram newHistogram() {
        return new Histogram(1, Worker.HIGHEST_US, Worker.DIGITS);
    }
}
