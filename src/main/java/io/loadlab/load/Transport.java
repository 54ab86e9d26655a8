package io.loadlab.load;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringSocketChannel;
import java.util.Locale;

/** The Netty transport the engine's event loops use. */
public enum Transport {
    /** epoll where its native library loads (Linux x86_64), NIO otherwise. */
    AUTO,
    /** Linux epoll (native). */
    EPOLL,
    /** Linux io_uring (native; needs a kernel that allows it). */
    IO_URING,
    /** Java NIO, available everywhere. */
    NIO;

    /**
     * The concrete transport to use: {@link #AUTO} becomes epoll or NIO; a native transport
     * that is not available here gives a {@link LoadException} with the reason.
     */
    public Transport resolve() {
        return switch (this) {
            case AUTO -> Epoll.isAvailable() ? EPOLL : NIO;
            case EPOLL -> {
                if (!Epoll.isAvailable()) {
                    throw LoadException.usage("the epoll transport is not available here ("
                            + Epoll.unavailabilityCause() + "); use --transport nio");
                }
                yield EPOLL;
            }
            case IO_URING -> {
                if (!IoUring.isAvailable()) {
                    throw LoadException.usage("the io_uring transport is not available here ("
                            + IoUring.unavailabilityCause() + "); use --transport epoll or nio");
                }
                yield IO_URING;
            }
            case NIO -> NIO;
        };
    }

    IoHandlerFactory ioHandlerFactory() {
        return switch (resolve()) {
            case EPOLL -> EpollIoHandler.newFactory();
            case IO_URING -> IoUringIoHandler.newFactory();
            case NIO, AUTO -> NioIoHandler.newFactory();
        };
    }

    Class<? extends SocketChannel> channelClass() {
        return switch (resolve()) {
            case EPOLL -> EpollSocketChannel.class;
            case IO_URING -> IoUringSocketChannel.class;
            case NIO, AUTO -> NioSocketChannel.class;
        };
    }

    /** Lower-case name as accepted on the command line ({@code epoll}, {@code io_uring}, ...). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
