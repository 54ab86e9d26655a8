package io.loadlab.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * When a warm-up ends, decided after each of its {@link SteadyState#INTERVAL_MS} ms intervals. In
 * this order:
 * <ol>
 *   <li><b>No good answer</b> (issue 31): {@value #NO_GOOD_INTERVALS} intervals in a row (1 s) without
 *       an answer of an accepted status and body end any warm-up at once, fixed or steady. A server
 *       that answers nothing, garbage or only errors warms nothing up, and a wait for it to become
 *       steady ran to the maximum (10 s) for a run of 3. The window then measures what it does: its
 *       errors are the result. A server that takes over a second for its first answer gets a short
 *       warm-up, which the run says.</li>
 *   <li><b>The maximum</b>: the run is measured, steady or not, as the rule says at that moment.</li>
 *   <li><b>Steady, and for long enough</b> (steady-state warm-up only, and not before its minimum):
 *       {@link SteadyState}'s rule must have held at every check since it first held, at elapsed time
 *       t, until at least 2t: a level must last as long again as it took to appear. No rule that
 *       looks at the last seconds can tell a final level from a JIT plateau before the next
 *       compilation; java-netty once read 127k requests/s "steady after 5.0 s" on such a plateau,
 *       while its other runs read 185-197k. A plateau that ends before it is as old as the time it
 *       began is seen to end, as its rise breaks the rule; a server steady after 2 s costs 2 s more.
 *       A subject with a longer plateau still sets a minimum in its manifest.</li>
 * </ol>
 */
final class WarmupEnd {

    /** Intervals in a row without a good answer that end the warm-up: 1 s. */
    static final int NO_GOOD_INTERVALS = 2;

    private final Warmup warmup;
    private final List<SteadyState.Interval> samples = new ArrayList<>();
    private int noGood;
    private long answersWithoutGood;
    /** Elapsed time, s, of the first check of the current unbroken run of steady checks; -1 when not steady. */
    private double steadySince = -1;
    private boolean steady;
    private Optional<String> cutShort = Optional.empty();

    WarmupEnd(Warmup warmup) {
        this.warmup = warmup;
    }

    /**
     * Adds one interval and says whether the warm-up is over.
     *
     * @param interval       its answers (good or not) and length
     * @param good           the good answers among them
     * @param elapsedSeconds time since the load started, s, at its end
     */
    boolean add(SteadyState.Interval interval, long good, double elapsedSeconds) {
        samples.add(interval);
        if (good > 0) {
            noGood = 0;
            answersWithoutGood = 0;
        } else {
            noGood++;
            answersWithoutGood += interval.answers();
        }
        steady = SteadyState.check(samples).steady();
        steadySince = !steady ? -1 : steadySince < 0 ? elapsedSeconds : steadySince;
        if (noGood >= NO_GOOD_INTERVALS) {
            cutShort = Optional.of(String.format(Locale.ROOT, "no good answer in its last %.1f s (%s)",
                    NO_GOOD_INTERVALS * SteadyState.INTERVAL_MS / 1000.0, answersWithoutGood == 0
                            ? "no answer at all" : answersWithoutGood + " answers, every one an error"));
            return true;
        }
        double max = warmup.max().toNanos() / 1e9;
        if (elapsedSeconds >= max - SteadyState.INTERVAL_MS / 1e5) {
            return true;
        }
        return warmup instanceof Warmup.Steady s && steady && elapsedSeconds >= s.min().toNanos() / 1e9
                && elapsedSeconds >= 2 * steadySince;
    }

    /** How the warm-up went, once it ended after {@code seconds}. */
    Warmed result(double seconds) {
        return new Warmed(seconds, Optional.of(steady), samples.stream().map(SteadyState.Interval::rate).toList(),
                cutShort);
    }
}
