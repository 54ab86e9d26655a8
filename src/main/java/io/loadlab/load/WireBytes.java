package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * Counts the bytes an HTTP/2 connection reads and writes, frames and all (after TLS), into its
 * worker's {@code bytesRead} and {@code bytesWritten}: over HTTP/1.1 the connection counts them itself.
 * It also notes when each read's bytes arrived ({@code Worker.h2ReadNanos}), the end time of the
 * answers the codec then finds in them. One per worker, shared by its channels (all on its loop).
 */
@ChannelHandler.Sharable
final class WireBytes extends ChannelDuplexHandler {

    private final Worker worker;

    WireBytes(Worker worker) {
        this.worker = worker;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // One clock reading per read, not one per answer: a read holds up to a connection's streams'
        // answers, and the read is when they all arrived (HTTP/1.1 times its answers so too).
        worker.h2ReadNanos = System.nanoTime();
        if (msg instanceof ByteBuf b && !worker.closed) {
            worker.bytesRead += b.readableBytes();
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf b && !worker.closed) {
            worker.bytesWritten += b.readableBytes();
        }
        ctx.write(msg, promise);
    }
}
