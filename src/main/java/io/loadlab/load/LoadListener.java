package io.loadlab.load;

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

    /** The warm-up is over; measuring begins now. */
    default void windowStarted() {
    }

    /** One more interval (normally a second) of the window is complete. */
    default void interval(IntervalSample sample) {
    }

    /** The window is over: no more requests are sent or recorded. */
    default void windowEnded() {
    }
}
