package io.loadlab.agent;

import io.loadlab.load.ErrorCounts;
import io.loadlab.load.IntervalSample;
import io.loadlab.load.LoadListener;
import io.loadlab.load.SteadyState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's side of a started run: takes every agent's events, merges intervals as soon as
 * each index is complete, decides a steady-state warm-up on the merged throughput, tells the window's
 * listener, and notices an agent lost: a dropped connection, a failed run, or an interval that has
 * not arrived {@value #LATE_MS} ms after its end. A loss stops the other agents at once, so the load
 * never shrinks silently. Runs on the calling thread.
 */
final class Collector {

    /** How long past an interval's end the coordinator waits for an agent's report of it, ms. */
    static final long LATE_MS = 2000;
    /** How long the coordinator waits for every agent's last word once the window is over, ms. */
    static final long DONE_WAIT_MS = 5000;

    /** An agent's state in the run. */
    enum State { RUNNING, DONE, LOST, FAILED, STOPPED }

    final List<AgentLink> links;
    final Merger merger;
    final Split.Phases phases;
    final State[] state;
    final String[] error;
    final Message.Done[] done;
    final List<IntervalSample> warm = new ArrayList<>();
    final List<IntervalSample> window = new ArrayList<>();
    private final double t0;
    private final LoadListener listener;
    private final BlockingQueue<AgentLink.Event> events;
    /** Index of the window's first interval; -1 until a steady-state warm-up is decided. */
    int windowStart;
    Optional<Boolean> steady = Optional.empty();
    /** Why the warm-up ended early, when the server gave no good answer; empty otherwise. */
    Optional<String> cutShort = Optional.empty();
    /** The server's compilers' CPU time so far, s, when the collection began and after each warm-up second. */
    private final List<OptionalDouble> compiled = new ArrayList<>();
    private boolean windowOpen;
    private boolean aborted;
    private int next;

    Collector(List<AgentLink> links, Merger merger, Split.Phases phases, double t0, LoadListener listener,
              BlockingQueue<AgentLink.Event> events) {
        this.links = links;
        this.merger = merger;
        this.phases = phases;
        this.t0 = t0;
        this.listener = listener;
        this.events = events;
        int n = links.size();
        this.state = new State[n];
        this.error = new String[n];
        this.done = new Message.Done[n];
        java.util.Arrays.fill(state, State.RUNNING);
        this.windowStart = phases.steady().isPresent() ? -1 : 0;
        compiled.add(listener.serverCompilerSeconds());
    }

    /** Collects until the window is over, every agent has ended, or one was lost. */
    void collect() throws InterruptedException {
        if (windowStart == 0) {
            waitUntil(t0 + phases.fixedWarmupMs());
            openWindow();
        }
        while (true) {
            emitComplete();
            if (aborted || windowFull() || allEnded()) {
                break;
            }
            double deadline = expectedEnd(next) + LATE_MS;
            AgentLink.Event e = events.poll((long) Math.max(1, deadline - AgentLink.Clock.nowMs()), TimeUnit.MILLISECONDS);
            if (e != null) {
                handle(e);
            } else if (AgentLink.Clock.nowMs() >= deadline) {
                for (int a : merger.missing(next)) {
                    lose(a, State.LOST, "sent no report of interval " + next + " within " + LATE_MS + "ms of its end");
                }
            }
        }
        if (windowOpen) {
            listener.windowEnded();
            windowOpen = false;
        }
        if (!aborted) {
            awaitDone();
        }
    }

    /** Whether the run lost an agent (the others were stopped). */
    boolean aborted() {
        return aborted;
    }

    private double expectedEnd(int index) {
        return t0 + phases.fixedWarmupMs() + (index + 1) * 1000.0;
    }

    private void emitComplete() {
        while (!windowFull() && merger.complete(next)) {
            IntervalSample s = merger.merged(next);
            if (windowStart < 0) {
                warm.add(s);
                decideWarmup();
            } else {
                window.add(s);
                listener.interval(s);
            }
            next++;
        }
    }

    /**
     * Applies the warm-up's end rule to the merged seconds so far, as {@code WarmupEnd} does on one
     * host: opens the window at the maximum, when the steady-state rule holds and the server's JIT
     * compilers (where its sampler knows them) are quiet over the same seconds, or after a second
     * without a good answer (which {@link #cutShort} then says). The agents' own compilers are not
     * known here; each agent's engine is warmed by its first runs.
     */
    private void decideWarmup() {
        var st = phases.steady().orElseThrow();
        int n = warm.size();
        compiled.add(listener.serverCompilerSeconds());
        boolean isSteady = SteadyState.check(warm.stream()
                .map(s -> new SteadyState.Interval(s.requests(), s.seconds())).toList()).steady() && compilersQuiet(n);
        IntervalSample last = warm.get(n - 1);
        ErrorCounts e = last.errors();
        boolean noGood = last.requests() - e.status() - e.protocol() - e.body() <= 0;
        if (noGood) {
            cutShort = Optional.of(last.requests() == 0 ? "no good answer in its last second (no answer at all)"
                    : "no good answer in its last second (" + last.requests() + " answers, every one an error)");
        }
        long minS = (st.min().toMillis() + 999) / 1000;
        long maxS = (st.max().toMillis() + 999) / 1000;
        if (noGood || (n >= minS && isSteady) || n >= maxS) {
            windowStart = n;
            steady = Optional.of(isSteady);
            openWindow();
            int lastIndex = n + phases.windowS() - 1;
            for (AgentLink l : links) {
                if (state[l.index] == State.RUNNING) {
                    l.send(new Message.End(l.session(), lastIndex));
                }
            }
        }
    }

    /** Whether the server's compilers, when known at both ends, were quiet over the rule's last seconds. */
    private boolean compilersQuiet(int n) {
        if (n < SteadyState.WINDOW) {
            return false;
        }
        double span = warm.subList(n - SteadyState.WINDOW, n).stream().mapToDouble(IntervalSample::seconds).sum();
        return SteadyState.compilersQuiet(compiled.get(n - SteadyState.WINDOW), compiled.get(n), span);
    }

    private void openWindow() {
        listener.windowStarted();
        windowOpen = true;
    }

    private boolean windowFull() {
        return windowStart >= 0 && phases.windowS() > 0 && phases.steady().isPresent()
                && window.size() >= phases.windowS();
    }

    private boolean allEnded() {
        for (State s : state) {
            if (s == State.RUNNING) {
                return false;
            }
        }
        return !merger.complete(next);
    }

    private void handle(AgentLink.Event e) {
        int a = e.link().index;
        if (e.lost() != null) {
            if (state[a] == State.RUNNING) {
                lose(a, State.LOST, "was lost: " + e.lost());
            }
        } else if (e.message() instanceof Message.Interval iv) {
            merger.add(a, iv);
        } else if (e.message() instanceof Message.Done d) {
            done[a] = d;
            merger.ended(a);
            if (d.status().equals("failed")) {
                lose(a, State.FAILED, "failed: " + d.error().orElse("(no reason given)"));
            } else if (state[a] == State.RUNNING && !endedAsAsked(a, d)) {
                lose(a, State.LOST, "ended its run before the window did (" + d.ended() + ")");
            } else if (state[a] == State.RUNNING) {
                state[a] = State.DONE;
            }
        }
    }

    /**
     * Whether an agent's run ended as planned: by itself, or (steady-state warm-up) when told, after
     * the window's last interval. Else it was stopped on its host, or hit its deadline, before the window ended.
     */
    private boolean endedAsAsked(int a, Message.Done d) {
        if (d.ended().equals("complete")) {
            return true;
        }
        return phases.steady().isPresent() && windowStart >= 0 && merger.count(a) >= windowStart + phases.windowS();
    }

    /** Marks agent {@code a} lost or failed and stops every other agent still loading. */
    void lose(int a, State why, String text) {
        state[a] = why;
        error[a] = "agent " + links.get(a).address + " " + text + " at interval " + merger.count(a);
        aborted = true;
        for (AgentLink l : links) {
            if (state[l.index] == State.RUNNING) {
                state[l.index] = State.STOPPED;
                error[l.index] = "stopped because agent " + links.get(a).address + " was lost";
                l.send(new Message.End(l.session(), -1));
            }
        }
    }

    /** Waits (bounded) for each agent's {@link Message.Done}, which carries its status codes. */
    private void awaitDone() throws InterruptedException {
        double until = AgentLink.Clock.nowMs() + DONE_WAIT_MS;
        while (java.util.Arrays.stream(done).anyMatch(d -> d == null) && !aborted) {
            AgentLink.Event e = events.poll((long) Math.max(1, until - AgentLink.Clock.nowMs()), TimeUnit.MILLISECONDS);
            if (e == null) {
                return;
            }
            if (e.message() instanceof Message.Done || e.message() instanceof Message.Interval) {
                handle(e);
            }
        }
    }

    private static void waitUntil(double ms) throws InterruptedException {
        long wait = (long) (ms - AgentLink.Clock.nowMs());
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }
}
