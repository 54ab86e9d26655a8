package io.loadlab.agent;

import io.loadlab.load.ErrorCounts;
import io.loadlab.load.IntervalSample;
import io.loadlab.load.JvmUse;
import io.loadlab.load.LoadModel;
import io.loadlab.load.LoadResult;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.Warmed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/** Builds a {@link RemoteResult}: the merged window as a {@link LoadResult}, each agent's part, the status. */
final class Outcomes {

    private Outcomes() {
    }

    /** A run that never started: the agents that could not take part named, the others not started. */
    static RemoteResult failedBeforeStart(List<HostPort> all, List<AgentOutcome> absent) {
        List<AgentOutcome> out = new ArrayList<>();
        for (HostPort a : all) {
            out.add(absent.stream().filter(x -> x.address().equals(a)).findFirst()
                    .orElse(AgentOutcome.absent(a, "not_started", "not started: another agent could not take part")));
        }
        String error = absent.stream().map(x -> x.error().orElse(x.address().toString())).collect(Collectors.joining("; "));
        return new RemoteResult("failed", Optional.of(error), Optional.empty(), out);
    }

    static RemoteResult of(Setup s, Collector c, double t0) {
        List<AgentOutcome> agents = new ArrayList<>();
        double seconds = c.window.stream().mapToDouble(IntervalSample::seconds).sum();
        for (AgentLink l : c.links) {
            agents.add(agent(s, c, l.index, l.address, seconds, t0));
        }
        List<String> errors = new ArrayList<>();
        for (int a = 0; a < c.error.length; a++) {
            if (c.state[a] == Collector.State.LOST || c.state[a] == Collector.State.FAILED) {
                errors.add(c.error[a]);
            }
        }
        Optional<String> error = errors.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", errors));
        if (c.window.isEmpty()) {
            return new RemoteResult("failed", error.or(() -> Optional.of("no interval of the window was measured")),
                    Optional.empty(), agents);
        }
        String status = errors.isEmpty() ? "ok" : "partial";
        return new RemoteResult(status, error, Optional.of(merged(s, c, t0, agents, seconds)), agents);
    }

    private static AgentOutcome agent(Setup s, Collector c, int a, HostPort address, double seconds, double t0) {
        LoadSpec share = s.shares().get(a);
        List<IntervalSample> mine = new ArrayList<>();
        long cpu = 0;
        int from = Math.max(0, c.windowStart);
        int to = Math.min(c.merger.count(a), from + c.window.size());
        for (int i = from; i < to; i++) {
            mine.add(c.merger.sample(a, i));
            cpu += c.merger.loadCpuNanos(a, i);
        }
        long requests = mine.stream().mapToLong(IntervalSample::requests).sum();
        ErrorCounts errors = mine.stream().map(IntervalSample::errors).reduce(ErrorCounts.NONE, ErrorCounts::plus);
        int cpus = Math.min(share.threads(), s.clocks().get(a).cpus());
        double cpuS = cpu / 1e9;
        boolean bound = seconds > 0 && cpuS >= LoadResult.LOAD_BOUND_SHARE * cpus * seconds;
        OptionalDouble target = share.model() instanceof LoadModel.FixedRate f ? OptionalDouble.of(f.requestsPerSecond())
                : OptionalDouble.empty();
        ClockOffset clock = s.clocks().get(a).offset();
        String status = switch (c.state[a]) {
            case DONE, RUNNING -> "ok";
            case LOST -> "lost";
            case FAILED -> "failed";
            case STOPPED -> "stopped";
        };
        OptionalDouble steal = steal(c.merger, a, from, to);
        return new AgentOutcome(address, s.weights().get(a), share.connections(), share.threads(), target, requests,
                seconds > 0 ? requests / seconds : 0, errors, cpuS, bound, steal, clock.offsetUs(),
                Math.round(clock.rttMs() * 1000), startLag(c, a, t0 + s.phases().fixedWarmupMs()), status, Optional.ofNullable(c.error[a]), mine);
    }

