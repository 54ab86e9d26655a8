package io.loadlab.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.channels.Loop;
import io.github.spencerpark.jupyter.channels.ShellChannel;
import io.github.spencerpark.jupyter.channels.ShellReplyEnvironment;
import io.github.spencerpark.jupyter.channels.StdinChannel;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import io.github.spencerpark.jupyter.messages.Message;
import io.github.spencerpark.jupyter.messages.MessageContext;
import io.github.spencerpark.jupyter.messages.MessageType;
import io.github.spencerpark.jupyter.messages.publish.PublishError;
import io.github.spencerpark.jupyter.messages.reply.CommInfoReply;
import io.github.spencerpark.jupyter.messages.reply.ErrorReply;
import io.github.spencerpark.jupyter.messages.reply.HistoryReply;
import io.github.spencerpark.jupyter.messages.reply.InterruptReply;
import io.github.spencerpark.jupyter.messages.reply.KernelInfoReply;
import io.github.spencerpark.jupyter.messages.reply.ShutdownReply;
import java.lang.reflect.Field;
import java.security.GeneralSecurityException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.zeromq.ZMQ;

/**
 * The kernel's ZeroMQ connection, which fixes two things in the base kernel's messages. It names
 * a failed cell's error after the Java exception: the base kernel names errors after the class of
 * the exception that {@code eval} threw (always {@link CellError}), so this connection replaces
 * that {@code error} message and {@code execute_reply} with the name, message and traceback the
 * {@link CellError} carries. And it adds the {@code "status": "ok"} that protocol 5.1 requires to
 * the replies whose base-kernel classes lack it (kernel info, shutdown, interrupt, comm info,
 * history).
 * Its channel threads outlive errors: see {@link #connect()}. Its shell, control and stdin channels
 * refuse wrongly signed, replayed and oversized messages ({@link #guard}).
 */
final class KernelConnection extends JupyterConnection {

    private static final Logger LOG = Logger.getLogger(KernelConnection.class.getName());
    /**
     * How long the shell and control threads sleep between looks for a message: the base kernel's
     * 50 ms made every request wait 25 ms on average for its thread to wake (a trivial cell, 60 ms
     * of work, took 120 ms).
     */
    static final long POLL_MS = Long.getLong("loadlab.kernel.pollMs", 2);
    /** How long a channel thread waits after an error before it polls again. */
    private static final long RETRY_MS = 50;

    private final LoadlabKernel kernel;

    KernelConnection(KernelConnectionProperties properties, LoadlabKernel kernel, Consumer<String> log)
            throws GeneralSecurityException {
        super(properties);
        this.kernel = kernel;
        guard(this, properties, log);
    }

