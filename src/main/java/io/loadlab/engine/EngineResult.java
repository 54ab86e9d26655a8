package io.loadlab.engine;

import io.loadlab.load.ErrorCounts;
import io.loadlab.load.IntervalSample;
import io.loadlab.load.Warmed;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What one run of any {@link Engine} measured, over its window. A figure the engine does not
 * measure is empty, never 0.
 *
 * @param engine            the engine's label
 * @param requests          complete answers in the window
 * @param durationSeconds   the window's length, s
 * @param rps               answers per second as the engine reports it
 * @param bytesRead         bytes received, headers included
 * @param bytesWritten      bytes of requests sent
 * @param errors            failed requests by category ({@code connect}, {@code read}, {@code write},
 *                          {@code timeout}, {@code status}, {@code protocol}, {@code tls}); a category the
 *                          engine does not count (or the run cannot have: {@code tls} over TCP) is absent
 * @param latency           latency, µs; at a fixed rate from each request's due time
 * @param serviceTime       at a fixed rate, from the actual send, µs
 * @param loadCpuSeconds    the load generator's CPU in the window: the built-in engine's event-loop
 *                          threads, or the tool's process, s
 * @param processCpuSeconds the whole load process's CPU in the window (the JVM, or the tool), s
 * @param loadBound         whether the load generator used at least 90% of its CPUs
 * @param warmup            how the warm-up went
 * @param missed            at a fixed rate, requests due in the window but never sent
 * @param intervals         per-second samples with their histograms (the built-in engine), else empty
 * @param histogram         the window's latency histogram, µs, where the engine has one
 * @param output            the tool's kept output, where there is one
 * @param parts             the figures of each of several load generators (agents on other hosts), in
 *                          the columns of {@code agents.csv}; empty for one generator
 * @param failure           why the run does not count although it measured something (an agent was lost
 *                          mid-run: the figures are those before the loss), naming the part
 * @param protocol          the protocol the run spoke ({@code http/1.1}, {@code h2}, {@code h2c}), where known
 */
public record EngineResult(String engine, long requests, double durationSeconds, OptionalDouble rps,
                           OptionalLong bytesRead, OptionalLong bytesWritten, Map<String, Long> errors,
                           Latency latency, Optional<Latency> serviceTime, OptionalDouble loadCpuSeconds,
                           OptionalDouble processCpuSeconds, Optional<Boolean> loadBound, Warmed warmup,
                           OptionalLong missed, List<IntervalSample> intervals, Optional<Histogram> histogram,
                           Optional<Path> output, List<Part> parts, Optional<String> failure,
                           Optional<String> protocol) {

    /**
     * One load generator's part of a run.
     *
     * @param name   the generator (an agent's {@code HOST:PORT})
     * @param values its figures by {@code agents.csv} column; an unmeasured one is absent
     */
    public record Part(String name, Map<String, String> values) {
        public Part {
            values = Map.copyOf(values);
        }
    }

    public EngineResult {
        errors = Map.copyOf(new TreeMap<>(errors));
        intervals = List.copyOf(intervals);
        histogram = histogram.map(Histogram::copy);
        parts = List.copyOf(parts);
    }

    /** A run of one load generator that counts. */
    public EngineResult(String engine, long requests, double durationSeconds, OptionalDouble rps,
                        OptionalLong bytesRead, OptionalLong bytesWritten, Map<String, Long> errors,
                        Latency latency, Optional<Latency> serviceTime, OptionalDouble loadCpuSeconds,
                        OptionalDouble processCpuSeconds, Optional<Boolean> loadBound, Warmed warmup,
                        OptionalLong missed, List<IntervalSample> intervals, Optional<Histogram> histogram,
                        Optional<Path> output, Optional<String> protocol) {
        this(engine, requests, durationSeconds, rps, bytesRead, bytesWritten, errors, latency, serviceTime,
                loadCpuSeconds, processCpuSeconds, loadBound, warmup, missed, intervals, histogram, output, List.of(),
                Optional.empty(), protocol);
    }

    /** Error counts by category as the {@code errors} of a result: every category the built-in engine counts. */
    public static Map<String, Long> errors(ErrorCounts e) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("connect", e.connect());
        m.put("read", e.read());
        m.put("write", e.write());
        m.put("timeout", e.timeout());
        m.put("status", e.status());
        m.put("protocol", e.protocol());
        return m;
    }

    /**
     * As {@link #errors(ErrorCounts)}, with the {@code tls} category where the run spoke TLS and the
     * {@code body} category where it looked into bodies: where a category cannot happen it is left
     * absent, never 0.
     */
    public static Map<String, Long> errors(ErrorCounts e, boolean tls, boolean bodies) {
        Map<String, Long> m = errors(e);
        if (tls) {
            m.put("tls", e.tls());
        }
        if (bodies) {
            m.put("body", e.body());
        }
        return m;
    }

    /** A copy of the window's latency histogram, µs. */
    @Override
    public Optional<Histogram> histogram() {
        return histogram.map(Histogram::copy);
    }

    /** One line: a result holds histograms, whose full text JShell would build for a stored value. */
    @Override
    public String toString() {
        return "EngineResult[" + engine + ": " + requests + " answers in " + String.format(java.util.Locale.ROOT,
                "%.2f", durationSeconds) + " s, errors " + errors.values().stream().mapToLong(Long::longValue).sum() + "]";
    }
}
