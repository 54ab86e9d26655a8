package io.loadlab.load;

import java.util.OptionalDouble;

/**
 * Hears a run's progress, on the thread that called {@link NettyLoad#run}. Callbacks must be
 * quick: they run between interval snapshots. A harness uses the window callbacks to sample the
 * server's CPU over exactly the measured window.
 */
public interface LoadListener {

    /** Nothing to hear. */
    LoadListener NONE = new LoadListener() { };

    /** The host resolved and accepted a connection: load starts now (with the warm-up, if any). */
    default void started() {
    }

    /**
     * CPU time, s, that the server's JIT compiler threads have used so far; asked after every
     * warm-up interval, since a steady-state warm-up does not end while they work
     * ({@link SteadyState#MAX_COMPILER_SHARE}). Empty when not known: not a JVM, or not on this host.
     */
    default OptionalDouble serverCompilerSeconds() {
        return OptionalDouble.empty();
    }

    /** The warm-up is over; measuring begins now. */
    default void windowStarted() {
    }

    /** One more interval (normally a second) of the window is complete. */
    default void interval(IntervalSample sample) {
    }

    /** The window is over: no more requests are sent or recorded. */
    default void windowEnded() {
    }

    /**
     * The hypervisor's steal time over the window, s, on the CPUs the listener watches (the load
     * generator's, and the server's where it samples one); asked once, after {@link #windowEnded}.
     * Empty when not measured: no {@code /proc/stat}, or no listener that reads it.
     */
    default OptionalDouble stealSeconds() {
        return OptionalDouble.empty();
    }
}