    /**
     * Puts {@link SignedShellChannel}s in place of the base kernel's shell and control channels and a
     * {@link SignedStdinChannel} in place of its stdin channel (before {@link #connect()} binds them),
     * sharing one {@link MessageVerifier}: the base channels compare signatures with
     * {@code String.equals} and accept a replayed message again.
     * Package-private and static so that tests guard a plain {@code JupyterConnection} the same way.
     *
     * @param log where one line about each refused message goes
     * @throws GeneralSecurityException when the signature scheme is not an HMAC this JVM provides
     */
    static void guard(JupyterConnection connection, KernelConnectionProperties properties, Consumer<String> log)
            throws GeneralSecurityException {
        MessageVerifier verifier = MessageVerifier.of(properties.getSignatureScheme(), properties.getKey());
        try {
            ZMQ.Context ctx = (ZMQ.Context) field(JupyterConnection.class, "ctx").get(connection);
            for (String name : List.of("shell", "control")) {
                Field f = field(JupyterConnection.class, name);
                ShellChannel base = (ShellChannel) f.get(connection);
                f.set(connection, new SignedShellChannel(ctx, name.equals("control"), connection, verifier,
                        properties.createHMACGenerator(), log, POLL_MS));
                base.close();
            }
            Field stdin = field(JupyterConnection.class, "stdin");
            StdinChannel baseStdin = (StdinChannel) stdin.get(connection);
            stdin.set(connection, new SignedStdinChannel(ctx, properties.createHMACGenerator(), verifier, log));
            baseStdin.close();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("jupyter-jvm-basekernel changed: cannot replace its shell, control and stdin channels", e);
        }
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    /**
     * Binds the sockets and starts the channel threads. The base kernel's shell, control and
     * heartbeat threads end for good on any {@link Error}: one {@link OutOfMemoryError} while a
     * cell fills the heap would leave a kernel that looks alive (its process runs) but never
     * answers, or whose heartbeat stops, so that Jupyter restarts it and every variable is lost.
     * So each keeps polling after an error instead.
     */
    @Override
    public void connect() {
        super.connect();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t instanceof Loop loop) {
                String name = loop.getName();
                loop.onError(e -> {
                    try {
                        LOG.log(Level.WARNING, "loadlab kernel: " + name + " goes on after " + e);
                    } catch (Throwable logFailed) {
                        // The heap may still be full: the thread going on matters more than the log line.
                    }
                    return RETRY_MS;
                });
            }
        }
    }

    @Override
    public ShellReplyEnvironment prepareReplyEnv(ShellChannel shell, MessageContext context) {
        return new Environment(shell, context);
    }

    private final class Environment extends ShellReplyEnvironment {

        Environment(ShellChannel shell, MessageContext context) {
            super(shell, KernelConnection.this.stdin, KernelConnection.this.iopub, context);
        }

        @Override
        public void publish(Message<?> message) {
            Optional<LoadlabKernel.Failure> failure = failureFor(message.getContent());
            if (failure.isPresent()) {
                CellError e = failure.get().error();
                super.publish(new Message<>(getContext(), PublishError.MESSAGE_TYPE,
                        new PublishError(e.ename(), e.evalue(), e.traceback())));
            } else {
                super.publish(message);
            }
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public void reply(Message<?> message) {
            Optional<Map<String, Object>> content = withStatus(message.getContent());
            if (content.isPresent()) {
                MessageType type = message.getHeader().getType();
                super.reply(new Message<>(getContext(), (MessageType<Map<String, Object>>) type, content.get()));
            } else {
                super.reply(message);
            }
        }

        @Override
        public void replyError(MessageType<?> type, ErrorReply error) {
            Optional<LoadlabKernel.Failure> failure = failureFor(error);
            if (failure.isPresent()) {
                CellError e = failure.get().error();
                ErrorReply named = new ErrorReply(e.ename(), e.evalue(), e.traceback());
                named.setExecutionCount(failure.get().executionCount());
                super.replyError(type, named);
            } else {
                super.replyError(type, error);
            }
        }

        /** The content of a reply with a status, for the reply classes that lack one. */
        private Optional<Map<String, Object>> withStatus(Object content) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("status", "ok");
            if (content instanceof KernelInfoReply r) {
                m.put("protocol_version", r.getProtocolVersion());
                m.put("implementation", "loadlab");
                String version = LoadlabKernel.class.getPackage().getImplementationVersion();
                m.put("implementation_version", version == null ? "development build" : version);
                m.put("language_info", r.getLangInfo());
                m.put("banner", r.getBanner() == null ? "" : r.getBanner());
                m.put("help_links", r.getHelpLinks() == null ? List.of() : r.getHelpLinks());
            } else if (content instanceof ShutdownReply r) {
                m.put("restart", r.isRestart());
            } else if (content instanceof HistoryReply r) {
                // Protocol 5: [session, line, input], or [session, line, [input, output]] with outputs.
                m.put("history", r.getHistory().stream().map(e -> List.of(e.getSession(), e.getCellNumber(),
                        e.hasOutput() ? List.of(e.getInput(), e.getOutput()) : e.getInput())).toList());
            } else if (content instanceof CommInfoReply r) {
                m.put("comms", r.getComms());
            } else if (!(content instanceof InterruptReply)) {
                return Optional.empty();
            }
            return Optional.of(m);
        }

        /** The kernel's last failure when this content reports it (under the name "CellError"). */
        private Optional<LoadlabKernel.Failure> failureFor(Object content) {
            String name = content instanceof PublishError p ? p.getErrorName()
                    : content instanceof ErrorReply r ? r.getErrorName() : null;
            return CellError.class.getSimpleName().equals(name) ? kernel.lastFailure() : Optional.empty();
        }
    }
}
