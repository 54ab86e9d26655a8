package io.loadlab.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One closed-loop run of an external tool against a subject on loopback.
 *
 * @param engine      {@link Engine#WRK} or {@link Engine#H2LOAD}
 * @param method      HTTP method, such as {@code GET} or {@code PUT}
 * @param host        host to connect to, such as {@code 127.0.0.1}
 * @param port        TCP port
 * @param path        request path; may hold {@code {rand:LO-HI}} and {@code {seq}} as the built-in
 *                    engine's template does (see {@link ExternalEngines#cannotRun})
 * @param bodySize    request body in bytes, the same printable bytes the built-in engine sends
 * @param connections concurrent connections, 1 or more
 * @param threads     tool threads, 1 to {@code connections}
 * @param duration    how long the tool loads the subject; whole seconds for wrk
 * @param cpus        CPUs to pin the tool to (taskset list); empty to leave it unpinned
 * @param seed        seed of the random keys of {@code {rand:LO-HI}}
 */
public record ExternalLoad(Engine engine, String method, String host, int port, String path, int bodySize,
                           int connections, int threads, Duration duration, Optional<String> cpus, long seed) {

    public ExternalLoad {
        Objects.requireNonNull(engine, "engine");
        if (!engine.external()) {
            throw new EngineException("ExternalLoad is for wrk and h2load, not the built-in engine");
        }
        if (connections < 1 || threads < 1 || threads > connections) {
            throw new EngineException(engine.label() + " needs 1 <= threads <= connections, got " + threads
                    + " threads and " + connections + " connections");
        }
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(cpus, "cpus");
    }

    /** The same load for another duration (the warm-up). */
    public ExternalLoad withDuration(Duration d) {
        return new ExternalLoad(engine, method, host, port, path, bodySize, connections, threads, d, cpus, seed);
    }

    /** The URL without substitutions applied. */
    String url() {
        return "http://" + host + ":" + port;
    }
}
