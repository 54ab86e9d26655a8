package io.loadlab.agent;

import io.loadlab.load.LoadSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A run made ready on its agents: their clocks measured, the load split by weight, each agent's share
 * prepared (each checked that it reaches the target), or the agents that refused named.
 *
 * @param spec    the run as asked
 * @param phases  how warm-up and window map onto the agents' engines
 * @param shares  each agent's share, as sent
 * @param clocks  each agent's clock offset and CPUs
 * @param weights each agent's weight
 * @param refused a failed result naming the agents that refused or did not answer, if any did
 */
record Setup(LoadSpec spec, Split.Phases phases, List<LoadSpec> shares, List<AgentLink.Clocked> clocks,
             List<Double> weights, Optional<RemoteResult> refused) {

    /** Time an agent has to answer a probe or a prepare beyond the connect timeout, ms. */
    static final long ANSWER_MS = 5000;
    /** What an agent may load beyond the run's planned length before it stops by itself, ms. */
    static final long LIMIT_SLACK_MS = 15_000;

    static Setup prepare(List<AgentLink> links, AgentSet agents, LoadSpec spec) {
        Duration answer = spec.connectTimeout().plusMillis(ANSWER_MS);
        List<AgentLink.Clocked> clocks = new ArrayList<>();
        List<AgentOutcome> refused = new ArrayList<>();
        for (AgentLink l : links) {
            try {
                clocks.add(l.clock(Coordinator.CLOCK_PROBES, answer));
            } catch (AgentException e) {
                clocks.add(null);
                refused.add(AgentOutcome.absent(l.address, "unreachable", e.getMessage()));
            }
        }
        if (!refused.isEmpty()) {
            return failed(spec, agents, clocks, refused);
        }
        List<Double> weights = agents.weights().orElseGet(() -> clocks.stream().map(c -> (double) c.cpus()).toList());
        Split.Phases phases = Split.Phases.of(spec);
        List<LoadSpec> split = Split.shares(phases.perAgent(), weights);
        List<LoadSpec> shares = new ArrayList<>();
        long limit = runLimitMs(phases);
        for (AgentLink l : links) {
            LoadSpec share = l.localTarget(split.get(l.index));
            shares.add(share);
            l.send(new Message.Prepare(l.session(), Cluster.REPLIES + l.session(), l.clientUuid(),
                    SpecCodec.toJson(share), limit));
        }
        for (AgentLink l : links) {
            String why = answer(l, answer);
            if (why != null) {
                refused.add(AgentOutcome.absent(l.address, "refused", why));
            }
        }
        Setup s = new Setup(spec, phases, shares, clocks, weights, Optional.empty());
        if (!refused.isEmpty()) {
            return failed(spec, agents, clocks, refused);
        }
        return s;
    }

    /** Null when the agent is ready, else why not. */
    private static String answer(AgentLink l, Duration timeout) {
        try {
            Message m = l.take(timeout);
            if (m instanceof Message.Ready) {
                return null;
            }
            return m instanceof Message.Refused r ? "agent " + l.address + " refused the run: " + r.error()
                    : "agent " + l.address + " answered the run with " + m;
        } catch (AgentException e) {
            return e.getMessage();
        }
    }

    private static Setup failed(LoadSpec spec, AgentSet agents, List<AgentLink.Clocked> clocks,
                                List<AgentOutcome> refused) {
        return new Setup(spec, Split.Phases.of(spec), List.of(), clocks, List.of(),
                Optional.of(Outcomes.failedBeforeStart(agents.addresses(), refused)));
    }

    /** The longest an agent may load in this run, from its prepare, ms: it stops then whatever else happens. */
    static long runLimitMs(Split.Phases p) {
        if (p.perAgent().duration().isEmpty()) {
            return Duration.ofHours(1).toMillis();
        }
        return p.fixedWarmupMs() + p.perAgent().duration().get().toMillis() + LIMIT_SLACK_MS;
    }

    /**
     * Tells every agent to start at one instant, on its own clock.
     *
     * @return that instant on the coordinator's clock, ms
     */
    double start(List<AgentLink> links) {
        double maxRtt = clocks.stream().mapToDouble(c -> c.offset().rttMs()).max().orElse(0);
        double t0 = AgentLink.Clock.nowMs() + Math.max(Coordinator.START_LEAD_MS, 4 * maxRtt);
        for (AgentLink l : links) {
            l.send(new Message.Start(l.session(), Math.round(t0 + clocks.get(l.index).offset().offsetMs())));
        }
        return t0;
    }

    /** Each agent's clock offset, ms. */
    double[] offsets() {
        return clocks.stream().mapToDouble(c -> c.offset().offsetMs()).toArray();
    }
}
