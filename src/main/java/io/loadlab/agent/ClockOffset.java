package io.loadlab.agent;

import java.util.List;

/**
 * An agent's clock against the coordinator's, from ping–pong probes as NTP does: for the probe with
 * the shortest round trip, offset = agent's time − the midpoint of send and receipt. The error is at
 * most half that round trip.
 *
 * @param offsetMs agent clock − coordinator clock, ms (positive: the agent's clock is ahead)
 * @param rttMs    round trip of the probe used, ms
 */
record ClockOffset(double offsetMs, double rttMs) {

    /** One probe: coordinator's send and receipt times (ms, with sub-ms precision) and the agent's answer (ms). */
    record Probe(double sentMs, double receivedMs, double agentMs) {
        double rtt() {
            return receivedMs - sentMs;
        }
    }

    /** The offset from the probe with the shortest round trip. */
    static ClockOffset of(List<Probe> probes) {
        Probe best = probes.get(0);
        for (Probe p : probes) {
            if (p.rtt() < best.rtt()) {
                best = p;
            }
        }
        return new ClockOffset(best.agentMs() - (best.sentMs() + best.receivedMs()) / 2, best.rtt());
    }

    /** The offset in whole µs, for the files. */
    long offsetUs() {
        return Math.round(offsetMs * 1000);
    }
}
