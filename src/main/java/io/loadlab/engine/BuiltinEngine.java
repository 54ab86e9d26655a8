package io.loadlab.engine;

import io.loadlab.load.NettyLoad;
import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadResult;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** Loadlab's own Netty engine ({@link NettyLoad}) in this JVM, as an {@link Engine}. */
final class BuiltinEngine implements Engine {

    BuiltinEngine() {
    }

    @Override
    public String label() {
        return "builtin";
    }

    @Override
    public Optional<String> version() {
        return Optional.of("builtin");
    }

    @Override
    public EngineResult run(RunSpec spec, LoadListener window) {
        return of(NettyLoad.run(spec.load(), window));
    }

    /** The engine-neutral form of the built-in engine's result. */
    static EngineResult of(LoadResult r) {
        return new EngineResult("builtin", r.requests(), r.durationSeconds(), OptionalDouble.of(r.rps()),
                OptionalLong.of(r.bytesRead()), OptionalLong.of(r.bytesWritten()),
                EngineResult.errors(r.errors(), r.tls().isPresent(), r.spec().expectation().bodyContains().isPresent()),
                Latency.of(r.latency()), r.serviceTime().map(Latency::of), OptionalDouble.of(r.loadCpuSeconds()),
                OptionalDouble.of(r.processCpuSeconds()), Optional.of(r.loadBound()), r.warmup(),
                r.targetRps().isPresent() ? OptionalLong.of(r.missed()) : OptionalLong.empty(), r.intervals(),
                Optional.of(r.latency()), Optional.empty(), Optional.of(r.protocol().label()));
    }

    @Override
    public boolean sendsWholeRequests() {
        return true;
    }

    @Override
    public String toString() {
        return label();
    }
}
