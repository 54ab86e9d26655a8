package io.loadlab.cli;

import io.loadlab.agent.AgentSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --agents}, {@code --secret-file} and {@code --agent-weights}, shared by {@code load} and {@code run}. */
final class AgentOptions {

    @Option(names = "--agents", paramLabel = "HOST:PORT[,...]",
            description = {"run the load on these agents (loadlab agent) instead of in this JVM:",
                    "-c, -R and load's -n are split over them by weight, their histograms",
                    "merged per second; -t is per agent. In run the engine column is",
                    "'agents', and subjects on this host listen where the agents reach them"})
    String agents;

    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "the agents' shared secret (with --agents, or run's --subject-host)")
    Path secretFile;

    @Option(names = "--agent-weights", paramLabel = "W[,W...]",
            description = "each agent's share, in --agents order (default: the CPUs each agent has)")
    String weights;

    /** The agents given, or empty; {@code --agents} and {@code --secret-file} go together. */
    Optional<AgentSet> agentSet() {
        return agentSet(false);
    }

    /** As {@link #agentSet()}; {@code secretShared}: {@code --secret-file} also serves {@code run --subject-host}. */
    Optional<AgentSet> agentSet(boolean secretShared) {
        if (agents == null && (secretFile == null || secretShared)) {
            return Optional.empty();
        }
        if (agents == null || secretFile == null) {
            throw new CliException("--agents and --secret-file go together: give both", Main.EXIT_USAGE);
        }
        AgentSet set = AgentSet.parse(agents, secretFile);
        if (weights == null) {
            return Optional.of(set);
        }
        List<Double> w = new ArrayList<>();
        for (String part : weights.split(",", -1)) {
            try {
                w.add(Double.parseDouble(part.trim()));
            } catch (NumberFormatException e) {
                throw new CliException("--agent-weights: '" + part + "' is not a number", Main.EXIT_USAGE);
            }
        }
        return Optional.of(set.withWeights(w));
    }
}
