package io.loadlab.kernel;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Builds the frames of Jupyter messages signed as a client would sign them (hmac-sha256), for the channel tests. */
final class SignedMessages {

    private final String key;

    SignedMessages(String key) {
        this.key = key;
    }

    /** An execute request for {@code code} (a new message id each time), asking for stdin when {@code stdin}. */
    List<byte[]> execute(String code, boolean stdin) throws GeneralSecurityException {
        String content = "{\"code\":\"" + code + "\",\"silent\":false,\"store_history\":true,"
                + "\"user_expressions\":{},\"allow_stdin\":" + stdin + ",\"stop_on_error\":true}";
        return frames("execute_request", "{}", content);
    }

    /** An input reply with {@code value}, answering the request whose header is {@code parentHeader}. */
    List<byte[]> inputReply(String value, String parentHeader) throws GeneralSecurityException {
        return frames("input_reply", parentHeader, "{\"value\":\"" + value + "\"}");
    }

    /** Delimiter, signature, then header, parent header, metadata and content. */
    private List<byte[]> frames(String type, String parentHeader, String content) throws GeneralSecurityException {
        String header = "{\"msg_id\":\"" + UUID.randomUUID() + "\",\"username\":\"test\",\"session\":\"s\","
                + "\"date\":\"2026-01-01T00:00:00.000000Z\",\"msg_type\":\"" + type + "\",\"version\":\"5.3\"}";
        List<byte[]> parts = List.of(utf8(header), utf8(parentHeader), utf8("{}"), utf8(content));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
        parts.forEach(mac::update);
        List<byte[]> frames = new ArrayList<>();
        frames.add(utf8("<IDS|MSG>"));
        frames.add(utf8(MessageVerifier.hex(mac.doFinal())));
        frames.addAll(parts);
        return frames;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
