package io.loadlab.agent;

import com.hazelcast.client.Client;
import com.hazelcast.client.ClientListener;
import com.hazelcast.collection.IQueue;
import com.hazelcast.core.HazelcastInstance;
import io.loadlab.load.LoadException;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.Target;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code loadlab agent}: a long-running process on a load host. It is one embedded Hazelcast member
 * bound to its listen address ({@link Cluster}), reading orders from its inbox queue, each sealed in a
 * session whose coordinator proved it holds the secret ({@link AgentSessions}): clock probes,
 * runs (one at a time) of the built-in engine on the share of the load a coordinator gives it, and,
 * with {@code --allow-subjects}, a subject started on this host ({@link SubjectService}). A run stops
 * when its coordinator's client disconnects, at its deadline, or when told, and so does a subject; the
 * agent then waits for the next coordinator. {@link #serve} blocks until {@link #close}.
 */
public final class Agent implements AutoCloseable {

    /**
     * The protocol's version: a coordinator of another version is refused with both named. Version 2:
     * a launch may carry a TLS variant's server certificate and key (version 1 agents would ignore them).
     * Version 3: every session starts with a {@link Handshake} and every message after it is sealed
     * ({@link Envelope}); a version 2 agent does not answer the handshake.
     */
    public static final String VERSION = "loadlab-agent-3";

    private final HostPort listen;
    private final HazelcastInstance hz;
    private final PrintStream log;
    private final Optional<Path> hlogDir;
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "loadlab-agent-deadline");
        t.setDaemon(true);
        return t;
    });
    private final SubjectService subjects;
    private final AgentSessions sessions;
    private volatile AgentRun current;
    private volatile boolean closed;

    private Agent(HostPort listen, HazelcastInstance hz, Secret secret, PrintStream log, Optional<Path> hlogDir,
                  Optional<Path> subjectsHome) {
        this.listen = listen;
        this.hz = hz;
        this.log = log;
        this.hlogDir = hlogDir;
        this.sessions = new AgentSessions(secret, hz);
        this.subjects = new SubjectService(listen, subjectsHome, sessions::replies, this::say);
    }

    /**
     * Starts an agent: binds {@code listen} only, with the cluster name of {@code secret}.
     *
     * @param hlogDir       a folder where each run's own intervals are kept ({@code run-SESSION.hlog}), if any
     * @param subjectsHome  {@code --allow-subjects}: the checkout whose {@code subjects/} coordinators may have
     *                      built and started here; empty: such requests are refused
     * @throws AgentException when the address cannot be bound
     */
    public static Agent start(HostPort listen, Secret secret, PrintStream log, Optional<Path> hlogDir,
                              Optional<Path> subjectsHome) {
        RefusalLog.install(log);
        HazelcastInstance hz = Cluster.member(listen, secret);
        Agent a = new Agent(listen, hz, secret, log, hlogDir, subjectsHome);
        hz.getClientService().addClientListener(new ClientListener() {
            @Override
            public void clientConnected(Client c) {
                a.say("coordinator " + c.getSocketAddress() + " connected");
            }

            @Override
            public void clientDisconnected(Client c) {
                a.coordinatorGone(c);
            }
        });
        // Never the cluster name: it is derived from the secret and admits whoever presents it.
        a.say("listening on " + listen + " (Hazelcast " + hz.getCluster().getLocalMember().getVersion()
                + "), " + cpus() + " CPUs for load"
                + subjectsHome.map(h -> "; starts subjects from " + h.resolve("subjects") + " (--allow-subjects)")
                .orElse(""));
        return a;
    }

    /** The address the agent listens on. */
    public HostPort listen() {
        return listen;
    }

    /**
     * Answers orders until {@link #close}. Each order is handled on its own: one that cannot be read or
     * is refused is logged (and answered, when it names a reply queue of a valid session), and the agent
     * goes on with the next.
     */
    public void serve() {
        IQueue<Object> inbox = hz.getQueue(Cluster.INBOX);
        while (!closed) {
            Object item;
            try {
                item = inbox.poll(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (closed || !hz.getLifecycleService().isRunning()) {
                    return;
                }
                // The item was taken off the queue before it failed to deserialize (a class the
                // serialization filter refuses, Cluster): it is gone, the next one may be fine.
                say("refused an order that could not be read: " + OrderCheck.printable(String.valueOf(e.getMessage())));
                continue;
            }
            if (item != null) {
                accept(item);
            }
        }
    }

    /**
     * One queue item: a step of a session's handshake, or a sealed order opened, decoded, checked and
     * handled; or refused in one line.
     */
    private void accept(Object item) {
        if (!(item instanceof String text)) {
            say("refused an order: a queue item of type " + item.getClass().getName() + ", not JSON text");
            return;
        }
        Message.Order o;
        try {
            Optional<AgentSessions.Opened> opened = sessions.take(text, connectedClients());
            if (opened.isEmpty()) {
                return;
            }
            o = order(opened.get());
        } catch (AgentException e) {
            say("refused an order: " + e.getMessage());
            return;
        }
        try {
            handle(o);
        } catch (RuntimeException e) {
            // Whatever a bad order throws is its own refusal, never the end of the agent.
            String why = e.getMessage() == null ? e.getClass().getSimpleName()
                    : e.getMessage().lines().findFirst().orElse("");
            say("refused " + o.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + " of session "
                    + o.session() + ": " + why);
            if (o instanceof Message.Ping || o instanceof Message.Prepare || o instanceof Message.Launch) {
                sessions.replies(o.session()).ifPresent(r -> r.send(new Message.Refused(why)));
            }
        }
    }

    /**
     * The order inside a sealed message: its session must be the one it was sealed in, or a coordinator
     * could act on another's session.
     */
    private static Message.Order order(AgentSessions.Opened opened) {
        Message m = Wire.decode(opened.text());
        if (!(m instanceof Message.Order o)) {
            throw new AgentException("a " + m.getClass().getSimpleName() + " is an agent's answer, not an order");
        }
        OrderCheck.session(o.session());
        if (!o.session().equals(opened.session())) {
            throw new AgentException("an order of session " + o.session() + " came sealed in session "
                    + opened.session() + ": a coordinator orders in its own session only");
        }
        return o;
    }

    /** The proven session's sealed replies (every order handled here was opened in a proven session). */
    private Replies replies(String session) {
        return sessions.replies(session).orElseThrow(() -> new AgentException("session " + session
                + " ended: its coordinator disconnected"));
    }

    private Collection<String> connectedClients() {
        return hz.getClientService().getConnectedClients().stream().map(c -> c.getUuid().toString()).toList();
    }

    private void handle(Message.Order m) {
        if (m instanceof Message.Ping p) {
            OrderCheck.reply(p.session(), p.reply());
            replies(p.session()).send(new Message.Pong(p.seq(), AgentLink.Clock.epochMicros(), cpus(), VERSION));
        } else if (m instanceof Message.Prepare p) {
            prepare(p);
        } else if (m instanceof Message.Start s) {
            AgentRun r = current;
            if (r != null && r.session().equals(s.session())) {
                r.start(s.startMs());
            }
        } else if (m instanceof Message.End e) {
            AgentRun r = current;
            if (r != null && r.session().equals(e.session())) {
                r.endAfter(e.afterIndex());
            }
        } else if (m instanceof Message.Launch l) {
            OrderCheck.reply(l.session(), l.reply());
            OrderCheck.client(l.client(), connectedClients());
            subjects.handle(l);
        } else {
            subjects.handle(m);
        }
    }

    private void prepare(Message.Prepare p) {
        OrderCheck.reply(p.session(), p.reply());
        OrderCheck.client(p.client(), connectedClients());
        Replies replies = replies(p.session());
        AgentRun busy = current;
        if (busy != null && !busy.finished()) {
            replies.send(new Message.Refused("agent " + listen + " is busy with another coordinator's run ("
                    + busy.session() + "): wait for it to end"));
            return;
        }
        LoadSpec spec;
        try {
            spec = SpecCodec.fromJson(p.load());
            // Loads the native transport now, not in the first second after the common start.
            spec.transport().resolve();
            OrderCheck.load(spec, p.runLimitMs(), cpus());
            reach(spec);
        } catch (LoadException | AgentException | NullPointerException | IllegalArgumentException e) {
            replies.send(new Message.Refused(e.getMessage()));
            say("refused run " + p.session() + ": " + e.getMessage());
            return;
        }
        AgentRun run = new AgentRun(p.session(), p.client(), spec, replies, log, hlogDir);
        current = run;
        // Whatever the coordinator does, this agent stops loading at the run's limit.
        deadlines.schedule(() -> run.stop("deadline"), p.runLimitMs(), TimeUnit.MILLISECONDS);
        replies.send(new Message.Ready());
        say("run " + p.session() + ": " + spec.connections() + " connections, " + spec.threads() + " threads, "
                + spec.model().describe() + " on " + spec.request().target().url());
    }

    /** One TCP connection to the target, so that an agent that cannot reach it says so before the start. */
    private static void reach(LoadSpec spec) {
        Target t = spec.request().target();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(t.host(), t.port()), (int) Math.min(Integer.MAX_VALUE,
                    spec.connectTimeout().toMillis()));
        } catch (IOException e) {
            throw LoadException.failed("cannot connect to the target " + t.hostHeader() + " from this agent: "
                    + e.getMessage(), e);
        }
    }

    private void coordinatorGone(Client c) {
        sessions.clientGone(c.getUuid().toString());
        subjects.coordinatorGone(c.getUuid().toString());
        AgentRun r = current;
        if (r != null && !r.finished() && r.client().equals(c.getUuid().toString())) {
            say("coordinator " + c.getSocketAddress() + " disconnected: stopping run " + r.session());
            r.stop("coordinator_gone");
        }
    }

    private static int cpus() {
        return Runtime.getRuntime().availableProcessors();
    }

    private void say(String text) {
        synchronized (log) {
            log.println("loadlab agent: " + text);
            log.flush();
        }
    }

    /** Stops any run and any subject, leaves the cluster. */
    @Override
    public void close() {
        closed = true;
        subjects.close();
        AgentRun r = current;
        if (r != null) {
            r.stop("agent_stopped");
            try {
                r.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        deadlines.shutdownNow();
        hz.shutdown();
    }
}
