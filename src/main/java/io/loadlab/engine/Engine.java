package io.loadlab.engine;

import io.loadlab.importer.Tool;
import io.loadlab.load.LoadListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Everything that can load a subject for one run of an experiment: Loadlab's own engine in this
 * JVM ({@link #BUILTIN}), or wrk, h2load or oha run as a separate process ({@link ToolEngine},
 * whose {@link Tool} holds what each tool can run), or agents on other hosts. Each takes one run's
 * {@link RunSpec} and gives back one {@link EngineResult}; the runner picks the engine of each planned
 * run and does nothing engine-specific. The label is the value of the {@code engine} column of {@code runs.csv}.
 *
 * <p>Implementations are immutable and thread-safe; one {@link #run} at a time per JVM for the
 * external tools (their CPU is read from this JVM's reaped children).
 */
public interface Engine {

    /** The built-in Netty engine: histograms per second, service time, engine-thread CPU. */
    Engine BUILTIN = new BuiltinEngine();
    /** wrk 4 over HTTP/1.1 and https (closed loop, latency percentiles from {@code --latency}; it verifies no certificate). */
    ToolEngine WRK = new ToolEngine(Tool.WRK, ExternalEngines::wrk);
    /**
     * nghttp2's h2load over HTTP/1.1, h2 or h2c (closed loop; mean, sd, min and max latency only; it
     * verifies no certificate).
     */
    ToolEngine H2LOAD = new ToolEngine(Tool.H2LOAD, ExternalEngines::h2load);
    /**
     * oha over HTTP/1.1, h2 or h2c (closed loop, or a fixed rate with {@code -q} and
     * {@code --latency-correction}; latency percentiles, status codes and errors, TLS ones apart, from
     * {@code --output-format json}; it verifies certificates, trusting {@code --cacert}).
     */
    ToolEngine OHA = new ToolEngine(Tool.OHA, ExternalEngines::oha);

    /** The name users type and the {@code engine} column holds. */
    String label();

    /**
     * Whether the engine runs as a separate process, whose output is kept with the experiment;
     * false by default: the engines in this JVM (the built-in one, and it on agents).
     */
    default boolean external() {
        return false;
    }

    /**
     * Whether the engine can load at a fixed rate ({@code run --rate}); wrk and h2load cannot. True
     * by default: the built-in engine's pacing, wherever it runs.
     */
    default boolean fixedRate() {
        return true;
    }

    /**
     * The engine's version line for {@code experiment.json}, such as {@code wrk debian/4.1.0-3+b2
     * [epoll] ...}; {@code builtin} for the built-in engine; empty when a tool does not say in 5 s.
     */
    Optional<String> version();

    /** Why the engine cannot run here (its command is not found), or empty when it can (the default). */
    default Optional<String> unavailableReason() {
        return Optional.empty();
    }

    /**
     * Why the engine cannot run this request path or these durations, or empty when it can.
     *
     * @param durations the durations it would run for (window, warm-up); zero ones are skipped
     * @return empty by default: an engine that runs any request
     */
    default Optional<String> cannotRun(String path, List<Duration> durations) {
        return Optional.empty();
    }

    /**
     * Whether the engine sends a workload's own headers and given body and checks its {@code body-contains}
     * (a project's workloads); an engine that does not is left out of such workloads, never run with a
     * request other than the one declared.
     *
     * @return false by default
     */
    default boolean sendsWholeRequests() {
        return false;
    }

    /**
     * Why the engine cannot speak {@code protocol} over TCP ({@code tls} false) or TLS ({@code tls} true), in
     * one line users read, or empty when it can: the default, the built-in engine speaks them all.
     *
     * @param tls whether the connections are TLS ({@code https://}); h2 always is, h2c never
     */
    default Optional<String> cannotSpeak(io.loadlab.load.Protocol protocol, boolean tls) {
        return Optional.empty();
    }

    /**
     * Runs one run: its warm-up, then its measured window, telling {@code window} when the window
     * starts and ends (the harness reads the server's CPU then).
     *
     * @throws io.loadlab.load.LoadException when the target refuses or does not resolve
     * @throws EngineException when a tool cannot start, fails or prints what cannot be read
     */
    EngineResult run(RunSpec spec, LoadListener window);

    /** Every engine there is, in the order {@link #labels()} lists them. */
    static List<Engine> all() {
        return List.of(BUILTIN, WRK, H2LOAD, OHA);
    }

    /** The engine named {@code label}, case-insensitively. */
    static Engine of(String label) {
        for (Engine e : all()) {
            if (e.label().equalsIgnoreCase(label.trim())) {
                return e;
            }
        }
        throw new EngineException("unknown engine '" + label + "': choose from " + labels());
    }

    /**
     * Engines from a comma-separated list such as {@code builtin,wrk}, in the order given.
     *
     * @throws EngineException for an unknown, repeated or empty name
     */
    static List<Engine> list(String commaSeparated) {
        List<Engine> out = new ArrayList<>();
        for (String part : commaSeparated.split(",", -1)) {
            if (part.isBlank()) {
                throw new EngineException("engine list '" + commaSeparated + "' has an empty name; write for"
                        + " example builtin,wrk");
            }
            Engine e = of(part);
            if (out.contains(e)) {
                throw new EngineException("engine list '" + commaSeparated + "' names " + e.label() + " twice");
            }
            out.add(e);
        }
        return List.copyOf(out);
    }

    /** The labels, as in {@code builtin, wrk, h2load, oha}. */
    static String labels() {
        return all().stream().map(Engine::label).collect(Collectors.joining(", "));
    }
}
