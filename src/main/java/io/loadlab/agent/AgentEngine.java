package io.loadlab.agent;

import io.loadlab.data.AgentRows;
import io.loadlab.data.AgentRows.Column;
import io.loadlab.engine.Engine;
import io.loadlab.engine.EngineException;
import io.loadlab.engine.EngineResult;
import io.loadlab.engine.Latency;
import io.loadlab.engine.RunSpec;
import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadResult;
import io.loadlab.load.Protocol;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The built-in engine run on agents, as an {@link Engine}: the runner hands it a run's spec as to any
 * engine and gets the merged result back, each agent's figures as its parts. A target on this host's
 * loopback (the runner's subjects) is loaded at this host's address as each agent reaches it. The
 * label, {@code agents}, is the {@code engine} column of its runs, so analyses never pool them with
 * runs loaded from this host. Immutable; one run at a time.
 */
public final class AgentEngine implements Engine {

    /** The label of runs loaded by agents. */
    public static final String LABEL = "agents";

    private final AgentSet agents;

    public AgentEngine(AgentSet agents) {
        this.agents = agents;
    }

    /** The agents it loads from. */
    public AgentSet agents() {
        return agents;
    }

    @Override
    public String label() {
        return LABEL;
    }

    @Override
    public Optional<String> version() {
        return Optional.of("builtin on agents " + agents.text() + " (" + Agent.VERSION + ")");
    }

    /**
     * Agents load over plain HTTP/1.1 only: the spec an agent receives ({@code SpecCodec}) carries no
     * protocol, streams or TLS settings, so anything else would quietly run as plain HTTP/1.1.
     */
    @Override
    public Optional<String> cannotSpeak(Protocol protocol, boolean tls) {
        if (protocol != Protocol.HTTP_1_1) {
            return Optional.of("agents run plain HTTP/1.1 only, not " + protocol.label());
        }
        return tls ? Optional.of("agents run plain HTTP/1.1 only, not HTTP/1.1 over TLS") : Optional.empty();
    }

    /**
     * @throws EngineException naming the agents when the run could not start or measured nothing, or when
     *                         its protocol or TLS is one they cannot speak ({@link #cannotSpeak})
     */
    @Override
    public EngineResult run(RunSpec spec, LoadListener window) {
        cannotSpeak(spec.load().protocol(), spec.load().request().target().tls()).ifPresent(why -> {
            throw new EngineException(why);
        });
        RemoteResult r;
        try {
            r = new Coordinator(agents, spec.load().connectTimeout().plusSeconds(5)).run(spec.load(), window);
        } catch (AgentException e) {
            throw new EngineException(e.getMessage(), e);
        }
        if (r.merged().isEmpty()) {
            throw new EngineException(r.error().orElse("the agents measured nothing"));
        }
        return of(r, r.merged().get());
    }

    private static EngineResult of(RemoteResult r, LoadResult m) {
        return new EngineResult(LABEL, m.requests(), m.durationSeconds(), OptionalDouble.of(m.rps()),
                OptionalLong.of(m.bytesRead()), m.statusCodes().isEmpty() ? OptionalLong.empty()
                : OptionalLong.of(m.bytesWritten()), EngineResult.errors(m.errors()), Latency.of(m.latency()),
                m.serviceTime().map(Latency::of), OptionalDouble.of(m.loadCpuSeconds()),
                OptionalDouble.of(m.processCpuSeconds()), Optional.of(r.loadBound()),
                m.warmup(), m.targetRps().isPresent() ? OptionalLong.of(m.missed()) : OptionalLong.empty(),
                m.intervals(), Optional.of(m.latency()), Optional.empty(),
                r.agents().stream().map(AgentEngine::part).toList(), r.ok() ? Optional.empty() : r.error(),
                Optional.of(m.protocol().label()));
    }

    /** An agent's figures in the columns of {@code agents.csv} ({@link AgentRows.Column}), which the store writes. */
    static EngineResult.Part part(AgentOutcome a) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put(Column.AGENT.id(), a.address().toString());
        v.put(Column.WEIGHT.id(), num(a.weight()));
        v.put(Column.CONNECTIONS.id(), Integer.toString(a.connections()));
        v.put(Column.THREADS.id(), Integer.toString(a.threads()));
        a.targetRps().ifPresent(x -> v.put(Column.TARGET_RPS.id(), num(x)));
        v.put(Column.REQUESTS.id(), Long.toString(a.requests()));
        v.put(Column.RPS.id(), num(a.rps()));
        v.put(Column.ERRORS.id(), Long.toString(a.errors().total()));
        v.put(Column.LOAD_CPU_S.id(), num(a.loadCpuSeconds()));
        v.put(Column.LOAD_BOUND.id(), Boolean.toString(a.loadBound()));
        a.stealSeconds().ifPresent(x -> v.put(Column.STEAL_S.id(), num(x)));
        v.put(Column.CLOCK_OFFSET_US.id(), Long.toString(a.clockOffsetUs()));
        v.put(Column.CLOCK_RTT_US.id(), Long.toString(a.rttUs()));
        v.put(Column.START_LAG_MS.id(), Long.toString(a.startLagMs()));
        v.put(Column.STATUS.id(), a.status());
        v.put(Column.ERROR.id(), a.error().orElse(""));
        return new EngineResult.Part(a.address().toString(), v);
    }

    private static String num(double x) {
        return String.format(Locale.ROOT, "%.3f", x);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AgentEngine a && a.agents.equals(agents);
    }

    @Override
    public int hashCode() {
        return agents.hashCode();
    }

    @Override
    public String toString() {
        return "agents " + agents.text();
    }
}
