package io.loadlab.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The sealing of a session's messages, and the handshake's MACs it is keyed with. */
class EnvelopeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Secret SECRET = Secret.of("the envelope test's shared secret");
    private final String session = UUID.randomUUID().toString();
    private final byte[] nonceC = Handshake.nonce();
    private final byte[] nonceA = Handshake.nonce();
    private final byte[] key = Handshake.mac(SECRET, "session", session, nonceC, nonceA);

    private Envelope coordinator() {
        return new Envelope(key, session, Envelope.Direction.TO_AGENT);
    }

    private Envelope agent() {
        return new Envelope(key, session, Envelope.Direction.TO_COORDINATOR);
    }

    @Test
    void theOtherSideOpensWhatOneSealsAndTheTextIsNotInClear() {
        Envelope c = coordinator();
        Envelope a = agent();
        String order = "{\"type\":\"launch\",\"key_pem\":\"-----BEGIN PRIVATE KEY-----\"}";
        String sealed = c.seal(order);
        assertFalse(sealed.contains("key_pem") || sealed.contains("PRIVATE"), sealed);
        assertEquals(order, a.open(sealed));
        assertEquals("{\"type\":\"ready\"}", c.open(a.seal("{\"type\":\"ready\"}")));
        assertEquals("second", a.open(c.seal("second")));
    }

    @Test
    void aBoxWithOneByteChangedIsRefused() throws Exception {
        ObjectNode o = (ObjectNode) JSON.readTree(coordinator().seal("{\"type\":\"ping\"}"));
        byte[] box = Base64.getDecoder().decode(o.get("box").asText());
        box[3] ^= 1;
        o.put("box", Base64.getEncoder().encodeToString(box));
        AgentException e = assertThrows(AgentException.class, () -> agent().open(o.toString()));
        assertTrue(e.getMessage().contains("failed to authenticate"), e.getMessage());
    }

    /** The counter is in the nonce: a box moved to another counter does not authenticate either. */
    @Test
    void aBoxUnderAnotherCounterIsRefused() throws Exception {
        ObjectNode o = (ObjectNode) JSON.readTree(coordinator().seal("{\"type\":\"ping\"}"));
        o.put("seq", 2);
        AgentException e = assertThrows(AgentException.class, () -> agent().open(o.toString()));
        assertTrue(e.getMessage().contains("failed to authenticate"), e.getMessage());
    }

    @Test
    void aReplayedOrOlderBoxIsRefused() {
        Envelope c = coordinator();
        Envelope a = agent();
        String first = c.seal("first");
        String second = c.seal("second");
        assertEquals("second", a.open(second));
        AgentException replay = assertThrows(AgentException.class, () -> a.open(second));
        assertTrue(replay.getMessage().contains("was replayed (counter 2, last accepted 2)"), replay.getMessage());
        AgentException older = assertThrows(AgentException.class, () -> a.open(first));
        assertTrue(older.getMessage().contains("was replayed (counter 1"), older.getMessage());
    }

    @Test
    void aBoxSealedWithAnotherKeyIsRefused() {
        byte[] other = Handshake.mac(Secret.of("another secret of enough length"), "session", session, nonceC, nonceA);
        String sealed = new Envelope(other, session, Envelope.Direction.TO_AGENT).seal("{\"type\":\"ping\"}");
        AgentException e = assertThrows(AgentException.class, () -> agent().open(sealed));
        assertTrue(e.getMessage().contains("failed to authenticate"), e.getMessage());
    }

    /** An agent's answer sent back to it as if it were an order, and a coordinator's own order echoed to it. */
    @Test
    void aBoxSentBackTheOtherWayIsRefused() {
        String answer = agent().seal("{\"type\":\"ready\"}");
        assertThrows(AgentException.class, () -> agent().open(answer));
        String order = coordinator().seal("{\"type\":\"ping\"}");
        assertThrows(AgentException.class, () -> coordinator().open(order));
    }

    @Test
    void aBoxOfAnotherSessionOrAnUnsealedMessageIsRefused() throws Exception {
        ObjectNode o = (ObjectNode) JSON.readTree(coordinator().seal("{\"type\":\"ping\"}"));
        o.put("session", UUID.randomUUID().toString());
        assertThrows(AgentException.class, () -> agent().open(o.toString()));
        AgentException plain = assertThrows(AgentException.class, () -> agent().open(
                "{\"type\":\"ping\",\"session\":\"" + session + "\",\"seq\":1}"));
        assertTrue(plain.getMessage().contains("is not sealed for session"), plain.getMessage());
    }

    /** Each proof and the key have labels of their own; the parts are length-prefixed, so none is confused. */
    @Test
    void theHandshakesMacsDifferByLabelSecretAndNonces() {
        assertArrayEquals(key, Handshake.mac(SECRET, "session", session, nonceC, nonceA));
        List<byte[]> others = List.of(Handshake.mac(SECRET, "agent", session, nonceC, nonceA),
                Handshake.mac(SECRET, "coordinator", session, nonceC, nonceA),
                Handshake.mac(SECRET, "session", session, nonceA, nonceC),
                Handshake.mac(Secret.of("another secret of enough length"), "session", session, nonceC, nonceA));
        for (byte[] o : others) {
            assertFalse(java.util.Arrays.equals(key, o));
        }
        assertFalse(java.util.Arrays.equals(SECRET.mac("x", List.of(new byte[] {1, 2}, new byte[] {3})),
                SECRET.mac("x", List.of(new byte[] {1}, new byte[] {2, 3}))));
    }
}
