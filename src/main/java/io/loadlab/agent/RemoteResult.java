package io.loadlab.agent;

import io.loadlab.load.LoadResult;
import java.util.List;
import java.util.Optional;

/**
 * A run on agents: the merged result, each agent's part, and whether every agent finished.
 *
 * @param status {@code ok} (every agent finished its share of the window), {@code partial} (an agent
 *               was lost or failed during the window: the merged figures hold the intervals before
 *               that, and {@code error} names it), or {@code failed} (it never measured a window)
 * @param error  what went wrong, naming the agent
 * @param merged the merged result over the complete window intervals; empty when failed
 * @param agents every agent's part, in the order they were given
 */
public record RemoteResult(String status, Optional<String> error, Optional<LoadResult> merged,
                           List<AgentOutcome> agents) {

    public RemoteResult {
        agents = List.copyOf(agents);
    }

    /** Whether every agent finished. */
    public boolean ok() {
        return status.equals("ok");
    }

    /**
     * Whether some agent was load-bound (the engine's 90% rule on that agent's own CPUs), or the merged
     * result is. The merged result's own {@link LoadResult#loadBound()} pools every agent's CPUs, so one
     * saturated agent beside idle ones does not show there, yet it limits the run as a saturated local
     * engine would.
     */
    public boolean loadBound() {
        return agents.stream().anyMatch(AgentOutcome::loadBound) || merged.map(LoadResult::loadBound).orElse(false);
    }

    @Override
    public String toString() {
        return "RemoteResult[" + status + ", " + agents.size() + " agents" + merged.map(r -> ", " + r.requests()
                + " requests").orElse("") + error.map(e -> ": " + e).orElse("") + "]";
    }
}
