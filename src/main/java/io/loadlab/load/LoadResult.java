package io.loadlab.load;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SortedMap;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What one load run measured, over its measured window only (warm-up excluded). Immutable:
 * histogram accessors return copies.
 *
 * @param spec              the spec that ran
 * @param transport         the transport actually used ({@code epoll}, {@code io_uring}, {@code nio})
 * @param start             when the measured window began
 * @param durationSeconds   length of the measured window, s
 * @param requests          complete responses (any status)
 * @param bytesRead         bytes received, headers included
 * @param bytesWritten      bytes of requests sent
 * @param statusCodes       responses per status code
 * @param errors            failed requests by category
 * @param latency           latency, µs; at a fixed rate measured from each request's due time
 * @param serviceTime       at a fixed rate, the time from actual send to answer, µs
 * @param connectTime       time to establish each connection, µs (warm-up connections included)
 * @param intervals         one sample per second of the window (the last may be shorter)
 * @param loadCpuSeconds    CPU time of the engine's event-loop threads in the window, s
 * @param processCpuSeconds CPU time of the whole JVM process in the window, s
 * @param loadCpus          CPUs the engine could use: min(threads, available processors)
 * @param stoppedEarly      a request-count run that ended because nothing progressed for a timeout
 * @param warmup            how the warm-up went: its length, whether it ended steady, its intervals
 * @param missed            at a fixed rate, requests that fell due in the window but were never sent;
 *                          each is in {@code latency} with the wait it had reached at the window's end
 * @param jvm               the window's garbage collections and the event loops' allocations
 * @param protocol          the protocol the connections spoke (for h2 over TLS, negotiated with ALPN)
 * @param tls               what TLS did, for an {@code https://} run
 * @param h2                HTTP/2's events, for an h2 or h2c run
 * @param pacing            at a fixed rate, how late the requests went out against their due times, and
 *                          the wake-up slack that bounds the pacer's share of it; empty in the closed loop
 *                          and for the agents' runs
 * @param stealSeconds      the hypervisor's steal time over the window on the CPUs the run's listener
 *                          watched (the load generator's, and a sampled server's), s, or for a run on agents
 *                          the agents' own summed; empty when not measured (no {@code /proc/stat}, an agent
 *                          that did not say)
 */
public record LoadResult(LoadSpec spec, String transport, Instant start, double durationSeconds,
                         long requests, long bytesRead, long bytesWritten,
                         SortedMap<Integer, Long> statusCodes, ErrorCounts errors,
                         Histogram latency, Optional<Histogram> serviceTime, Histogram connectTime,
                         List<IntervalSample> intervals, double loadCpuSeconds,
                         double processCpuSeconds, int loadCpus, boolean stoppedEarly,
                         Warmed warmup, long missed, JvmUse jvm, Protocol protocol, Optional<TlsSummary> tls,
                         Optional<H2Summary> h2, Optional<Pacing> pacing, OptionalDouble stealSeconds) {

    /** Share of the load CPUs the engine's threads used above which a run is load-bound. */
    public static final double LOAD_BOUND_SHARE = 0.90;
    /** Share of the target rate a fixed-rate run may fall short by before it is flagged. */
    public static final double RATE_SHORTFALL = 0.01;

    public LoadResult {
        statusCodes = Collections.unmodifiableSortedMap(new TreeMap<>(statusCodes));
        latency = latency.copy();
        serviceTime = serviceTime.map(Histogram::copy);
        connectTime = connectTime.copy();
        intervals = List.copyOf(intervals);
    }

    /** A copy of the latency histogram, µs. */
    @Override
    public Histogram latency() {
        return latency.copy();
    }

    /** A copy of the service-time histogram, µs (fixed rate only). */
    @Override
    public Optional<Histogram> serviceTime() {
        return serviceTime.map(Histogram::copy);
    }

    /** A copy of the connect-time histogram, µs. */
    @Override
    public Histogram connectTime() {
        return connectTime.copy();
    }

    /** Responses per second over the measured window. */
    public double rps() {
        return durationSeconds > 0 ? requests / durationSeconds : 0;
    }

    /** Bytes received per second. */
    public double bytesReadPerSecond() {
        return durationSeconds > 0 ? bytesRead / durationSeconds : 0;
    }

    /**
     * What the JVM spent outside the event loops in the window, s: {@code processCpuSeconds -
     * loadCpuSeconds} (collector and compiler threads, the calling thread's snapshots), never below 0.
     */
    public double nonLoopCpuSeconds() {
        return Math.max(0, processCpuSeconds - loadCpuSeconds);
    }

    /** Bytes the event loops allocated per answer in the window; empty when unknown or nothing was answered. */
    public java.util.OptionalDouble loopAllocatedBytesPerRequest() {
        return jvm.loopAllocatedBytes() < 0 || requests == 0 ? java.util.OptionalDouble.empty()
                : java.util.OptionalDouble.of((double) jvm.loopAllocatedBytes() / requests);
    }

    /** Responses per CPU-second of the engine's threads; 0 when no CPU time was measured. */
    public double rpsPerLoadCpuSecond() {
        return loadCpuSeconds > 0 ? requests / loadCpuSeconds : 0;
    }

    /**
     * Whether the load generator, not the server, probably limited this run: its threads used at
     * least {@value #LOAD_BOUND_SHARE} of the CPUs they could use during the window.
     */
    public boolean loadBound() {
        return durationSeconds > 0 && loadCpuSeconds >= LOAD_BOUND_SHARE * loadCpus * durationSeconds;
    }

    /**
     * A one-line description. The record's own form would print every histogram in full, which
     * JShell computes for every value a cell stores.
     */
    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "LoadResult[%s %s: %d requests in %.2f s, %.0f rps, errors %d,"
                        + " p50 %d us, p99 %d us, load CPU %.2f s]", spec.request().method(),
                spec.request().target().url(), requests, durationSeconds, rps(), errors.total(),
                latency.getValueAtPercentile(50), latency.getValueAtPercentile(99), loadCpuSeconds);
    }

    /** How long the warm-up actually ran, s (0 without one). */
    public double warmupSeconds() {
        return warmup.seconds();
    }

    /**
     * Whether the throughput was steady at the end of the warm-up ({@link SteadyState}); false
     * without a warm-up, empty for a request-count run.
     */
    public Optional<Boolean> steady() {
        return warmup.steady();
    }

    /** The target rate of a fixed-rate run, requests/s. */
    public java.util.OptionalDouble targetRps() {
        return spec.model() instanceof LoadModel.FixedRate f ? java.util.OptionalDouble.of(f.requestsPerSecond())
                : java.util.OptionalDouble.empty();
    }

    /**
     * Whether a fixed-rate run fell short of its target: it answered more than
     * {@value #RATE_SHORTFALL} below the target rate, or left requests unsent.
     */
    public boolean rateNotReached() {
        return targetRps().isPresent() && (missed > 0 || rps() < (1 - RATE_SHORTFALL) * targetRps().getAsDouble());
    }

    /** Latency at a percentile (0 to 100), µs. */
    public long latencyAt(double percentile) {
        return latency.getValueAtPercentile(percentile);
    }
}
