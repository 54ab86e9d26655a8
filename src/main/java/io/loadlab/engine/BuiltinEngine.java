package io.loadlab.engine;

import io.loadlab.load.ErrorCounts;
import io.loadlab.load.LoadEngine;
import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadResult;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** Loadlab's own Netty engine ({@link LoadEngine}) in this JVM, as an {@link Engine}. */
final class BuiltinEngine implements Engine {

    BuiltinEngine() {
    }

    @Override
    public String label() {
        return "builtin";
    }

    @Override
    public boolean external() {
        return false;
    }

    @Override
    public boolean fixedRate() {
        return true;
    }

    @Override
    public Optional<String> version() {
        return Optional.of("builtin");
    }

    @Override
    public Optional<String> unavailableReason() {
        return Optional.empty();
    }

    @Override
    public Optional<String> cannotRun(String path, List<Duration> durations) {
        return Optional.empty();
    }

    @Override
    public EngineResult run(RunSpec spec, LoadListener window) {
        return of(LoadEngine.run(spec.load(), window));
    }

    /** The engine-neutral form of the built-in engine's result. */
    static EngineResult of(LoadResult r) {
        return new EngineResult("builtin", r.requests(), r.durationSeconds(), OptionalDouble.of(r.rps()),
                OptionalLong.of(r.bytesRead()), OptionalLong.of(r.bytesWritten()), errors(r),
                Latency.of(r.latency()), r.serviceTime().map(Latency::of), OptionalDouble.of(r.loadCpuSeconds()),
                OptionalDouble.of(r.processCpuSeconds()), Optional.of(r.loadBound()), r.warmup(),
                r.targetRps().isPresent() ? OptionalLong.of(r.missed()) : OptionalLong.empty(), r.intervals(),
                Optional.of(r.latency()), Optional.empty(), Optional.of(r.protocol().label()));
    }

    private static Map<String, Long> errors(LoadResult r) {
        ErrorCounts e = r.errors();
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("connect", e.connect());
        m.put("read", e.read());
        m.put("write", e.write());
        m.put("timeout", e.timeout());
        m.put("status", e.status());
        m.put("protocol", e.protocol());
        if (r.tls().isPresent()) {
            m.put("tls", e.tls()); // over TCP the category does not exist: left empty, never 0
        }

        return m;
    }

    @Override
    public String toString() {
        return label();
    }
}
