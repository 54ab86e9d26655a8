package io.loadlab.load;

import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * State shared by all workers of one run. Only the stop flag and, in a request-count run, the
 * two counters are touched across threads.
 */
final class RunControl {
    final LoadSpec spec;
    final InetSocketAddress address;
    /** The TLS context of an {@code https://} run, shared by every worker; empty over TCP. */
    final Optional<TlsClient> tls;
    final long requestTimeoutNanos;
    /**
     * Nanos between requests of one slot (an HTTP/1.1 connection, an HTTP/2 stream slot) at a fixed
     * rate; 0 in the closed loop.
     */
    final double fixedRateIntervalNanos;
    /** Correct statuses, indexed by code (shared read-only by all connections). */
    final boolean[] statusOk;
    /** What every answer's body must hold; null when anything goes. Immutable, shared by the loops. */
    final BodyMatcher bodyMatcher;
    /** Due time of the first request of the run, {@link System#nanoTime()} base. */
    volatile long startNanos;
    /** Cleared when the run stops issuing requests. */
    volatile boolean sending = true;

    /** Requests not yet sent, in a request-count run; {@code null} otherwise. */
    private final AtomicLong permits;
    /** Requests answered or failed, in a request-count run. */
    private final AtomicLong finished = new AtomicLong();
    private final long total;
    final CountDownLatch allFinished = new CountDownLatch(1);

    RunControl(LoadSpec spec, InetSocketAddress address, Optional<TlsClient> tls) {
        this.spec = spec;
        this.address = address;
        this.tls = tls;
        this.requestTimeoutNanos = spec.requestTimeout().toNanos();
        this.fixedRateIntervalNanos = spec.model() instanceof LoadModel.FixedRate f
                ? 1e9 * spec.slots() / f.requestsPerSecond() : 0;
        this.statusOk = spec.expectation().statusTable();
        this.bodyMatcher = spec.expectation().matcher();
        this.total = spec.requestCount().orElse(-1);
        this.permits = total > 0 ? new AtomicLong(total) : null;
    }

    /** Takes the right to send one more request; {@code false} when the run is done sending. */
    boolean tryAcquire() {
        if (!sending) {
            return false;
        }
        return permits == null || permits.getAndDecrement() > 0;
    }

    /** Records that {@code n} requests ended (answered or failed), in a request-count run. */
    void finished(long n) {
        if (permits != null && n > 0 && finished.addAndGet(n) >= total) {
            sending = false;
            allFinished.countDown();
        }
    }

    /** Requests ended so far in a request-count run (0 otherwise). */
    long finishedCount() {
        return finished.get();
    }
}
