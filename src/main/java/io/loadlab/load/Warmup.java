package io.loadlab.load;

import io.loadlab.time.Durations;
import java.time.Duration;

/**
 * How long load runs before the measured window: a fixed time, or until the throughput is
 * steady by {@link SteadyState}'s rule, within bounds.
 */
public sealed interface Warmup {

    /** No warm-up: the window starts with the first connection. */
    Warmup NONE = new Fixed(Duration.ZERO);

    /**
     * Exactly {@code length} of load before the window, steady or not, unless the server gives no good
     * answer for a second ({@link WarmupEnd}). The run still says whether the throughput of the
     * warm-up's last {@link SteadyState#WINDOW} intervals was steady.
     *
     * @param length zero or positive
     */
    record Fixed(Duration length) implements Warmup {
        public Fixed {
            if (length == null || length.isNegative()) {
                throw LoadException.usage("warmup: must be zero or positive, got " + length);
            }
        }

        @Override
        public Duration max() {
            return length;
        }

        @Override
        public String describe() {
            return "warm-up " + Durations.format(length);
        }
    }

    /**
     * Load until the throughput is steady by {@link SteadyState}'s rule and the JIT compilers are
     * quiet ({@link WarmupEnd}), at least {@code min} and at most {@code max}; a run that reaches {@code max}
     * first is measured and marked not steady.
     *
     * @param min shortest warm-up, at least one {@link SteadyState#WINDOW} of intervals is used anyway
     * @param max longest warm-up, at least {@code min}
     */
    record Steady(Duration min, Duration max) implements Warmup {
        public Steady {
            if (min == null || min.isNegative()) {
                throw LoadException.usage("warmup min: must be zero or positive, got " + min);
            }
            if (max == null || max.compareTo(min) < 0 || max.compareTo(SteadyState.windowLength()) < 0) {
                throw LoadException.usage("warmup max: must be at least the warm-up min and at least "
                        + Durations.format(SteadyState.windowLength()) + " (the steady-state window), got " + max);
            }
        }

        @Override
        public String describe() {
            return "warm-up until steady (" + Durations.format(min) + " to " + Durations.format(max) + ")";
        }
    }

    /** The most time the warm-up can take. */
    Duration max();

    /** What the warm-up does, for the line a run prints before it starts. */
    String describe();

    /** Whether there is no warm-up at all. */
    default boolean isNone() {
        return this instanceof Fixed f && f.length().isZero();
    }

    /**
     * The warm-up a user asked for: {@code auto} for a steady-state warm-up up to {@code max},
     * else a fixed duration such as {@code 3s} ({@code 0s} for none).
     *
     * @throws io.loadlab.time.DurationException for a text that is neither
     */
    static Warmup parse(String text, Duration max) {
        if (text.trim().equalsIgnoreCase(AUTO)) {
            return steady(max);
        }
        return new Fixed(Durations.parse(text));
    }

    /** The word for a steady-state warm-up on the command line and in {@code experiment.json}. */
    String AUTO = "auto";

    /** The form {@link #parse} reads: {@code auto}, or the fixed duration. */
    default String text() {
        return this instanceof Fixed f ? Durations.format(f.length()) : AUTO;
    }

    /** A steady-state warm-up with the default bounds: 2 s to {@code max}. */
    static Warmup steady(Duration max) {
        return new Steady(SteadyState.windowLength(), max);
    }
}
