package io.loadlab.kernel;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.channels.JupyterSocket;
import io.github.spencerpark.jupyter.channels.Loop;
import io.github.spencerpark.jupyter.channels.ShellChannel;
import io.github.spencerpark.jupyter.channels.ShellHandler;
import io.github.spencerpark.jupyter.channels.ShellReplyEnvironment;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import io.github.spencerpark.jupyter.messages.HMACGenerator;
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
import java.util.logging.Level;
import org.zeromq.ZMQ;

/**
 * A shell or control channel that checks every message before the kernel sees it: its size (at
 * most {@link #MAX_MESSAGE_BYTES} over all frames), its signature and that it is not a replay
 * ({@link MessageVerifier}). The base kernel's {@code ShellChannel} reads a message with
 * {@code JupyterSocket.readMessage}, which compares signatures with {@code String.equals}, keeps
 * no history, and is called with {@code invokespecial} from the channel's loop, so it cannot be
 * overridden; this channel binds its socket and runs a loop of its own instead, which reads the
 * frames itself and then parses and dispatches the message as the base loop does. A refused
 * message is dropped with one line on {@code log} and never reaches a handler.
 */
final class SignedShellChannel extends ShellChannel {

    /** The most bytes a message may have over all its frames: 64 MiB. */
    static final long MAX_MESSAGE_BYTES = Long.getLong("loadlab.kernel.maxMessageBytes", 64L << 20);
    private static final byte[] DELIMITER = "<IDS|MSG>".getBytes(StandardCharsets.US_ASCII);
    /** The base kernel's own Gson (with its adapters for headers, message types, timestamps). */
    private static final Gson GSON = baseField("gson", Gson.class);
    private static final Type JSON_MAP = baseField("JSON_OBJ_AS_MAP", Type.class);

    private final boolean control;
    private final JupyterConnection connection;
    private final MessageVerifier verifier;
    private final Consumer<String> log;
    private final long pollMs;
    private volatile Loop loop;

    /**
     * @param control    whether this is the control channel (else the shell channel)
     * @param connection where handlers are found and reply environments made
     * @param verifier   the connection's verifier, shared by its shell and control channels
     * @param signer     signs what this channel sends (the connection file's key)
     * @param log        where one line about each refused message goes
     * @param pollMs     how long the loop sleeps between looks for a message, in milliseconds
     */
    SignedShellChannel(ZMQ.Context context, boolean control, JupyterConnection connection, MessageVerifier verifier,
            HMACGenerator signer, Consumer<String> log, long pollMs) {
        super(context, signer, control, connection);
        this.control = control;
        this.connection = connection;
        this.verifier = verifier;
        this.log = log;
        this.pollMs = pollMs;
        // ZeroMQ drops a larger frame (and its connection) before it is allocated.
        setMaxMsgSize(MAX_MESSAGE_BYTES);
    }

    @Override
    public void bind(KernelConnectionProperties props) {
        if (loop != null) {
            throw new IllegalStateException("the " + name() + " channel is already bound");
        }
        bind(formatAddress(props.getTransport(), props.getIp(), control ? props.getControlPort() : props.getShellPort()));
        ZMQ.Poller poller = ctx.poller(1);
        poller.register(this, ZMQ.Poller.POLLIN);
        Loop l = new Loop("loadlab-" + name(), pollMs, () -> {
            if (poller.poll(0) > 0) {
                receive().ifPresent(this::dispatch);
            }
        });
        l.onClose(() -> loop = null);
        loop = l;
        l.start();
    }

    @Override
    public void close() {
        Loop l = loop;
        if (l != null) {
            l.shutdown();
        }
        super.close();
    }

    @Override
    public void waitUntilClose() {
        Loop l = loop;
        if (l != null) {
            try {
                l.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Reads one message's frames; empty (with a line on the log) when it is refused. */
    synchronized Optional<Message<?>> receive() {
        List<byte[]> frames = new ArrayList<>();
        long bytes = 0;
        boolean more = true;
        while (more) {
            byte[] frame = recv();
            more = hasReceiveMore();
            bytes += frame == null ? 0 : frame.length;
            if (bytes <= MAX_MESSAGE_BYTES && frame != null) {
                frames.add(frame);
            }
        }
        if (bytes > MAX_MESSAGE_BYTES) {
            return refuse(String.format(Locale.ROOT, "a message of %,d bytes (more than %,d)", bytes,
                    MAX_MESSAGE_BYTES));
        }
        int delimiter = indexOfDelimiter(frames);
        if (delimiter < 0 || frames.size() < delimiter + 6) {
            return refuse("a message without Jupyter's frames (" + frames.size() + " frames)");
        }
        List<byte[]> signed = frames.subList(delimiter + 2, delimiter + 6);
        Optional<String> refusal = switch (verifier.check(frames.get(delimiter + 1), signed)) {
            case ACCEPTED -> Optional.empty();
            case BAD_SIGNATURE -> Optional.of("a message with a bad signature");
            case REPLAYED -> Optional.of("a replayed message (its signature was seen before)");
        };
        if (refusal.isPresent()) {
            return refuse(refusal.get());
        }
        try {
            return Optional.of(parse(frames.subList(0, delimiter), signed, frames.subList(delimiter + 6, frames.size())));
        } catch (JsonParseException | IllegalStateException e) {
            return refuse("a signed message that is not valid JSON (" + e.getMessage() + ")");
        }
    }

    private Optional<Message<?>> refuse(String what) {
        log.accept("loadlab kernel: the " + name() + " channel dropped " + what);
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

    /** Hands a message to its handler, as the base kernel's shell loop does. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private void dispatch(Message<?> message) {
        ShellHandler handler = connection.getHandler(message.getHeader().getType());
        if (handler == null) {
            logger.log(Level.SEVERE, "Unhandled message: " + message.getHeader().getType().getName());
            return;
        }
        ShellReplyEnvironment env = connection.prepareReplyEnv(this, message);
        try {
            handler.handle(env, message);
        } catch (Exception e) {
            logger.log(Level.SEVERE, "Unhandled exception handling " + message.getHeader().getType().getName() + ": " + e);
        } finally {
            env.resolveDeferrals();
        }
        if (env.isMarkedForShutdown()) {
            connection.close();
        }
    }

    private String name() {
        return control ? "control" : "shell";
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
