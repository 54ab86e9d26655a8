package io.loadlab.load;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSession;

/**
 * Sits between the {@link SslHandler} and the HTTP handler of one TLS connection until its handshake
 * is done: it holds {@code channelActive} back, so that the HTTP handler starts sending only on a
 * finished handshake and no request's latency includes it; it times the handshake (from the TCP
 * connection to the handshake's end) and sees whether the session was resumed; it counts a failed
 * handshake as one {@code tls} error and reconnects after a short pause. Once the handshake is done it
 * leaves the pipeline: what TLS does after that (a close_notify, a bad record) reaches the HTTP
 * handler as a closed connection or an exception, as over TCP. One instance per connection attempt;
 * runs on the worker's loop.
 */
final class TlsGate extends ChannelInboundHandlerAdapter {

    /** A refused handshake is retried after this pause, as a refused connection is. */
    private static final long RETRY_MILLIS = 10;

    private final Worker worker;
    private final ClientConnection connection;
    private final SslHandler ssl;
    private final boolean needsH2;
    /** When the connect began (wall clock, ms): a session created before then was resumed. */
    private final long connectStartMillis;
    private long tcpUpNanos;
    private boolean done;

    TlsGate(Worker worker, ClientConnection connection, SslHandler ssl, boolean needsH2) {
        this.worker = worker;
        this.connection = connection;
        this.ssl = ssl;
        this.needsH2 = needsH2;
        this.connectStartMillis = System.currentTimeMillis();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // The SslHandler before this one has started the handshake; the HTTP handler waits for its end.
        tcpUpNanos = System.nanoTime();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (!(evt instanceof SslHandshakeCompletionEvent e)) {
            ctx.fireUserEventTriggered(evt);
            return;
        }
        if (!e.isSuccess()) {
            refused(ctx);
            return;
        }
        if (needsH2 && !ApplicationProtocolNames.HTTP_2.equals(ssl.applicationProtocol())) {
            // The preflight says so in words; during the run it is one more refused connection.
            refused(ctx);
            return;
        }
        done = true;
        SSLSession s = ssl.engine().getSession();
        worker.tls.handshake(Math.max(1, (System.nanoTime() - tcpUpNanos) / 1000),
                worker.control.tls.orElseThrow().resumed(ssl.engine(), connectStartMillis), s.getProtocol(),
                s.getCipherSuite());
        ctx.pipeline().remove(this);
        ctx.fireChannelActive();
    }

    private void refused(ChannelHandlerContext ctx) {
        if (!worker.closed) {
            worker.tls.failed();
        }
        ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A handshake failure arrives here as well as in the completion event, which counts it.
        if (!ctx.channel().isActive()) {
            return;
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // The HTTP handler never saw this connection active: reconnect for it.
        if (!done && !worker.closed && worker.control.sending) {
            worker.loop.schedule(() -> worker.connect(connection), RETRY_MILLIS, TimeUnit.MILLISECONDS);
        }
    }
}
