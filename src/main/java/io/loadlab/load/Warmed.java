package io.loadlab.load;

import java.util.List;
import java.util.Optional;

/**
 * How a run's warm-up went.
 *
 * @param seconds     how long it ran, s (0 without one)
 * @param steady      whether it was steady at its end: the throughput by {@link SteadyState}'s rule, the
 *                    JIT compilers quiet ({@link SteadyState#MAX_COMPILER_SHARE}) and, at a fixed rate,
 *                    the throughput not above the target ({@link WarmupEnd});
 *                    false without a warm-up, empty for a request-count run (none is allowed)
 * @param intervalRps the throughput of each of its {@link SteadyState#INTERVAL_MS} ms intervals,
 *                    requests/s, in order: what the rule looked at
 * @param cutShort    why it ended before its length or its rule said so, in words that follow
 *                    "the warm-up ended after N s: " (the server gave no good answer); empty otherwise
 */
public record Warmed(double seconds, Optional<Boolean> steady, List<Double> intervalRps, Optional<String> cutShort) {

    public Warmed {
        intervalRps = List.copyOf(intervalRps);
    }

    /** A warm-up that ran its course. */
    public Warmed(double seconds, Optional<Boolean> steady, List<Double> intervalRps) {
        this(seconds, steady, intervalRps, Optional.empty());
    }

    /** No warm-up: nothing established. */
    static Warmed none(boolean requestCount) {
        return new Warmed(0, requestCount ? Optional.empty() : Optional.of(false), List.of());
    }
}
