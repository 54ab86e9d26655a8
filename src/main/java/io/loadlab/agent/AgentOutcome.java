package io.loadlab.agent;

import io.loadlab.load.ErrorCounts;
import io.loadlab.load.IntervalSample;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one agent did in a run, over the run's window: the figures kept beside the merged ones
 * ({@code agents.csv}, the {@code agents} of {@code load --json}).
 *
 * @param address       the agent
 * @param weight        its share's weight
 * @param connections   its connections
 * @param threads       its event-loop threads
 * @param targetRps     its share of a fixed rate, requests/s
 * @param requests      answers in the window
 * @param rps           answers per second of the window
 * @param errors        failed requests in the window
 * @param loadCpuSeconds CPU of its event-loop threads in the window, s
 * @param loadBound     whether those threads used at least 90% of min(threads, CPUs) over the window
 * @param stealSeconds  the hypervisor's steal over the window on the CPUs the agent may use, s; empty
 *                      where it did not say for every interval of the window
 * @param clockOffsetUs its clock − the coordinator's, µs (its error is at most half of {@code rttUs})
 * @param rttUs         round trip of the clock probe used, µs
 * @param startLagMs    how much later than the common instant its first interval began (its engine's
 *                      start-up), ms on the coordinator's clock
 * @param status        {@code ok}; {@code lost} (gone mid-run); {@code failed} (its run failed, or it
 *                      could not reach the target); {@code refused}; {@code unreachable}; {@code stopped}
 *                      (stopped early because another agent was lost)
 * @param error         why, when not ok
 * @param intervals     its own window intervals, on the coordinator's clock
 */
public record AgentOutcome(HostPort address, double weight, int connections, int threads, OptionalDouble targetRps,
                           long requests, double rps, ErrorCounts errors, double loadCpuSeconds, boolean loadBound,
                           OptionalDouble stealSeconds, long clockOffsetUs, long rttUs, long startLagMs, String status,
                           Optional<String> error, List<IntervalSample> intervals) {

    public AgentOutcome {
        intervals = List.copyOf(intervals);
    }

    /** An agent that took no part: unreachable or refused before the start. */
    static AgentOutcome absent(HostPort address, String status, String error) {
        return new AgentOutcome(address, 0, 0, 0, OptionalDouble.empty(), 0, 0, ErrorCounts.NONE, 0, false,
                OptionalDouble.empty(), 0, 0, 0, status, Optional.of(error), List.of());
    }

    /** Whether the agent finished its share of the window. */
    public boolean ok() {
        return status.equals("ok");
    }

    @Override
    public String toString() {
        return "AgentOutcome[" + address + ": " + status + ", " + requests + " requests" + error.map(e -> ", " + e)
                .orElse("") + "]";
    }
}
