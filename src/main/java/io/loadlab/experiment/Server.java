package io.loadlab.experiment;

import io.loadlab.load.LoadListener;
import io.loadlab.subject.ServerSampler;
import java.util.List;
import java.util.Optional;

/**
 * One subject process started for a round's runs of one instance, ready to answer: on this host
 * ({@link Servers#local}), or on a subject host's agent ({@link Servers#remote}). The runner and
 * {@link Measurement} see only this: where the load reaches it, whether it still runs, and a sampler
 * of its window. Not thread-safe; {@link #close} stops it by pid, wherever it runs.
 */
interface Server extends AutoCloseable {

    /** The address the load reaches it at: {@code 127.0.0.1} here, the agent's listen host there. */
    String host();

    /** Its TCP port. */
    int port();

    /**
     * How long its process has run: from the process's start here; from its readiness (a little less)
     * on a subject host, whose clock this host does not share. Zero where the system does not say.
     */
    java.time.Duration age();

    /** Whether its root process still runs (for a remote one: as its agent last said, asked now). */
    boolean isAlive();

    /** Its exit code once it ended, when known. */
    Optional<Integer> exitCode();

    /** The last {@code lines} lines of its output, for a failed row. */
    String logTail(int lines);

    /**
     * A sampler of the next run's window, to hand to the engine as its listener.
     *
     * @param cpus the CPUs whose other use is noise on this host; empty for the whole machine
     */
    Sampler sampler(List<Integer> cpus);

    /** Stops the subject (SIGTERM, then SIGKILL after a grace period) and everything it started. */
    @Override
    void close();

    /** Hears the window's start and end, and then has its figures. */
    interface Sampler extends LoadListener {
        /** The server's CPU and peak RSS over the window, and its host's noise; empty ones where not measured. */
        ServerSampler.Window reading();
    }
}
