package io.loadlab.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.channels.Loop;
import io.github.spencerpark.jupyter.channels.ShellChannel;
import io.github.spencerpark.jupyter.channels.ShellHandler;
import io.github.spencerpark.jupyter.channels.ShellReplyEnvironment;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import io.github.spencerpark.jupyter.messages.HMACGenerator;
import io.github.spencerpark.jupyter.messages.Message;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.logging.Level;
import org.zeromq.ZMQ;

/**
 * A shell or control channel that checks every message before the kernel sees it: its size (at
 * most {@link SignedFrames#MAX_MESSAGE_BYTES} over all frames), its signature and that it is not a replay
 * ({@link MessageVerifier}). The base kernel's {@code ShellChannel} reads a message with
 * {@code JupyterSocket.readMessage}, which compares signatures with {@code String.equals}, keeps
 * no history, and is called with {@code invokespecial} from the channel's loop, so it cannot be
 * overridden; this channel binds its socket and runs a loop of its own instead, which reads the
 * frames itself and then parses and dispatches the message as the base loop does. A refused
 * message is dropped with one line on {@code log} and never reaches a handler.
 */
final class SignedShellChannel extends ShellChannel {

    /** How long {@link #close()} waits for the loop to stop, in milliseconds. */
    private static final long CLOSE_WAIT_MS = 1_000;

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
        setMaxMsgSize(SignedFrames.MAX_MESSAGE_BYTES);
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

    /**
     * Stops the loop, waits (at most {@link #CLOSE_WAIT_MS}) for it to leave the socket, then closes
     * the socket: a ZeroMQ socket is not thread-safe, and one closed while its loop was polling it
     * left the context's {@code term} waiting for ever. A loop that is inside a handler (a cell
     * waiting for input) is not waited for: the context's end wakes it.
     */
    @Override
    public void close() {
        Loop l = loop;
        if (l != null) {
            l.shutdown();
            if (l != Thread.currentThread()) {
                try {
                    l.join(CLOSE_WAIT_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
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
        return SignedFrames.read(this, verifier, what -> log.accept("loadlab kernel: the " + name() + " channel dropped " + what));
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
}
