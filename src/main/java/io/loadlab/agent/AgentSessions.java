package io.loadlab.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.core.HazelcastInstance;
import java.security.MessageDigest;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The agent's side of the {@link Handshake}, and the sessions that completed it. An inbox item is a
 * {@code hello} or {@code proof} of the handshake, or a message sealed under a proven session's key;
 * anything else is refused before it is read as an order. At most {@link #MAX_SESSIONS} sessions are
 * kept, so that a peer that knows only the cluster name cannot grow the agent's memory: a new
 * {@code hello} evicts the oldest unproven one, or is refused when all are proven. A session ends with
 * its coordinator's client. Thread-safe.
 */
final class AgentSessions {

    /** Sessions kept at once, proven or not. */
    static final int MAX_SESSIONS = 64;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A session's handshake state; {@code replies} is set once the coordinator proved itself. */
    private static final class State {
        final String client;
        final byte[] nonceC;
        final byte[] nonceA;
        Envelope envelope;
        Replies replies;

        State(String client, byte[] nonceC, byte[] nonceA) {
            this.client = client;
            this.nonceC = nonceC;
            this.nonceA = nonceA;
        }
    }

    private final Secret secret;
    private final HazelcastInstance hz;
    private final Map<String, State> sessions = new LinkedHashMap<>();

    AgentSessions(Secret secret, HazelcastInstance hz) {
        this.secret = secret;
        this.hz = hz;
    }

    /**
     * Takes one inbox item: a handshake step is done here (empty result), a sealed message is opened.
     *
     * @param connected the UUIDs of the clients connected now
     * @return the text of a sealed message, its session proven
     * @throws AgentException in one line when the item is refused (nothing of it is run)
     */
    Optional<Opened> take(String item, Collection<String> connected) {
        JsonNode o;
        try {
            o = JSON.readTree(item);
        } catch (JsonProcessingException e) {
            throw new AgentException("unreadable message (" + OrderCheck.printable(String.valueOf(
                    e.getOriginalMessage())) + "): are the agent and the coordinator the same Loadlab version?");
        }
        String type = o.path("type").asText();
        String session = OrderCheck.session(o.path("session").asText());
        switch (type) {
            case Handshake.HELLO -> {
                hello(session, o, connected);
                return Optional.empty();
            }
            case Handshake.PROOF -> {
                proof(session, o);
                return Optional.empty();
            }
            case Envelope.TYPE -> {
                State s = proven(session);
                return Optional.of(new Opened(session, s.envelope.open(item)));
            }
            default -> throw new AgentException("a " + OrderCheck.printable(type) + " message of session " + session
                    + " is not sealed: orders are read only in a session whose coordinator proved it holds the secret");
        }
    }

    /** A sealed message's text, and the session it was sealed for. */
    record Opened(String session, String text) {}

    private void hello(String session, JsonNode o, Collection<String> connected) {
        String client = o.path("client").asText();
        OrderCheck.client(client, connected);
        byte[] nonceC = Handshake.bytes(o, "nonce");
        if (nonceC.length != Handshake.NONCE_BYTES) {
            throw new AgentException("hello of session " + session + " has a nonce of " + nonceC.length + " bytes, not "
                    + Handshake.NONCE_BYTES);
        }
        byte[] nonceA = Handshake.nonce();
        synchronized (this) {
            if (sessions.containsKey(session)) {
                throw new AgentException("hello of session " + session + " came twice: a session is proven once");
            }
            if (sessions.size() >= MAX_SESSIONS && !evictUnproven()) {
                throw new AgentException("hello of session " + session + " refused: this agent already holds "
                        + MAX_SESSIONS + " sessions");
            }
            sessions.put(session, new State(client, nonceC, nonceA));
        }
        hz.<String>getQueue(Cluster.REPLIES + session).offer(Handshake.helloAgent(session, nonceA,
                Handshake.mac(secret, "agent", session, nonceC, nonceA)));
    }

    /** Drops the oldest unproven session and the reply queue its hello made; false when all are proven. */
    private boolean evictUnproven() {
        for (Iterator<Map.Entry<String, State>> it = sessions.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, State> e = it.next();
            if (e.getValue().replies == null) {
                it.remove();
                hz.getQueue(Cluster.REPLIES + e.getKey()).destroy();
                return true;
            }
        }
        return false;
    }

    private synchronized void proof(String session, JsonNode o) {
        State s = sessions.get(session);
        if (s == null || s.replies != null) {
            throw new AgentException("proof of session " + session + " refused: no hello of that session waits for it");
        }
        if (!MessageDigest.isEqual(Handshake.bytes(o, "proof"), Handshake.mac(secret, "coordinator", session,
                s.nonceC, s.nonceA))) {
            // One try: a wrong proof ends the session, so it cannot be guessed at.
            sessions.remove(session);
            throw new AgentException("proof of session " + session + " refused: the coordinator does not hold"
                    + " this agent's secret");
        }
        s.envelope = new Envelope(Handshake.mac(secret, "session", session, s.nonceC, s.nonceA), session,
                Envelope.Direction.TO_COORDINATOR);
        s.replies = new Replies(hz.getQueue(Cluster.REPLIES + session), s.envelope);
    }

    private synchronized State proven(String session) {
        State s = sessions.get(session);
        if (s == null || s.replies == null) {
            throw new AgentException("a sealed message of session " + session + " refused: no coordinator proved it"
                    + " holds the secret in that session");
        }
        return s;
    }

    /** Where the session's answers go, sealed; empty for a session that is not proven. */
    synchronized Optional<Replies> replies(String session) {
        State s = sessions.get(session);
        return s == null ? Optional.empty() : Optional.ofNullable(s.replies);
    }

    /** Forgets the sessions of a client that disconnected. */
    synchronized void clientGone(String client) {
        sessions.values().removeIf(s -> s.client.equals(client));
    }
}
