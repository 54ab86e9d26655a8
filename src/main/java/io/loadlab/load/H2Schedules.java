package io.loadlab.load;

/**
 * The fixed-rate schedules of one {@link H2Connection}'s slots. Each slot keeps its own schedule, one
 * request every {@code C × m / rate} seconds (C connections, m streams each), so coordinated omission
 * is corrected per slot. Slot {@code s} of connection {@code g} is schedule {@code g + s·C} of
 * {@code C·m}: consecutive due times go to different connections, and all slots together send at an
 * even pace. Times are {@link System#nanoTime()} values; used on the connection's loop only.
 */
final class H2Schedules {

    private final double[] nextDue;
    /** Whether the slot's next send is scheduled on the loop. */
    private final boolean[] scheduled;
    private final double interval;

    H2Schedules(RunControl control, int globalIndex) {
        int streams = control.spec.streams();
        this.interval = control.fixedRateIntervalNanos;
        this.nextDue = new double[streams];
        this.scheduled = new boolean[streams];
        int connections = control.spec.connections();
        for (int s = 0; s < streams; s++) {
            nextDue[s] = control.startNanos + (globalIndex + (double) s * connections) * interval / control.spec.slots();
        }
    }

    /** Nanoseconds until the slot's next request is due; zero or less when it is due already. */
    long untilDue(int slot, long now) {
        return (long) nextDue[slot] - now;
    }

    /** The due time of the slot's next request, nanoTime base. */
    long dueTime(int slot) {
        return (long) nextDue[slot];
    }

    boolean scheduled(int slot) {
        return scheduled[slot];
    }

    void scheduled(int slot, boolean value) {
        scheduled[slot] = value;
    }

    /** The due time of the slot's next request, which is now being sent: the schedule moves on. */
    long take(int slot) {
        long due = (long) nextDue[slot];
        nextDue[slot] += interval;
        return due;
    }

    /** Moves every slot not waiting in the pacer past the requests due before {@code startNanos}; their count. */
    long skipUnsent(long startNanos) {
        long skipped = 0;
        for (int s = 0; s < nextDue.length; s++) {
            if (!scheduled[s]) {
                long n = MissedRequests.dueBefore(nextDue[s], interval, startNanos);
                nextDue[s] += n * interval;
                skipped += n;
            }
        }
        return skipped;
    }

    /** Records, for every slot, the requests due before {@code endNanos} and never sent; their count. */
    long recordMissed(long endNanos, MissedRequests.Sink sink) {
        long missed = 0;
        for (int s = 0; s < nextDue.length; s++) {
            long m = MissedRequests.record(nextDue[s], interval, endNanos, sink);
            nextDue[s] += m * interval;
            missed += m;
        }
        return missed;
    }
}
