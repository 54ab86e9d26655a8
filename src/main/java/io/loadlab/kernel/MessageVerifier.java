package io.loadlab.kernel;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks the signature of each message that reaches the kernel, as Jupyter's own kernels do and
 * the base kernel does not: the HMAC of its header, parent header, metadata and content is compared
 * with the one it carries in constant time ({@link MessageDigest#isEqual}), so the time a refusal
 * takes says nothing about how many leading digits were right; and a signature seen before is
 * refused, so a message captured on the wire cannot be run again. The history holds the last
 * {@link #HISTORY} signatures (Jupyter's Python kernels keep a bounded set too): an attacker who
 * replays an older one must wait for 4,096 genuine messages first. Thread-safe: the shell and
 * control channels share one verifier, and so one history.
 */
final class MessageVerifier {

    /** How many signatures the replay history keeps. */
    static final int HISTORY = 4096;

    /** The outcome of {@link #check}. */
    enum Verdict {
        /** Correctly signed and new (or the kernel runs unsigned on purpose). */
        ACCEPTED,
        /** The signature is not the HMAC of the message under the connection file's key. */
        BAD_SIGNATURE,
        /** Correctly signed, but this signature was already seen: a replay. */
        REPLAYED
    }

    private final Mac mac;
    private final Set<String> seen = new HashSet<>();
    private final ArrayDeque<String> order = new ArrayDeque<>();

    private MessageVerifier(Mac mac) {
        this.mac = mac;
    }

    /**
     * A verifier for the connection file's signature scheme and key.
     *
     * @param scheme the connection file's {@code signature_scheme}, such as {@code hmac-sha256}
     * @param key    the connection file's {@code key}; empty means messages are not signed
     * @throws GeneralSecurityException when the scheme is not an HMAC this JVM provides
     */
    static MessageVerifier of(String scheme, String key) throws GeneralSecurityException {
        if (key == null || key.isEmpty()) {
            return new MessageVerifier(null);
        }
        String algorithm = scheme.replace("-", "").toUpperCase(Locale.ROOT);
        Mac mac = Mac.getInstance(algorithm);
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.US_ASCII), algorithm));
        return new MessageVerifier(mac);
    }

    /** Whether messages are signed (the key is not empty). */
    boolean signs() {
        return mac != null;
    }

    /**
     * Checks one message and, when it is accepted, remembers its signature.
     *
     * @param signature the signature frame as received (lowercase hex of the HMAC)
     * @param parts     header, parent header, metadata and content, in that order
     */
    synchronized Verdict check(byte[] signature, List<byte[]> parts) {
        if (mac == null) {
            return Verdict.ACCEPTED;
        }
        for (byte[] part : parts) {
            mac.update(part);
        }
        byte[] expected = hex(mac.doFinal()).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, signature)) {
            return Verdict.BAD_SIGNATURE;
        }
        String digest = new String(signature, StandardCharsets.US_ASCII);
        if (!seen.add(digest)) {
            return Verdict.REPLAYED;
        }
        order.addLast(digest);
        if (order.size() > HISTORY) {
            seen.remove(order.removeFirst());
        }
        return Verdict.ACCEPTED;
    }

    /** The lowercase hex digits of {@code bytes}, as Jupyter writes signatures. */
    static String hex(byte[] bytes) {
        StringBuilder b = new StringBuilder(bytes.length * 2);
        for (byte x : bytes) {
            b.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return b.toString();
    }
}
