package io.loadlab.agent;

import com.hazelcast.collection.IQueue;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.RequestTemplate;
import io.loadlab.load.Target;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A coordinator's connection to one agent for one session: its Hazelcast client, the agent's inbox,
 * the session's reply queue on the agent, the session's {@link Envelope} once the agent proved it holds
 * the secret ({@link Handshake}), and a thread that hands every reply (and the loss of the connection)
 * to the coordinator's event queue. Every order is sealed and every reply opened: a reply that fails to
 * open is the link's loss. Closing it destroys the reply queue and the client.
 */
final class AgentLink implements AutoCloseable {

    /** Something that happened on a link: a message, or the link's loss ({@code message} null). */
    record Event(AgentLink link, Message message, String lost) {}

    /** Coordinator's clock, ms since the epoch with sub-ms resolution (nanoTime from one epoch reading). */
    static final class Clock {
        private static final double BASE_MS = epochMicros() / 1000.0;
        private static final long BASE_NS = System.nanoTime();

        private Clock() {
        }

        static double nowMs() {
            return BASE_MS + (System.nanoTime() - BASE_NS) / 1e6;
        }

        /** The system clock in µs (Java reads it at µs resolution on Linux, not only ms). */
        static long epochMicros() {
            java.time.Instant t = java.time.Instant.now();
            return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
        }
    }

    final int index;
    final HostPort address;
    private final HazelcastInstance client;
    private final IQueue<String> inbox;
    private final IQueue<String> replies;
    private final String session;
    private final String replyName;
    private final Envelope envelope;
    private Thread reader;
    private volatile boolean closing;

    private AgentLink(int index, HostPort address, HazelcastInstance client, Envelope envelope) {
        this.index = index;
        this.address = address;
        this.client = client;
        this.envelope = envelope;
        this.session = envelope.session();
        this.replyName = Cluster.REPLIES + session;
        this.inbox = client.getQueue(Cluster.INBOX);
        this.replies = client.getQueue(replyName);
    }

    /**
     * Connects to the agent and runs the session's handshake: nothing but the handshake is sent to an
     * agent that does not prove it holds the secret.
     *
     * @param timeout the longest the connection, and then the agent's answer to the handshake, may take
     * @throws AgentException naming it when it cannot be reached, refuses the secret, or does not prove
     *                        it holds the secret
     */
    static AgentLink connect(int index, HostPort address, Secret secret, String session, Duration timeout) {
        HazelcastInstance client = Cluster.client(address, secret, timeout);
        try {
            return new AgentLink(index, address, client, Handshake.coordinator(client, secret, session, address,
                    timeout));
        } catch (RuntimeException e) {
            client.shutdown();
            throw e;
        }
    }

    /**
     * Measures the agent's clock offset with {@code probes} pings, one at a time.
     *
     * @return the offset, and the agent's {@link Message.Pong} of the last probe (its CPUs, version)
     * @throws AgentException when the agent does not answer within {@code timeout} or speaks another version
     */
    Clocked clock(int probes, Duration timeout) {
        List<ClockOffset.Probe> out = new ArrayList<>();
        Message.Pong last = null;
        for (int seq = 0; seq < probes; seq++) {
            double sent = Clock.nowMs();
            send(new Message.Ping(session, replyName, clientUuid(), seq));
            Message m = take(timeout);
            double received = Clock.nowMs();
            if (!(m instanceof Message.Pong p) || p.seq() != seq) {
                throw new AgentException("agent " + address + " answered a clock probe with " + m);
            }
            if (!p.version().equals(Agent.VERSION)) {
                throw new AgentException("agent " + address + " speaks " + p.version() + ", this coordinator "
                        + Agent.VERSION + ": run the same Loadlab version on both");
            }
            out.add(new ClockOffset.Probe(sent, received, p.agentUs() / 1000.0));
            last = p;
        }
        return new Clocked(ClockOffset.of(out), last.cpus());
    }

    /** A measured clock, and the CPUs the agent says its load may use. */
    record Clocked(ClockOffset offset, int cpus) {}

    /** The agent's share with a loopback target replaced by this host's address as the agent reaches it. */
    LoadSpec localTarget(LoadSpec share) {
        Target t = share.request().target();
        InetAddress ip;
        try {
            ip = InetAddress.getByName(t.host());
        } catch (UnknownHostException e) {
            return share; // the agent resolves it, or says it cannot
        }
        if (!ip.isLoopbackAddress()) {
            return share;
        }
        // "This host" for the subject is the coordinator's address on the connection to the agent.
        String here = ((InetSocketAddress) client.getLocalEndpoint().getSocketAddress()).getAddress().getHostAddress();
        RequestTemplate r = share.request();
        return share.toBuilder().request(new RequestTemplate(r.method(), new Target(t.tls(), here, t.port(), t.path()),
                r.headers(), r.bodySize())).build();
    }

    /** Sends the order sealed; one sender at a time keeps the agent's inbox in counter order. */
    synchronized void send(Message.Order m) {
        inbox.offer(envelope.seal(Wire.encode(m)));
    }

    String session() {
        return session;
    }

    String clientUuid() {
        return client.getLocalEndpoint().getUuid().toString();
    }

    /** The next reply of the session, waiting at most {@code timeout}. */
    Message take(Duration timeout) {
        try {
            String text = replies.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (text == null) {
                throw new AgentException("agent " + address + " did not answer within " + timeout.toMillis() + "ms");
            }
            return open(text);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AgentException("interrupted while waiting for agent " + address, e);
        } catch (RuntimeException e) {
            if (e instanceof AgentException ae) {
                throw ae;
            }
            throw new AgentException("agent " + address + " was lost: " + e.getMessage(), e);
        }
    }

    /** Starts handing replies and the connection's loss to {@code events}. */
    void listen(BlockingQueue<Event> events) {
        client.getLifecycleService().addLifecycleListener(e -> {
            if (!closing && e.getState() == LifecycleEvent.LifecycleState.CLIENT_DISCONNECTED) {
                events.add(new Event(this, null, "the connection to it was lost"));
            }
        });
        reader = new Thread(() -> read(events), "loadlab-coordinator-" + address);
        reader.setDaemon(true);
        reader.start();
    }

    private void read(BlockingQueue<Event> events) {
        while (!closing) {
            try {
                String text = replies.poll(500, TimeUnit.MILLISECONDS);
                if (text != null) {
                    events.add(new Event(this, open(text), null));
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!closing) {
                    events.add(new Event(this, null, "its replies could not be read (" + e.getMessage() + ")"));
                }
                return;
            }
        }
    }

    /**
     * @throws AgentException naming the agent when the reply is not sealed in this session, fails to
     *                        authenticate or is replayed
     */
    private Message open(String text) {
        try {
            return Wire.decode(envelope.open(text));
        } catch (AgentException e) {
            throw new AgentException("agent " + address + " sent a reply that was refused: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        closing = true;
        if (reader != null) {
            reader.interrupt();
        }
        try {
            if (client.getLifecycleService().isRunning()) {
                replies.destroy();
            }
        } catch (RuntimeException e) {
            // The agent is gone: nothing of this session is left there to clean up.
        } finally {
            client.shutdown();
        }
    }

    @Override
    public String toString() {
        return "agent " + address;
    }
}
