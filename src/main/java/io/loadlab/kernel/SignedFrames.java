package io.loadlab.kernel;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.github.spencerpark.jupyter.channels.JupyterSocket;
import io.github.spencerpark.jupyter.messages.Header;
import io.github.spencerpark.jupyter.messages.Message;
import java.lang.reflect.Field;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.zeromq.ZMQ;

/**
 * Reads one Jupyter message from a socket and checks it before anyone parses it: its size (at most
 * {@link #MAX_MESSAGE_BYTES} over all frames), its frames, its signature and that it is not a replay
 * ({@link MessageVerifier}). The one reader of the kernel's incoming messages: the shell and control
 * channels ({@link SignedShellChannel}) and the stdin channel ({@link SignedStdinChannel}) use it in
 * place of the base kernel's {@code JupyterSocket.readMessage}, which compares signatures with
 * {@code String.equals} and keeps no history.
 */
final class SignedFrames {

    /** The most bytes a message may have over all its frames: 64 MiB. */
    static final long MAX_MESSAGE_BYTES = Long.getLong("loadlab.kernel.maxMessageBytes", 64L << 20);
    private static final byte[] DELIMITER = "<IDS|MSG>".getBytes(StandardCharsets.US_ASCII);
    /** The base kernel's own Gson (with its adapters for headers, message types, timestamps). */
    private static final Gson GSON = baseField("gson", Gson.class);
    private static final Type JSON_MAP = baseField("JSON_OBJ_AS_MAP", Type.class);

    private SignedFrames() {
    }

    /**
     * Receives every frame of the next message (blocking as the socket's receive does) and parses it
     * when it passes the checks.
     *
     * @param refused told what was dropped, in a few words, when the message is refused
     * @return the message, or empty when it was refused
     * @throws IllegalStateException when the socket gives no frame (it was closed)
     */
    static Optional<Message<?>> read(ZMQ.Socket socket, MessageVerifier verifier, Consumer<String> refused) {
        List<byte[]> frames = new ArrayList<>();
        long bytes = 0;
        boolean more = true;
        while (more) {
            byte[] frame = socket.recv();
            if (frame == null && frames.isEmpty()) {
                throw new IllegalStateException("the kernel's socket was closed while it waited for a message");
            }
            more = socket.hasReceiveMore();
            bytes += frame == null ? 0 : frame.length;
            if (bytes <= MAX_MESSAGE_BYTES && frame != null) {
                frames.add(frame);
            }
        }
        if (bytes > MAX_MESSAGE_BYTES) {
            return refuse(refused, String.format(Locale.ROOT, "a message of %,d bytes (more than %,d)", bytes,
                    MAX_MESSAGE_BYTES));
        }
        int delimiter = indexOfDelimiter(frames);
        if (delimiter < 0 || frames.size() < delimiter + 6) {
            return refuse(refused, "a message without Jupyter's frames (" + frames.size() + " frames)");
        }
        List<byte[]> signed = frames.subList(delimiter + 2, delimiter + 6);
        Optional<String> refusal = switch (verifier.check(frames.get(delimiter + 1), signed)) {
            case ACCEPTED -> Optional.empty();
            case BAD_SIGNATURE -> Optional.of("a message with a bad signature");
            case REPLAYED -> Optional.of("a replayed message (its signature was seen before)");
        };
        if (refusal.isPresent()) {
            return refuse(refused, refusal.get());
        }
        try {
            return Optional.of(parse(frames.subList(0, delimiter), signed, frames.subList(delimiter + 6, frames.size())));
        } catch (JsonParseException | IllegalStateException e) {
            return refuse(refused, "a signed message that is not valid JSON (" + e.getMessage() + ")");
        }
    }

    private static Optional<Message<?>> refuse(Consumer<String> refused, String what) {
        refused.accept(what);
        return Optional.empty();
    }

    private static int indexOfDelimiter(List<byte[]> frames) {
        for (int i = 0; i < frames.size(); i++) {
            if (Arrays.equals(DELIMITER, frames.get(i))) {
                return i;
            }
        }
        return -1;
    }

    /** Parses the frames as {@code JupyterSocket.readMessage} does, with the base kernel's Gson. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Message<?> parse(List<byte[]> identities, List<byte[]> signed, List<byte[]> blobs) {
        Header<?> header = GSON.fromJson(utf8(signed.get(0)), Header.class);
        if (header == null || header.getType() == null) {
            throw new JsonParseException("no header with a msg_type");
        }
        JsonElement parentJson = new JsonParser().parse(utf8(signed.get(1)));
        Header<?> parent = parentJson.isJsonObject() && parentJson.getAsJsonObject().size() > 0
                ? GSON.fromJson(parentJson, Header.class) : null;
        Map<String, Object> metadata = GSON.fromJson(utf8(signed.get(2)), JSON_MAP);
        Object content = GSON.fromJson(utf8(signed.get(3)), header.getType().getContentType());
        return new Message(new ArrayList<>(identities), header, parent, metadata, content, new ArrayList<>(blobs));
    }

    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static <T> T baseField(String name, Class<T> type) {
        try {
            Field f = JupyterSocket.class.getDeclaredField(name);
            f.setAccessible(true);
            return type.cast(f.get(null));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("jupyter-jvm-basekernel changed: JupyterSocket has no static " + name, e);
        }
    }
}
