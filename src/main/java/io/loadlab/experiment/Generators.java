package io.loadlab.experiment;

import io.loadlab.agent.AgentEngine;
import io.loadlab.agent.AgentSet;
import io.loadlab.engine.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What generates an experiment's load: the engines, each run once per subject, workload and round (in
 * an order rotated by round), in this JVM or on agents.
 *
 * @param given  the engines as given (what {@code experiment.json} keeps); wrk and h2load run a closed
 *               loop only (oha and the built-in engine also a fixed rate)
 * @param agents agents on other hosts that run the load instead of this JVM (the built-in engine on
 *               each, merged); {@link #engines()} is then their {@link AgentEngine}
 */
public record Generators(List<Engine> given, Optional<AgentSet> agents) {

    /** @throws ExperimentException when no engine is given, one is given twice, or agents would run another */
    public Generators {
        List<String> problems = new ArrayList<>();
        if (given == null || given.isEmpty()) {
            problems.add("engines: name at least one of " + Engine.labels());
        } else {
            given = List.copyOf(given);
            if (given.stream().distinct().count() != given.size()) {
                problems.add("engines: each engine once, got " + given);
            }
        }
        if (agents == null) {
            problems.add("agents: Optional.empty() for none");
        } else if (agents.isPresent() && given != null && !given.equals(List.of(Engine.BUILTIN))) {
            problems.add("agents: they run the built-in engine; drop --engine " + given.stream().map(Engine::label)
                    .toList() + " or drop --agents");
        }
        ExperimentSpec.refuse(problems);
    }

    /** The load generators of each run: the given ones, or the agents' engine when the load runs on agents. */
    public List<Engine> engines() {
        return agents.isPresent() ? List.of(new AgentEngine(agents.get())) : given;
    }
}
