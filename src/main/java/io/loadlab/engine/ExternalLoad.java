package io.loadlab.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One run of an external tool against a subject on loopback: a closed loop, or at a fixed rate for
 * the tools that can ({@link Engine#fixedRate()}).
 *
 * @param engine      {@link Engine#WRK}, {@link Engine#H2LOAD} or {@link Engine#OHA}
 * @param method      HTTP method, such as {@code GET} or {@code PUT}
 * @param host        host to connect to, such as {@code 127.0.0.1}
 * @param port        TCP port
 * @param path        request path; may hold {@code {rand:LO-HI}} and {@code {seq}} as the built-in
 *                    engine's template does (see {@link Engine#cannotRun})
 * @param bodySize    request body in bytes, the same printable bytes the built-in engine sends
 * @param connections concurrent connections, 1 or more
 * @param threads     tool threads, 1 to {@code connections}
 * @param duration    how long the tool loads the subject; whole seconds for wrk
 * @param cpus        CPUs to pin the tool to (taskset list); empty to leave it unpinned
 * @param seed        seed of the random keys of {@code {rand:LO-HI}}
 * @param rate        requests per second over all connections; empty for a closed loop
 * @param wire        the protocol, TLS and streams; one the tool cannot speak is refused
 *                    ({@link Engine#cannotSpeak})
 */
public record ExternalLoad(Engine engine, String method, String host, int port, String path, int bodySize,
                           int connections, int threads, Duration duration, Optional<String> cpus, long seed,
                           OptionalDouble rate, ToolProtocol wire) {

    public ExternalLoad {
        Objects.requireNonNull(engine, "engine");
        if (!(engine instanceof ToolEngine)) {
            throw new EngineException("ExternalLoad is for wrk, h2load and oha, not the built-in engine");
        }
        Objects.requireNonNull(rate, "rate");
        if (rate.isPresent() && (!engine.fixedRate() || !(rate.getAsDouble() > 0))) {
            throw new EngineException(engine.fixedRate() ? engine.label() + " needs a rate above 0, got "
                    + rate.getAsDouble() : engine.label() + " runs a closed loop only; use --engine oha or builtin"
                    + " for a fixed rate");
        }
        if (connections < 1 || threads < 1 || threads > connections) {
            throw new EngineException(engine.label() + " needs 1 <= threads <= connections, got " + threads
                    + " threads and " + connections + " connections");
        }
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(cpus, "cpus");
        Objects.requireNonNull(wire, "wire");
        engine.cannotSpeak(wire.protocol(), wire.tls()).ifPresent(why -> {
            throw new EngineException(why);
        });
    }

    /** A closed-loop run over plain HTTP/1.1. */
    public ExternalLoad(Engine engine, String method, String host, int port, String path, int bodySize,
                        int connections, int threads, Duration duration, Optional<String> cpus, long seed) {
        this(engine, method, host, port, path, bodySize, connections, threads, duration, cpus, seed,
                OptionalDouble.empty(), ToolProtocol.H1);
    }

    /** The same load for another duration (the warm-up). */
    public ExternalLoad withDuration(Duration d) {
        return new ExternalLoad(engine, method, host, port, path, bodySize, connections, threads, d, cpus, seed, rate, wire);
    }

    /** The same load at a fixed rate, or a closed loop when {@code r} is empty. */
    public ExternalLoad withRate(OptionalDouble r) {
        return new ExternalLoad(engine, method, host, port, path, bodySize, connections, threads, duration, cpus, seed, r, wire);
    }

    /** The same load over another protocol. */
    public ExternalLoad over(ToolProtocol w) {
        return new ExternalLoad(engine, method, host, port, path, bodySize, connections, threads, duration, cpus, seed,
                rate, w);
    }

    /** The tool that runs this load. */
    ToolEngine tool() {
        return (ToolEngine) engine;
    }

    /** The URL without its path: {@code http://} or {@code https://}, host and port. */
    String url() {
        return wire.scheme() + "://" + host + ":" + port;
    }
}
