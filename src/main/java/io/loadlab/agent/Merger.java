package io.loadlab.agent;

import io.loadlab.load.ErrorCounts;
import io.loadlab.load.IntervalSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;

/**
 * The agents' intervals, merged by index: interval i of the run is interval i of every agent, its
 * histograms added bucket by bucket (lossless: the agents record with the same range and precision),
 * its counters summed. Times are moved onto the coordinator's clock with each agent's offset; only
 * the index decides which interval a sample belongs to, so a skewed clock moves no boundary.
 * Used on the coordinator's thread only.
 */
final class Merger {

    private final List<List<Message.Interval>> intervals = new ArrayList<>();
    private final boolean[] ended;
    private final double[] offsetMs;

    /** @param offsetMs each agent's clock offset (agent − coordinator), ms */
    Merger(double[] offsetMs) {
        this.offsetMs = offsetMs.clone();
        this.ended = new boolean[offsetMs.length];
        for (int i = 0; i < offsetMs.length; i++) {
            intervals.add(new ArrayList<>());
        }
    }

    /**
     * Adds an agent's interval.
     *
     * @throws AgentException when it is not the agent's next one (a message lost or doubled)
     */
    void add(int agent, Message.Interval m) {
        List<Message.Interval> mine = intervals.get(agent);
        if (m.index() != mine.size()) {
            throw new AgentException("interval " + m.index() + " arrived where " + mine.size() + " was due");
        }
        mine.add(m);
    }

    /** The agent will send no more intervals (its run ended). */
    void ended(int agent) {
        ended[agent] = true;
    }

    /** Intervals the agent has sent. */
    int count(int agent) {
        return intervals.get(agent).size();
    }

    /** Whether interval {@code i} is complete: every agent has sent it or has ended before it. */
    boolean complete(int i) {
        boolean any = false;
        for (int a = 0; a < ended.length; a++) {
            int n = intervals.get(a).size();
            if (n > i) {
                any = true;
            } else if (!ended[a]) {
                return false;
            }
        }
        return any;
    }

    /** Agents that have neither sent interval {@code i} nor ended. */
    List<Integer> missing(int i) {
        List<Integer> out = new ArrayList<>();
        for (int a = 0; a < ended.length; a++) {
            if (intervals.get(a).size() <= i && !ended[a]) {
                out.add(a);
            }
        }
        return out;
    }

    /** Interval {@code i} merged over the agents that have it, on the coordinator's clock. */
    IntervalSample merged(int i) {
        List<IntervalSample> parts = new ArrayList<>();
        for (int a = 0; a < ended.length; a++) {
            if (intervals.get(a).size() > i) {
                parts.add(sample(a, i));
            }
        }
        return sum(parts);
    }

    /** Agent {@code a}'s own interval {@code i}, on the coordinator's clock. */
    IntervalSample sample(int a, int i) {
        Message.Interval m = intervals.get(a).get(i);
        long shift = Math.round(offsetMs[a]);
        return new IntervalSample(m.startMs() - shift, m.endMs() - shift, m.requests(), m.missed(), m.errors(),
                m.bytesRead(), m.latency(), m.service());
    }

    /** CPU of agent {@code a}'s event loops in its interval {@code i}, ns. */
    long loadCpuNanos(int a, int i) {
        return intervals.get(a).get(i).loadCpuNanos();
    }

    /** The hypervisor's steal on agent {@code a}'s CPUs in its interval {@code i}, s; empty where it did not say. */
    OptionalDouble stealSeconds(int a, int i) {
        return intervals.get(a).get(i).stealSeconds();
    }

    /** CPU of agent {@code a}'s whole JVM in its interval {@code i}, ns. */
    long processCpuNanos(int a, int i) {
        return intervals.get(a).get(i).processCpuNanos();
    }

    /**
     * Samples of one index summed: from the earliest start, as long as the longest of them (an agent
     * whose engine started a little late covers the same length, shifted), histograms added.
     */
    static IntervalSample sum(List<IntervalSample> parts) {
        long start = Long.MAX_VALUE;
        long length = 0;
        long requests = 0;
        long missed = 0;
        long bytes = 0;
        ErrorCounts errors = ErrorCounts.NONE;
        Histogram latency = null;
        Histogram service = null;
        for (IntervalSample p : parts) {
            start = Math.min(start, p.startEpochMs());
            length = Math.max(length, p.endEpochMs() - p.startEpochMs());
            requests += p.requests();
            missed += p.missed();
            bytes += p.bytesRead();
            errors = errors.plus(p.errors());
            latency = add(latency, p.latency());
            if (p.serviceTime().isPresent()) {
                service = add(service, p.serviceTime().get());
            }
        }
        long end = start + length;
        latency.setStartTimeStamp(start);
        latency.setEndTimeStamp(end);
        return new IntervalSample(start, end, requests, missed, errors, bytes, latency, Optional.ofNullable(service));
    }

    private static Histogram add(Histogram into, Histogram h) {
        if (into == null) {
            return h.copy();
        }
        into.add(h);
        return into;
    }
}
