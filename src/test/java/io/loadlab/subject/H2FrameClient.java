package io.loadlab.subject;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolConfig.Protocol;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectedListenerFailureBehavior;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectorFailureBehavior;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A test's HTTP/2 client at frame level, on Netty's {@link Http2ConnectionHandler}: one connection to
 * 127.0.0.1, h2c with prior knowledge or, given a CA, h2 over TLS (ALPN, the certificate checked for
 * {@code localhost}), and what arrived on each stream, frame by frame. Streams are opened and written
 * on the connection's one event loop; a {@link StreamLog} is read once one of its futures completed.
 */
final class H2FrameClient extends Http2FrameAdapter implements AutoCloseable {

    /** The longest any wait of this client or its streams lasts, in seconds. */
    static final long WAIT_S = 30;

    /** What arrived on one stream: written on the client's event loop, read once a future completed. */
    static final class StreamLog {
        volatile int id;
        /** Each HEADERS block in order (1xx informational ones first), with END_STREAM or not. */
        final List<Http2Headers> headers = new CopyOnWriteArrayList<>();
        final List<Boolean> endStreams = new CopyOnWriteArrayList<>();
        final ByteArrayOutputStream data = new ByteArrayOutputStream();
        volatile int dataFrames;
        final CompletableFuture<Void> informational = new CompletableFuture<>();
        /** END_STREAM from the server, or RST_STREAM. */
        final CompletableFuture<StreamLog> done = new CompletableFuture<>();
        /** The error code of the server's RST_STREAM. */
        final CompletableFuture<Long> reset = new CompletableFuture<>();

        List<String> statuses() {
            return headers.stream().map(h -> String.valueOf(h.status())).toList();
        }

        String text() {
            return data.toString(StandardCharsets.UTF_8);
        }
    }

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
            new DefaultThreadFactory("h2-frame-client", true), NioIoHandler.newFactory());
    private final Map<Integer, StreamLog> streams = new ConcurrentHashMap<>();
    private final Http2ConnectionHandler codec = new Http2ConnectionHandlerBuilder().server(false)
            .frameListener(this).build();
    private final String scheme;
    private final Channel ch;

    /** @param caCert the CA that signed the server's certificate, for h2 over TLS; empty for h2c */
    H2FrameClient(int port, Optional<Path> caCert) throws Exception {
        scheme = caCert.isEmpty() ? "http" : "https";
        SslHandler tls = caCert.isEmpty() ? null : SslContextBuilder.forClient().trustManager(caCert.get().toFile())
                .endpointIdentificationAlgorithm("HTTPS")
                .applicationProtocolConfig(new ApplicationProtocolConfig(Protocol.ALPN,
                        SelectorFailureBehavior.NO_ADVERTISE, SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2))
                .build().newHandler(ByteBufAllocator.DEFAULT, "localhost", port);
        ch = new Bootstrap().group(group).channel(NioSocketChannel.class).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel c) {
                if (tls != null) {
                    c.pipeline().addLast(tls); // holds the preface back until the handshake is done
                }
                c.pipeline().addLast(codec);
            }
        }).connect("127.0.0.1", port).sync().channel();
        if (tls != null) {
            io.netty.util.concurrent.Future<Channel> handshake = tls.handshakeFuture();
            if (!handshake.await(WAIT_S, TimeUnit.SECONDS) || !handshake.isSuccess()) {
                throw new AssertionError("no TLS handshake within " + WAIT_S + " s: " + handshake.cause());
            }
            assertEquals(ApplicationProtocolNames.HTTP_2, tls.applicationProtocol(), "ALPN chose h2");
        }
    }

    /** A request's pseudo-headers, authority {@code localhost}. */
    Http2Headers request(String method, String path) {
        return new DefaultHttp2Headers().method(method).path(path).scheme(scheme).authority("localhost");
    }

    /** Opens a stream with HEADERS {@code h} (END_STREAM when {@code end}), flushed. */
    StreamLog open(Http2Headers h, boolean end) throws Exception {
        StreamLog s = new StreamLog();
        return ch.eventLoop().submit(() -> {
            s.id = codec.connection().local().incrementAndGetNextStreamId();
            streams.put(s.id, s);
            codec.encoder().writeHeaders(ch.pipeline().context(codec), s.id, h, 0, end, ch.newPromise());
            ch.flush();
            return s;
        }).get(WAIT_S, TimeUnit.SECONDS);
    }

    /** Queues DATA on the stream, sent as the server's flow-control windows allow. */
    void data(StreamLog s, ByteBuf body, boolean end) {
        ch.eventLoop().execute(() -> {
            codec.encoder().writeData(ch.pipeline().context(codec), s.id, body, 0, end, ch.newPromise());
            ch.flush();
        });
    }

    /** {@code GET path} on a new stream, once it ended. */
    StreamLog get(String path) throws Exception {
        StreamLog s = open(request("GET", path), true);
        return await(s.done, "the end of GET " + path);
    }

    /** The future's value, or an AssertionError naming {@code what} after {@link #WAIT_S}. */
    static <T> T await(CompletableFuture<T> f, String what) throws Exception {
        try {
            return f.get(WAIT_S, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("no " + what + " within " + WAIT_S + " s", e);
        } catch (ExecutionException e) {
            throw new AssertionError(what + " failed: " + e.getCause(), e.getCause());
        }
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int id, Http2Headers h, int padding, boolean end) {
        StreamLog s = streams.get(id);
        s.headers.add(h);
        s.endStreams.add(end);
        if (h.status() != null && h.status().charAt(0) == '1') {
            s.informational.complete(null);
        }
        if (end) {
            s.done.complete(s);
        }
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int id, Http2Headers h, int dependency, short weight,
                              boolean exclusive, int padding, boolean end) {
        onHeadersRead(ctx, id, h, padding, end);
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int id, ByteBuf data, int padding, boolean end) {
        StreamLog s = streams.get(id);
        int n = data.readableBytes();
        s.data.writeBytes(ByteBufUtil.getBytes(data));
        s.dataFrames++; // only ever on the event loop
        if (end) {
            s.done.complete(s);
        }
        return n + padding; // consumed: the window is given back
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int id, long errorCode) {
        StreamLog s = streams.get(id);
        s.reset.complete(errorCode);
        s.done.complete(s);
    }

    @Override
    public void close() {
        ch.close().awaitUninterruptibly(WAIT_S, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
