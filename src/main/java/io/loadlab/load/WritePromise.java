package io.loadlab.load;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;

/**
 * The promise of every write on one channel: it tells its {@link Http1Connection} when a write has gone
 * out or failed, and never completes itself, so the same object serves every write of the channel.
 * A new {@link DefaultChannelPromise} and its listener per write were two objects per request;
 * {@code voidPromise()} would turn a failed write into an {@code exceptionCaught} that cannot be
 * told from a failed read, and the engine counts those apart ({@code write} errors are only the
 * requests whose own write failed).
 *
 * <p>Netty completes the promises of a channel's writes in the order of the writes, on the event
 * loop, each once: {@link #trySuccess} when its bytes were handed to the socket, {@link #tryFailure}
 * when the channel failed or closed first. Never done, the promise passes Netty's check that a
 * promise given to a write is not complete yet. Nothing may wait on it or add listeners to it.
 */
final class WritePromise extends DefaultChannelPromise {

    /** What the connection does with the outcome of its writes. Called on the event loop. */
    interface Outcome {
        void written(Channel channel);

        void writeFailed(Channel channel, Throwable cause);
    }

    private final Outcome outcome;

    WritePromise(Channel channel, Outcome outcome) {
        super(channel);
        this.outcome = outcome;
    }

    @Override
    public boolean trySuccess(Void result) {
        outcome.written(channel());
        return true;
    }

    @Override
    public ChannelPromise setSuccess(Void result) {
        trySuccess(result);
        return this;
    }

    @Override
    public boolean tryFailure(Throwable cause) {
        outcome.writeFailed(channel(), cause);
        return true;
    }

    @Override
    public ChannelPromise setFailure(Throwable cause) {
        tryFailure(cause);
        return this;
    }

    /** A write of the engine is never cancelled; answering without the atomic step saves one per flush. */
    @Override
    public boolean setUncancellable() {
        return true;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }
}