    /**
     * Agent {@code a}'s steal over its intervals {@code from} to {@code to}, s: empty when one of them
     * did not say. (Not compared with the CPUs the agent declared: those are the JVM's, which a cgroup's
     * quota lowers, while steal is read on every CPU the agent may run on. {@code Wire} bounds each.)
     */
    static OptionalDouble steal(Merger m, int a, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            OptionalDouble s = m.stealSeconds(a, i);
            if (s.isEmpty()) {
                return OptionalDouble.empty();
            }
            sum += s.getAsDouble();
        }
        return to > from ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }

    /** Start of the agent's first interval − the instant it was due, ms; 0 when it sent none. */
    private static long startLag(Collector c, int a, double dueMs) {
        return c.merger.count(a) == 0 ? 0 : Math.round(c.merger.sample(a, 0).startEpochMs() - dueMs);
    }

    /** The window merged: sums of the counters, histograms added, status codes and connect times where every agent sent them. */
    private static LoadResult merged(Setup s, Collector c, double t0, List<AgentOutcome> agents, double seconds) {
        Histogram latency = new Histogram(1, 3_600_000_000L, 3);
        Histogram service = new Histogram(1, 3_600_000_000L, 3);
        long requests = 0;
        long missed = 0;
        long bytesRead = 0;
        ErrorCounts errors = ErrorCounts.NONE;
        for (IntervalSample i : c.window) {
            latency.add(i.latency());
            i.serviceTime().ifPresent(service::add);
            requests += i.requests();
            missed += i.missed();
            bytesRead += i.bytesRead();
            errors = errors.plus(i.errors());
        }
        TreeMap<Integer, Long> codes = new TreeMap<>();
        Histogram connect = new Histogram(1, 3_600_000_000L, 3);
        long written = 0;
        for (Message.Done d : c.done) {
            if (d != null) {
                d.statusCodes().forEach((k, v) -> codes.merge(k, v, Long::sum));
                d.connectTime().ifPresent(connect::add);
                written += d.bytesWritten().orElse(0);
            }
        }
        double cpu = agents.stream().mapToDouble(AgentOutcome::loadCpuSeconds).sum();
        int loadCpus = agents.stream().mapToInt(a -> Math.min(a.threads(), s.clocks().get(agents.indexOf(a)).cpus())).sum();
        double warmS = c.windowStart > 0 ? c.warm.stream().mapToDouble(IntervalSample::seconds).sum()
                : s.phases().fixedWarmupMs() / 1000.0;
        Warmed warmed = new Warmed(warmS, s.spec().requestCount().isPresent() ? Optional.empty() : steady(c),
                c.warm.stream().map(IntervalSample::rps).toList(), c.cutShort);
        return new LoadResult(s.spec(), s.spec().transport().resolve().label(),
                Instant.ofEpochMilli(c.window.get(0).startEpochMs()), seconds, requests, bytesRead, written, codes,
                errors, latency, s.spec().isFixedRate() ? Optional.of(service) : Optional.empty(), connect, c.window, cpu,
                processCpu(c), loadCpus, false, warmed, missed, JvmUse.UNKNOWN, // the agents' JVMs are not summed here
                s.spec().protocol(), Optional.empty(), Optional.empty(), Optional.empty(), steal(agents));
    }

    /**
     * The agents' steal summed (the CPUs of the whole load), when every agent with intervals in the
     * window said it. Two agents on one host count its CPUs twice, as their load CPU does.
     */
    static OptionalDouble steal(List<AgentOutcome> agents) {
        List<AgentOutcome> ran = agents.stream().filter(a -> !a.intervals().isEmpty()).toList();
        return ran.isEmpty() || ran.stream().anyMatch(a -> a.stealSeconds().isEmpty()) ? OptionalDouble.empty()
                : OptionalDouble.of(ran.stream().mapToDouble(a -> a.stealSeconds().getAsDouble()).sum());
    }

    /** Steady when the coordinator's rule said so, or (fixed warm-up) when every agent's engine did. */
    private static Optional<Boolean> steady(Collector c) {
        if (c.steady.isPresent()) {
            return c.steady;
        }
        boolean all = true;
        for (Message.Done d : c.done) {
            if (d == null || d.steady().isEmpty()) {
                return Optional.empty();
            }
            all &= d.steady().get();
        }
        return Optional.of(all);
    }

    /** The agents' whole JVMs over the window, s. */
    private static double processCpu(Collector c) {
        long ns = 0;
        int from = Math.max(0, c.windowStart);
        for (int a = 0; a < c.links.size(); a++) {
            for (int i = from; i < Math.min(c.merger.count(a), from + c.window.size()); i++) {
                ns += c.merger.processCpuNanos(a, i);
            }
        }
        return ns / 1e9;
    }
}
