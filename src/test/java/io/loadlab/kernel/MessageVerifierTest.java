package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.kernel.MessageVerifier.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** The signature check on its own: near misses, replays, the bounded history, unsigned mode. */
class MessageVerifierTest {

    private static final String KEY = "c0ffee-key";

    @Test
    void aCorrectSignatureIsAcceptedAndEveryNearMissRefused() throws Exception {
        MessageVerifier v = MessageVerifier.of("hmac-sha256", KEY);
        assertEquals(Verdict.ACCEPTED, v.check(sign(parts("a")), parts("a")));
        String good = new String(sign(parts("b")), StandardCharsets.US_ASCII);
        String lastDigitOff = good.substring(0, good.length() - 1) + (good.endsWith("0") ? "1" : "0");
        for (String bad : List.of(lastDigitOff, good.toUpperCase(Locale.ROOT), good.substring(0, 63), good + "0", "")) {
            if (!bad.equals(good)) {
                assertEquals(Verdict.BAD_SIGNATURE, v.check(ascii(bad), parts("b")), bad);
            }
        }
        assertEquals(Verdict.BAD_SIGNATURE, v.check(sign(parts("b")), parts("c")), "a signature of another message");
        assertEquals(Verdict.ACCEPTED, v.check(ascii(good), parts("b")), "refusals leave nothing in the history");
    }

    @Test
    void aSignatureIsAcceptedOnceAndTheHistoryIsBounded() throws Exception {
        MessageVerifier v = MessageVerifier.of("hmac-sha256", KEY);
        assertEquals(Verdict.ACCEPTED, v.check(sign(parts("first")), parts("first")));
        assertEquals(Verdict.REPLAYED, v.check(sign(parts("first")), parts("first")));
        for (int i = 0; i < MessageVerifier.HISTORY - 1; i++) {
            assertEquals(Verdict.ACCEPTED, v.check(sign(parts("m" + i)), parts("m" + i)));
        }
        assertEquals(Verdict.REPLAYED, v.check(sign(parts("first")), parts("first")), "still among the last 4096");
        assertEquals(Verdict.ACCEPTED, v.check(sign(parts("one more")), parts("one more")));
        assertEquals(Verdict.ACCEPTED, v.check(sign(parts("first")), parts("first")),
                "4096 later the oldest signature is forgotten: the history does not grow without bound");
    }

    @Test
    void anEmptyKeyAcceptsEverything() throws Exception {
        MessageVerifier v = MessageVerifier.of("hmac-sha256", "");
        assertFalse(v.signs());
        assertEquals(Verdict.ACCEPTED, v.check(new byte[0], parts("x")));
        assertEquals(Verdict.ACCEPTED, v.check(new byte[0], parts("x")));
        assertTrue(MessageVerifier.of("hmac-sha256", KEY).signs());
    }

    /** Constant time by construction: the comparison is MessageDigest.isEqual, never a String or Arrays compare. */
    @Test
    void theSignatureIsComparedWithMessageDigestIsEqual() throws Exception {
        String source = Files.readString(Path.of("src/main/java/io/loadlab/kernel/MessageVerifier.java"));
        String check = source.substring(source.indexOf("synchronized Verdict check("));
        check = check.substring(0, check.indexOf("\n    }\n"));
        assertTrue(check.contains("MessageDigest.isEqual(expected, signature)"), check);
        assertFalse(check.contains(".equals(") || check.contains("Arrays.equals"), check);
    }

    private static List<byte[]> parts(String content) {
        return List.of(ascii("{\"msg_id\":\"" + content + "\"}"), ascii("{}"), ascii("{}"), ascii(content));
    }

    private static byte[] sign(List<byte[]> parts) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(ascii(KEY), "HmacSHA256"));
        parts.forEach(mac::update);
        return ascii(MessageVerifier.hex(mac.doFinal()));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
