package io.loadlab.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.channels.Loop;
import io.github.spencerpark.jupyter.channels.ShellChannel;
import io.github.spencerpark.jupyter.channels.ShellHandler;
import io.github.spencerpark.jupyter.channels.ShellReplyEnvironment;
import io.github.spencerpark.jupyter.messages.Message;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.channels.Selector;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import zmq.poll.PollItem;

/**
 * A shell or control channel's loop that waits in ZeroMQ's poll until a request arrives, instead
 * of the base kernel's loop, which looks without waiting and then sleeps: with a short sleep its
 * thread woke 500 times a second on the kernel's core and took CPU from the running cell (a
 * trivial cell's compile took 60–65 ms with a 2 ms sleep, 33–58 ms with 25 ms); with a long one
 * every request waited half the sleep on average. This one answers at once and wakes only for
 * requests, and every {@link #WAIT_MS} to see whether it should stop.
 *
 * <p>It handles a message as the base kernel's loop does: the connection's handler for its type,
 * with a reply environment whose deferred messages go out after it, and the connection closed when
 * the handler marked the environment for shutdown.
 */
final class WaitingLoop extends Loop {

    private static final Logger LOG = Logger.getLogger(WaitingLoop.class.getName());
    /** The longest wait in one poll, in milliseconds: bounds how late a stop is seen. */
    static final long WAIT_MS = 100;

    private final ShellChannel channel;
    private final JupyterConnection connection;
    private final Selector selector;
    private final PollItem[] items;
    private volatile boolean stopping;

    /** The loop's body: a pass of the loop it belongs to (set once that loop is built, before it starts). */
    private static final class Body implements LongSupplier {
        private WaitingLoop loop;

        @Override
        public long getAsLong() {
            return loop.pass();
        }
    }

    private WaitingLoop(String name, Body body, ShellChannel channel, JupyterConnection connection, Selector selector) {
        super(name, body);
        body.loop = this;
        this.channel = channel;
        this.connection = connection;
        this.selector = selector;
        this.items = new PollItem[] {new PollItem(channel.base(), zmq.ZMQ.ZMQ_POLLIN)};
    }

    /**
     * Stops the base kernel's loop of a bound channel and starts a waiting loop in its place (set
     * as the channel's loop, so that closing the channel stops it and waiting for the channel
     * waits for it). A request that arrives meanwhile stays queued in its socket, or is handled
     * whole by the old loop before it stops.
     *
     * @return the loop now running
     * @throws IllegalStateException when the channel's loop cannot be reached (another base-kernel
     *                               version); the old loop then goes on
     */
    static WaitingLoop replace(ShellChannel channel, JupyterConnection connection) {
        Field field;
        Loop old;
        try {
            field = ShellChannel.class.getDeclaredField("ioloop");
            field.setAccessible(true);
            old = (Loop) field.get(channel);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot reach the channel's loop: " + e, e);
        }
        if (old == null) {
            throw new IllegalStateException("the channel is not bound");
        }
        String name = old.getName();
        old.shutdown();
        try {
            old.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the old loop stopped", e);
        }
        WaitingLoop loop;
        try {
            loop = new WaitingLoop(name, new Body(), channel, connection, Selector.open());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector for " + name, e);
        }
        try {
            field.set(channel, loop);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot set the channel's loop: " + e, e);
        }
        loop.start();
        return loop;
    }

    @Override
    public void run() {
        try {
            super.run();
        } finally {
            try {
                selector.close();
            } catch (IOException e) {
                LOG.log(Level.FINE, "closing the selector", e);
            }
        }
    }

    /** One pass of the loop: waits for a request and handles it; 0, so that the loop goes on at once. */
    private long pass() {
        try {
            if (stopping || zmq.ZMQ.poll(selector, items, WAIT_MS) <= 0 || stopping) {
                return 0;
            }
            handle(channel.readMessage());
        } catch (RuntimeException e) {
            if (stopping) {
                // The socket was closed under the poll by the thread that stops the kernel.
                return 0;
            }
            throw e;
        }
        return 0;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void handle(Message message) {
        ShellHandler handler = connection.getHandler(message.getHeader().getType());
        if (handler == null) {
            LOG.log(Level.SEVERE, "Unhandled message: " + message.getHeader().getType().getName());
            return;
        }
        ShellReplyEnvironment env = connection.prepareReplyEnv(channel, message);
        try {
            handler.handle(env, message);
        } catch (Exception e) {
            LOG.log(Level.SEVERE, "Unhandled exception handling " + message.getHeader().getType().getName() + ". "
                    + e.getClass().getSimpleName() + " - " + e.getLocalizedMessage());
        } finally {
            env.resolveDeferrals();
        }
        if (env.isMarkedForShutdown()) {
            connection.close();
        }
    }

    @Override
    public void shutdown() {
        stopping = true;
        super.shutdown();
        selector.wakeup();
    }
}
