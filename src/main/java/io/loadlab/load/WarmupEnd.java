package io.loadlab.load;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

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
 *   <li><b>Steady, compilers done</b> (steady-state warm-up only, and not before its minimum):
 *       {@link SteadyState}'s rule holds, and the JIT compilers, the server's where its sampler knows
 *       them and this engine's own, used at most {@link SteadyState#MAX_COMPILER_SHARE} of a CPU over
 *       the same intervals. No rule that looks at the throughput alone can tell a final level from a
 *       JIT plateau: java-netty once read 127k requests/s "steady after 5.0 s" while its other runs
 *       read 185-197k, and its compiler threads take 40-60% of its core for its first 3-5 s. The
 *       compilers say it directly. (Before, the rule had to hold as long again as it took to first
 *       hold; over 10 rounds that made warm-ups 9-19 s and the worst plaintext/json ratio no better.)
 *       A server without compiler threads (Go, Rust, C++), or one this host cannot see, is judged
 *       on its throughput and its manifest's minimum. At a fixed rate the rule's intervals must also
 *       not be above the target ({@link #onSchedule}).</li>
 * </ol>
 */
final class WarmupEnd {

    /** Intervals in a row without a good answer that end the warm-up: 1 s. */
    static final int NO_GOOD_INTERVALS = 2;

    private final Warmup warmup;
    /** At a fixed rate the target, requests/s; NaN in the closed loop. */
    private final double targetRate;
    private final List<SteadyState.Interval> samples = new ArrayList<>();
    /** The compilers' time so far at the warm-up's start, then after each interval. */
    private final List<CompilerTime> compilers = new ArrayList<>();
    private int noGood;
    private long answersWithoutGood;
    private boolean steady;
    private Optional<String> cutShort = Optional.empty();

    /**
     * @param start      the compilers' time so far when the load started
     * @param targetRate at a fixed rate the target, requests/s; NaN in the closed loop
     */
    WarmupEnd(Warmup warmup, CompilerTime start, double targetRate) {
        this.warmup = warmup;
        this.targetRate = targetRate;
        compilers.add(start);
    }

    /**
     * Adds one interval and says whether the warm-up is over.
     *
     * @param interval       its answers (good or not) and length
     * @param good           the good answers among them
     * @param elapsedSeconds time since the load started, s, at its end
     * @param compiled       the compilers' time so far, at its end
     */
    boolean add(SteadyState.Interval interval, long good, double elapsedSeconds, CompilerTime compiled) {
        samples.add(interval);
        compilers.add(compiled);
        if (good > 0) {
            noGood = 0;
            answersWithoutGood = 0;
        } else {
            noGood++;
            answersWithoutGood += interval.answers();
        }
        steady = SteadyState.check(samples).steady() && compilersQuiet() && onSchedule();
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
        return warmup instanceof Warmup.Steady s && steady && elapsedSeconds >= s.min().toNanos() / 1e9;
    }

    /**
     * At a fixed rate, whether the rule's last {@link SteadyState#WINDOW} intervals answered no faster
     * than the target, within {@link SteadyState#MAX_TREND} or their counting noise. Faster, the engine
     * is still sending what fell due while it or the server was behind: at 200,000/s such a warm-up's
     * intervals read 207,000 to 229,000/s, which the flat-within-noise test took as steady. Slower is
     * the server's or the engine's limit, which the window measures ({@code missed}, {@code load_bound}).
     * Always true in the closed loop.
     */
    private boolean onSchedule() {
        if (Double.isNaN(targetRate)) {
            return true;
        }
        int n = samples.size();
        if (n < SteadyState.WINDOW) {
            return false;
        }
        long answers = 0;
        double seconds = 0;
        for (SteadyState.Interval i : samples.subList(n - SteadyState.WINDOW, n)) {
            answers += i.answers();
            seconds += i.seconds();
        }
        double tolerance = Math.max(SteadyState.MAX_TREND, SteadyState.countingNoise(answers, SteadyState.WINDOW));
        return seconds > 0 && answers / seconds <= targetRate * (1 + tolerance);
    }

    /** Whether each compiler known at both ends of the rule's last intervals was quiet over them. */
    private boolean compilersQuiet() {
        int n = samples.size();
        if (n < SteadyState.WINDOW) {
            return false;
        }
        double span = samples.subList(n - SteadyState.WINDOW, n).stream().mapToDouble(SteadyState.Interval::seconds).sum();
        CompilerTime from = compilers.get(n - SteadyState.WINDOW);
        CompilerTime to = compilers.get(n);
        return SteadyState.compilersQuiet(from.server(), to.server(), span)
                && SteadyState.compilersQuiet(from.engine(), to.engine(), span);
    }

    /** How the warm-up went, once it ended after {@code seconds}. */
    Warmed result(double seconds) {
        return new Warmed(seconds, Optional.of(steady), samples.stream().map(SteadyState.Interval::rate).toList(),
                cutShort);
    }

    /**
     * CPU time, s, that JIT compilers have used so far.
     *
     * @param server the server's compiler threads ({@link LoadListener#serverCompilerSeconds}); empty when not known
     * @param engine this engine's JVM ({@link #engineSeconds}); empty when not known
     */
    record CompilerTime(OptionalDouble server, OptionalDouble engine) {

        /**
         * This JVM's compilation time, s: HotSpot's elapsed time in compilations, summed over its
         * compiler threads (close to their CPU time while they are not preempted). Empty for a JVM
         * that does not count it.
         */
        static OptionalDouble engineSeconds() {
            CompilationMXBean c = ManagementFactory.getCompilationMXBean();
            return c == null || !c.isCompilationTimeMonitoringSupported() ? OptionalDouble.empty()
                    : OptionalDouble.of(c.getTotalCompilationTime() / 1e3);
        }
    }
}
