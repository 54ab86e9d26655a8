package io.loadlab.load;

/**
 * The requests of one fixed-rate schedule (an HTTP/1.1 connection's, an HTTP/2 stream slot's) that
 * fell due before the window's end but were never sent: each is recorded with the latency it had
 * reached by then (a lower bound), so that an overloaded server's backlog shows in the tail instead of
 * vanishing.
 */
final class MissedRequests {

    /** Where the lower-bound latencies go: the worker's latency histogram. */
    interface Sink {
        void record(long micros, long count);
    }

    private MissedRequests() {
    }

    /**
     * How many requests of a schedule, due from {@code nextDue} on every {@code interval} ns, fall due
     * before {@code endNanos}: none when the next is due at or after it.
     */
    static long dueBefore(double nextDue, double interval, long endNanos) {
        return nextDue >= endNanos ? 0 : (long) Math.ceil((endNanos - nextDue) / interval);
    }

    /**
     * Records the requests due from {@code nextDue} on, every {@code interval} ns, before {@code endNanos}.
     *
     * @return how many there were (the caller moves its schedule past them)
     */
    static long record(double nextDue, double interval, long endNanos, Sink sink) {
        long missed = dueBefore(nextDue, interval, endNanos);
        // Beyond a million per schedule, record them in groups of equal count: the error is at most one
        // group's span of due times, far below the histogram's 0.1% resolution of such waits.
        long group = Math.max(1, missed / 1_000_000);
        for (long k = 0; k < missed; k += group) {
            long due = (long) (nextDue + k * interval);
            long count = Math.min(group, missed - k);
            sink.record(Math.max(1, Math.min(Worker.HIGHEST_US, (endNanos - due) / 1000)), count);
        }
        return missed;
    }
}
