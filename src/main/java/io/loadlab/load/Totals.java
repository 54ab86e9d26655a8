package io.loadlab.load;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
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
        Histogram lat = merged(snaps, t -> t.latency, startMs, endMs);
        Histogram svc = snaps.get(0).service == null ? null : merged(snaps, t -> t.service, startMs, endMs);
        return new IntervalSample(startMs, endMs, requests, missed, errors, bytesRead, lat, Optional.ofNullable(svc));
    }

    /**
     * One interval histogram of every loop's, stamped with the interval, for the sample to copy (its copy
     * is the one it keeps, sized to its values). With one loop that is the loop's own, handed over
     * uncopied: the copy below would be a second pass over the engine's range, 188 KB, each second, on
     * the thread that shares the load core with the loop when the run is pinned. The tally empties it
     * after the sample is made ({@link Tally#recycle}).
     */
    private static Histogram merged(List<Tally> snaps, Function<Tally, Histogram> which, long startMs, long endMs) {
        Histogram h;
        if (snaps.size() == 1) {
            h = which.apply(snaps.get(0));
        } else {
            h = IntervalSample.compactEmpty(1, Worker.DIGITS);
            for (Tally t : snaps) {
                h.add(which.apply(t));
            }
        }
        h.setStartTimeStamp(startMs);
        h.setEndTimeStamp(endMs);
        return h;
    }

    /** A histogram of the engine's range: µs, 1 µs to an hour, 3 significant digits. */
    static Histogram newHistogram() {
        return new Histogram(1, Worker.HIGHEST_US, Worker.DIGITS);
    }
}
