package io.loadlab.agent;

import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Runs one load spec on agents: connects to each (in parallel), measures each clock's offset, splits
 * the load by weight, prepares every agent (each checks that it reaches the target), starts them all
 * at one instant on the coordinator's clock (each told it on its own clock), collects and merges their
 * intervals ({@link Collector}) and assembles the result ({@link Outcomes}). Anything that goes wrong
 * names the agent. One run at a time per coordinator object; {@link #run} blocks.
 */
public final class Coordinator {

    /** Clock probes per agent; the shortest round trip is used. */
    static final int CLOCK_PROBES = 7;
    /** Least time between the start order and the start instant, ms. */
    static final long START_LEAD_MS = 500;

    private final AgentSet agents;
    private final Secret secret;
    private final Duration connectTimeout;

    /**
     * @param connectTimeout how long to try each agent before naming it unreachable
     * @throws AgentException when the secret file cannot be used
     */
    public Coordinator(AgentSet agents, Duration connectTimeout) {
        this.agents = agents;
        this.secret = Secret.read(agents.secretFile());
        this.connectTimeout = connectTimeout;
    }

    /**
     * Runs {@code spec} on the agents; {@code listener} hears the merged window as the built-in
     * engine's listener would (started, window start, each merged second, window end).
     *
     * @return the merged result, each agent's part and the status; a run that could not start is
     *         {@code failed} with the agents that caused it named
     */
    public RemoteResult run(LoadSpec spec, LoadListener listener) {
        String session = UUID.randomUUID().toString();
        List<AgentLink> links = new ArrayList<>();
        Setup setup = null;
        try {
            Optional<RemoteResult> unreachable = connectAll(session, links);
            if (unreachable.isPresent()) {
                return unreachable.get();
            }
            setup = Setup.prepare(links, agents, spec);
            if (setup.refused().isPresent()) {
                return setup.refused().get();
            }
            return collect(setup, links, listener);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AgentException("interrupted: the agents stop when this coordinator disconnects", e);
        } finally {
            links.forEach(AgentLink::close);
        }
    }

    private RemoteResult collect(Setup setup, List<AgentLink> links, LoadListener listener) throws InterruptedException {
        BlockingQueue<AgentLink.Event> events = new LinkedBlockingQueue<>();
        links.forEach(l -> l.listen(events));
        double t0 = setup.start(links);
        listener.started();
        Collector c = new Collector(links, new Merger(setup.offsets()), setup.phases(), t0, listener, events);
        try {
            c.collect();
        } finally {
            if (Thread.currentThread().isInterrupted()) {
                links.forEach(l -> l.send(new Message.End(l.session(), -1)));
            }
        }
        return Outcomes.of(setup, c, t0);
    }

    /** Connects to every agent at once; the unreachable ones named, when any is. */
    private Optional<RemoteResult> connectAll(String session, List<AgentLink> links) throws InterruptedException {
        List<HostPort> addrs = agents.addresses();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(addrs.size(), 32), r -> {
            Thread t = new Thread(r, "loadlab-coordinator-connect");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<AgentLink>> futures = new ArrayList<>();
            for (int i = 0; i < addrs.size(); i++) {
                int index = i;
                futures.add(pool.submit(() -> AgentLink.connect(index, addrs.get(index), secret, session, connectTimeout)));
            }
            List<AgentOutcome> absent = new ArrayList<>();
            for (int i = 0; i < futures.size(); i++) {
                try {
                    links.add(futures.get(i).get());
                } catch (java.util.concurrent.ExecutionException e) {
                    absent.add(AgentOutcome.absent(addrs.get(i), "unreachable", e.getCause().getMessage()));
                }
            }
            if (absent.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(Outcomes.failedBeforeStart(addrs, absent));
        } finally {
            pool.shutdownNow();
        }
    }
}
