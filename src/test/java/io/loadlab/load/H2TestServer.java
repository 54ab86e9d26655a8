package io.loadlab.load;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An h2c server (prior knowledge) for the engine's HTTP/2 tests, on 127.0.0.1 and a port the OS
 * picks, on one Netty event loop in this JVM. {@code GET /s/NNN} answers status NNN with body
 * {@code ok}; {@code GET /d/MS} answers 200 after MS milliseconds; {@code /rst} is answered with
 * RST_STREAM (CANCEL); with {@code goawayAfter} K, each
 * connection's K-th request is answered, then the server sends GOAWAY naming that stream as its last,
 * leaves every later stream unanswered and closes the connection. It counts what it did, so that a
 * test can hold the engine's counts against the server's exactly.
 */
final class H2TestServer implements AutoCloseable {

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
            new DefaultThreadFactory("h2-test-server", true), NioIoHandler.newFactory());
    private final Channel server;
    private final int goawayAfter;
    /** Status codes answered, by code (touched on the server's one loop, read after the run). */
    private final Map<Integer, Long> statuses = new TreeMap<>();
    final AtomicLong answered = new AtomicLong();
    final AtomicLong resets = new AtomicLong();
    final AtomicLong goaways = new AtomicLong();
    /** Connections that carried at least one request (the engine's preflights carry none). */
    final AtomicLong servedConnections = new AtomicLong();

    private H2TestServer(int goawayAfter, Http2Settings settings) throws InterruptedException {
        this.goawayAfter = goawayAfter;
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        Frames frames = new Frames();
                        Http2ConnectionHandler h = new Http2ConnectionHandlerBuilder().server(true)
                                .frameListener(frames).initialSettings(settings).gracefulShutdownTimeoutMillis(0)
                                .build();
                        frames.codec = h;
                        ch.pipeline().addLast(h);
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
    }

    /** A server that never sends GOAWAY. */
    static H2TestServer start() throws InterruptedException {
        return new H2TestServer(0, Http2Settings.defaultSettings());
    }

    /** A server that leaves each connection with GOAWAY after its {@code k}-th request. */
    static H2TestServer goawayAfter(int k) throws InterruptedException {
        return new H2TestServer(k, Http2Settings.defaultSettings());
    }

    /** A server whose HPACK decoder keeps a dynamic table of {@code bytes} (its SETTINGS_HEADER_TABLE_SIZE). */
    static H2TestServer withHeaderTable(long bytes) throws InterruptedException {
        return new H2TestServer(0, Http2Settings.defaultSettings().headerTableSize(bytes));
    }

    String url(String path) {
        return "http://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort() + path;
    }

    /** The status codes answered so far, read on the server's loop. */
    Map<Integer, Long> statuses() throws Exception {
        return group.next().submit(() -> new TreeMap<>(statuses)).get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Frames extends Http2FrameAdapter {
        Http2ConnectionHandler codec;
        int requests;
        int lastStream = Integer.MAX_VALUE;

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            if (streamId > lastStream) {
                return; // after our GOAWAY: never answered
            }
            String path = headers.path().toString();
            if (path.equals("/rst")) {
                resets.incrementAndGet();
                codec.resetStream(ctx, streamId, Http2Error.CANCEL.code(), ctx.newPromise());
            } else if (path.startsWith("/d/")) {
                ctx.executor().schedule(() -> {
                    answer(ctx, streamId, 200);
                    codec.flush(ctx);
                }, Long.parseLong(path.substring(3)), TimeUnit.MILLISECONDS);
            } else {
                answer(ctx, streamId, path.startsWith("/s/") ? Integer.parseInt(path.substring(3)) : 200);
            }
            if (++requests == 1) {
                servedConnections.incrementAndGet();
            }
            if (requests == goawayAfter) {
                lastStream = streamId;
                goaways.incrementAndGet();
                // DATA waits in the flow controller until a flush; the GOAWAY must not overtake it.
                codec.flush(ctx);
                codec.encoder().writeGoAway(ctx, streamId, Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER,
                        ctx.newPromise());
                ctx.flush();
                ctx.close();
            }
        }

        private void answer(ChannelHandlerContext ctx, int streamId, int status) {
            ByteBuf body = Unpooled.copiedBuffer("ok", StandardCharsets.US_ASCII);
            codec.encoder().writeHeaders(ctx, streamId, new DefaultHttp2Headers().status(Integer.toString(status))
                    .set("content-length", "2"), 0, false, ctx.newPromise());
            codec.encoder().writeData(ctx, streamId, body, 0, true, ctx.newPromise());
            answered.incrementAndGet();
            statuses.merge(status, 1L, Long::sum);
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                                  short weight, boolean exclusive, int padding, boolean endOfStream) {
            onHeadersRead(ctx, streamId, headers, padding, endOfStream);
        }
    }
}
