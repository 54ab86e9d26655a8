package io.loadlab.agent;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The agents a run's load goes to, as a user names them: their addresses, the file holding the
 * shared secret, and optionally their weights (by default each agent's weight is the number of CPUs
 * its load may use, as it reports them).
 *
 * @param addresses  one or more agents, each once
 * @param secretFile the shared secret ({@link Secret#read})
 * @param weights    one positive weight per agent, in the order of {@code addresses}; empty for their CPUs
 */
public record AgentSet(List<HostPort> addresses, Path secretFile, Optional<List<Double>> weights) {

    public AgentSet {
        addresses = List.copyOf(addresses);
        if (addresses.isEmpty()) {
            throw new AgentException("agents: name at least one HOST:PORT");
        }
        if (addresses.stream().distinct().count() != addresses.size()) {
            throw new AgentException("agents: each agent once, got " + addresses);
        }
        if (secretFile == null) {
            throw new AgentException("agents: a --secret-file is required, the file every agent was started with");
        }
        weights = weights.map(List::copyOf);
        int n = addresses.size();
        weights.ifPresent(w -> {
            if (w.size() != n) {
                throw new AgentException("agent weights: " + w.size() + " weights for " + n + " agents");
            }
            if (w.stream().anyMatch(x -> !(x > 0) || x.isInfinite())) {
                throw new AgentException("agent weights: each must be a positive number, got " + w);
            }
        });
    }

    /**
     * Agents from a comma-separated {@code HOST:PORT} list.
     *
     * @throws AgentException for a bad list
     */
    public static AgentSet parse(String commaSeparated, Path secretFile) {
        return new AgentSet(HostPort.list(commaSeparated), secretFile, Optional.empty());
    }

    /** The same agents with these weights. */
    public AgentSet withWeights(List<Double> w) {
        return new AgentSet(addresses, secretFile, Optional.of(w));
    }

    /** The addresses as the command line takes them: {@code HOST:PORT,HOST:PORT}. */
    public String text() {
        return addresses.stream().map(HostPort::toString).collect(Collectors.joining(","));
    }
}
