package io.loadlab.load;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * How a fixed-rate run's requests went out against their due times, over its measured window.
 * Immutable: the histogram accessor returns a copy.
 *
 * @param slackNanos the wake-up slack the pacers used, ns: no request was held longer past its due time
 *                   (the operating system's wake-up latency, and a busy loop, come on top)
 * @param wakeTimes  distinct wake-up times the pacers asked of their event loops (each one a timer
 *                   setting); the loops also wake for I/O, and then send what is due as well
 * @param passes     passes of the event loops, each after a wait for I/O or for time (or none): what
 *                   the loops woke for in all
 * @param lateness   each sent request's send time minus its due time, ns (a late request, sent at
 *                   once when its connection becomes free, included)
 * @param sentEarly  requests sent before their due time: 0 unless the engine has a bug
 * @param pacedLateness the lateness of the requests that the pacer sent when they fell due, ns: the
 *                   loop's own (wake-up, slack, a busy loop), without the waits for a busy connection
 * @param sentWhenFree  requests that fell due while their connection (or HTTP/2 stream) still awaited an
 *                   answer or was not open yet, and went out as soon as it was free: their lateness is the
 *                   server's (or the connect's) doing; {@code lateness} counts them, {@code pacedLateness}
 *                   does not
 * @param warmupUnsent requests that fell due in the warm-up and had not been sent when the window
 *                   opened (the engine or the server was behind): the window started on schedule
 *                   without them, neither sending nor counting them
 */
public record Pacing(long slackNanos, long wakeTimes, long passes, Histogram lateness, long sentEarly,
                     Histogram pacedLateness, long sentWhenFree, long warmupUnsent) {

    public Pacing {
        lateness = lateness.copy();
        pacedLateness = pacedLateness.copy();
    }

    /** A copy of the lateness histogram, ns. */
    @Override
    public Histogram lateness() {
        return lateness.copy();
    }

    /** A copy of the paced requests' lateness histogram, ns. */
    @Override
    public Histogram pacedLateness() {
        return pacedLateness.copy();
    }

    /** The pacing of a fixed-rate run's workers, each read on its loop. */
    static Pacing of(long slackNanos, List<Worker> workers) {
        Histogram lateness = new Histogram(1, Worker.HIGHEST_US * 1000, 2);
        Histogram paced = new Histogram(1, Worker.HIGHEST_US * 1000, 2);
        long[] counts = new long[5];
        for (Worker w : workers) {
            NettyLoad.onLoop(w.loop, () -> {
                lateness.add(w.pacedLateness);
                lateness.add(w.freeLateness);
                paced.add(w.pacedLateness);
                counts[0] += w.pacer.map(Pacer::wakeTimes).orElse(0L);
                counts[1] += w.sentEarly;
                counts[2] += w.pacer.map(Pacer::passes).orElse(0L);
                counts[3] += w.freeLateness.getTotalCount();
                counts[4] += w.warmupUnsent;
                return null;
            });
        }
        return new Pacing(slackNanos, counts[0], counts[2], lateness, counts[1], paced, counts[3], counts[4]);
    }
}
