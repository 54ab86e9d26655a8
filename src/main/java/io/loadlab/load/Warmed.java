package io.loadlab.load;

import java.util.List;
import java.util.Optional;

/**
 * How a run's warm-up went.
 *
 * @param seconds     how long it ran, s (0 without one)
 * @param steady      whether the throughput was steady at its end by {@link SteadyState}'s rule;
 *                    false without a warm-up, empty for a request-count run (none is allowed)
 * @param intervalRps the throughput of each of its {@link SteadyState#INTERVAL_MS} ms intervals,
 *                    requests/s, in order: what the rule looked at
 */
public record Warmed(double seconds, Optional<Boolean> steady, List<Double> intervalRps) {

    public Warmed {
        intervalRps = List.copyOf(intervalRps);
    }

    /** No warm-up: nothing established. */
    static Warmed none(boolean requestCount) {
        return new Warmed(0, requestCount ? Optional.empty() : Optional.of(false), List.of());
    }
}
