package io.loadlab.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.core.HazelcastInstance;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How a coordinator and an agent prove to each other that they hold the secret, before any order:
 * the coordinator sends {@code hello} with a fresh 32-byte nonce; the agent answers {@code hello_agent}
 * with a nonce of its own and {@code proof = HMAC(secret, "agent" | session | nonce_c | nonce_a)}; the
 * coordinator checks that proof in constant time, and only then sends {@code proof} made with the label
 * {@code coordinator}, which the agent checks. Both then hold the session key {@code HMAC(secret,
 * "session" | session | nonce_c | nonce_a)} and seal everything else with it ({@link Envelope}).
 * Hazelcast's cluster name, which it sends in clear, proves nothing; these proofs do, and the nonces of
 * both sides make each one good for one session only. Stateless; the agent's side is {@link AgentSessions}.
 */
final class Handshake {

    static final String HELLO = "hello";
    static final String HELLO_AGENT = "hello_agent";
    static final String PROOF = "proof";
    /** Bytes of each side's nonce. */
    static final int NONCE_BYTES = 32;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();

    private Handshake() {
    }

    /**
     * The coordinator's side, on a client connected to {@code agent}: nothing but {@code hello} and,
     * once the agent proved itself, {@code proof} is sent.
     *
     * @return this side's envelope for the session
     * @throws AgentException naming the agent when it does not answer within {@code timeout}, refuses,
     *                        or does not prove it holds the secret
     */
    static Envelope coordinator(HazelcastInstance client, Secret secret, String session, HostPort agent,
                                Duration timeout) {
        byte[] nonceC = nonce();
        client.<String>getQueue(Cluster.INBOX).offer(hello(session, client.getLocalEndpoint().getUuid().toString(),
                nonceC));
        JsonNode answer = answer(client, session, agent, timeout);
        if ("refused".equals(answer.path("type").asText())) {
            throw new AgentException("agent " + agent + " refused the handshake: " + answer.path("error").asText());
        }
        byte[] nonceA = bytes(answer, "nonce");
        byte[] proof = bytes(answer, "proof");
        if (!HELLO_AGENT.equals(answer.path("type").asText()) || nonceA.length != NONCE_BYTES
                || !MessageDigest.isEqual(proof, mac(secret, "agent", session, nonceC, nonceA))) {
            throw new AgentException("agent " + agent + " did not prove it holds the secret: its answer to the"
                    + " handshake does not match (is it a Loadlab agent of this version with the same --secret-file?)");
        }
        client.<String>getQueue(Cluster.INBOX).offer(proof(session, mac(secret, "coordinator", session, nonceC,
                nonceA)));
        return new Envelope(mac(secret, "session", session, nonceC, nonceA), session, Envelope.Direction.TO_AGENT);
    }

    private static JsonNode answer(HazelcastInstance client, String session, HostPort agent, Duration timeout) {
        String text;
        try {
            text = client.<String>getQueue(Cluster.REPLIES + session).poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AgentException("interrupted during the handshake with agent " + agent, e);
        }
        if (text == null) {
            throw new AgentException("agent " + agent + " did not answer the handshake within " + timeout.toMillis()
                    + "ms: is it a Loadlab agent of this version (" + Agent.VERSION + ")?");
        }
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new AgentException("agent " + agent + " did not prove it holds the secret: its answer to the"
                    + " handshake is not JSON");
        }
    }

    /** The proof or session key with {@code label} ({@code agent}, {@code coordinator}, {@code session}). */
    static byte[] mac(Secret secret, String label, String session, byte[] nonceC, byte[] nonceA) {
        return secret.mac("loadlab handshake v1 " + label,
                List.of(session.getBytes(StandardCharsets.UTF_8), nonceC, nonceA));
    }

    static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /** The coordinator's first item: {@code client} is its Hazelcast client UUID, whose disconnection ends the session. */
    static String hello(String session, String client, byte[] nonceC) {
        return JSON.createObjectNode().put("type", HELLO).put("session", session).put("client", client)
                .put("nonce", b64(nonceC)).toString();
    }

    static String helloAgent(String session, byte[] nonceA, byte[] proof) {
        return JSON.createObjectNode().put("type", HELLO_AGENT).put("session", session).put("nonce", b64(nonceA))
                .put("proof", b64(proof)).toString();
    }

    static String proof(String session, byte[] proof) {
        return JSON.createObjectNode().put("type", PROOF).put("session", session).put("proof", b64(proof)).toString();
    }

    /** A Base64 field, or no bytes when it is missing or not Base64 (which then matches no proof). */
    static byte[] bytes(JsonNode o, String field) {
        try {
            return Base64.getDecoder().decode(o.path(field).asText());
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }
}
