package io.loadlab.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * One side of a session's sealed link, after its {@link Handshake}: every order and answer travels as
 * {@code {"type":"sealed","session":S,"seq":N,"box":B64}}, the message's JSON text encrypted with
 * AES-256-GCM under the session key. The 12-byte nonce is the direction (4 bytes) and a counter of that
 * direction (8 bytes), so no nonce repeats under one key; the session and direction are associated data,
 * so a box is valid only in its own session and direction. The receiver accepts a counter only when it
 * is greater than the last one it accepted, so a box replayed, or sent back the other way, is refused.
 * Thread-safe: {@link #seal} and {@link #open} are synchronized (a sender must also offer sealed texts
 * in counter order, which {@link Replies} does).
 */
final class Envelope {

    /** Who a box is for. */
    enum Direction {
        TO_AGENT, TO_COORDINATOR
    }

    /** The {@code type} of a sealed item. */
    static final String TYPE = "sealed";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final String session;
    private final Direction out;
    private final Direction in;
    private long sent;
    private long accepted;

    /**
     * @param sessionKey 32 bytes ({@link Handshake})
     * @param out        the direction this side sends in; it opens the other one
     */
    Envelope(byte[] sessionKey, String session, Direction out) {
        if (sessionKey.length != 32) {
            throw new IllegalArgumentException("a session key has 32 bytes, not " + sessionKey.length);
        }
        this.key = new SecretKeySpec(sessionKey, "AES");
        this.session = session;
        this.out = out;
        this.in = out == Direction.TO_AGENT ? Direction.TO_COORDINATOR : Direction.TO_AGENT;
    }

    String session() {
        return session;
    }

    /** {@code text} sealed under the next counter of this side's direction. */
    synchronized String seal(String text) {
        sent++;
        byte[] box = crypt(Cipher.ENCRYPT_MODE, out, sent, text.getBytes(StandardCharsets.UTF_8));
        return JSON.createObjectNode().put("type", TYPE).put("session", session).put("seq", sent)
                .put("box", Base64.getEncoder().encodeToString(box)).toString();
    }

    /**
     * The text inside a sealed item of this session.
     *
     * @throws AgentException in one line when it is not a sealed item of this session, fails to
     *                        authenticate (tampered, another key, another direction) or is replayed
     */
    synchronized String open(String item) {
        JsonNode o = parse(item);
        if (!TYPE.equals(o.path("type").asText()) || !session.equals(o.path("session").asText())) {
            throw new AgentException("a message of session " + OrderCheck.printable(o.path("session").asText())
                    + " is not sealed for session " + session + ": only sealed messages of a session are read");
        }
        long seq = o.path("seq").asLong(0);
        if (seq <= accepted) {
            throw new AgentException("a sealed message of session " + session + " was replayed (counter " + seq
                    + ", last accepted " + accepted + ")");
        }
        byte[] box;
        try {
            box = Base64.getDecoder().decode(o.path("box").asText());
        } catch (IllegalArgumentException e) {
            throw new AgentException("a sealed message of session " + session + " has a box that is not Base64");
        }
        String text = new String(crypt(Cipher.DECRYPT_MODE, in, seq, box), StandardCharsets.UTF_8);
        accepted = seq;
        return text;
    }

    private static JsonNode parse(String item) {
        try {
            return JSON.readTree(item);
        } catch (JsonProcessingException e) {
            throw new AgentException("unreadable message (" + OrderCheck.printable(
                    String.valueOf(e.getOriginalMessage())) + ")");
        }
    }

    private byte[] crypt(int mode, Direction d, long seq, byte[] input) {
        byte[] nonce = ByteBuffer.allocate(12).putInt(d.ordinal()).putLong(seq).array();
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(("loadlab sealed v1|" + session + "|" + d).getBytes(StandardCharsets.UTF_8));
            return c.doFinal(input);
        } catch (AEADBadTagException e) {
            throw new AgentException("a sealed message of session " + session + " failed to authenticate: it was"
                    + " altered, or sealed with another key or for the other direction");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is part of every Java 17 runtime", e);
        }
    }
}
