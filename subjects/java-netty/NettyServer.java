// Loadlab subject "java-netty": the subject contract (docs/guide/subjects.md) on Netty 4.2 with the
// native epoll transport where it loads, NIO elsewhere. Run as a single-file source program:
//   java -cp 'target/lib/*' subjects/java-netty/NettyServer.java --port 8080 [--threads N]
//        [--durability memory|fsync --dir DIR] [--protocol h1|h1-tls|h2-tls|h2c --cert FILE --key FILE]
// (Loadlab compiles it once with javac; see subject.yaml.) It prints "listening on PORT" once it
// accepts connections. In fsync mode a PUT is answered only after its value is on disk
// (FileChannel.force(false), i.e. fdatasync), written off the event loop.
// Protocols: h1-tls is HTTP/1.1 over TLS; h2-tls offers h2 and http/1.1 in ALPN; h2c answers HTTP/2
// with prior knowledge (and an Upgrade: h2c) and HTTP/1.1 on one port. HTTP/2 is Netty's frame codec
// with one frame-level handler per connection on it (Http2Handler: no child channel, pipeline or
// HTTP/1 conversion per stream, which cost 1.3 to 2 times the CPU per request when warm and took
// about twice as long as h1 to warm up: README, "java-netty's HTTP/2 path");
// every protocol's requests go to the same route(), so the endpoints are one code for all four.
// TLS is BoringSSL (netty-tcnative) where it loads, else the JDK's, TLS 1.2 and 1.3, with Netty's
// default session cache and tickets.

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.CleartextHttp2ServerUpgradeHandler;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.concurrent.EventExecutor;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

public final class NettyServer {

    static final int MAX_BYTES = 64 << 20;
    static final ByteBuf PLAINTEXT = constant("Hello, World!");
    static final ByteBuf JSON = constant("{\"message\":\"Hello, World!\"}");
    static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
    static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
    static final AsciiString OCTET_STREAM = AsciiString.cached("application/octet-stream");
    /** About 1 MiB of the pattern /bytes/{n} serves in slices: a multiple of 26 so slices join up. */
    static final ByteBuf PATTERN = pattern(26 * 40330);
    static final ConcurrentHashMap<String, byte[]> KV = new ConcurrentHashMap<>();
    /** Set in fsync mode: where values are written, and the threads that wait for the disk. */
    static Path kvDir;
    static ExecutorService disk;

    public static void main(String[] args) throws Exception {
        int port = 8080;
        int threads = Runtime.getRuntime().availableProcessors();
        String durability = "memory";
        String dir = null;
        String protocol = "h1";
        String cert = null;
        String key = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--durability" -> durability = args[++i];
                case "--dir" -> dir = args[++i];
                case "--protocol" -> protocol = args[++i];
                case "--cert" -> cert = args[++i];
                case "--key" -> key = args[++i];
                default -> {
                    System.err.println("java-netty: unknown argument " + args[i] + "; usage: --port P [--threads N]"
                            + " [--durability memory|fsync --dir DIR] [--protocol h1|h1-tls|h2-tls|h2c --cert F --key F]");
                    System.exit(2);
                }
            }
        }
        SslContext ssl = null;
        switch (protocol) {
            case "h1", "h2c" -> { }
            case "h1-tls", "h2-tls" -> {
                if (cert == null || key == null || cert.equals("-")) {
                    System.err.println("java-netty: --protocol " + protocol + " needs --cert FILE --key FILE");
                    System.exit(2);
                }
                ssl = serverTls(cert, key, protocol.equals("h2-tls"));
            }
            default -> {
                System.err.println("java-netty: protocol must be h1, h1-tls, h2-tls or h2c, got '" + protocol + "'");
                System.exit(2);
            }
        }
        final String served = protocol;
        final SslContext tls = ssl;
        if (durability.equals("fsync")) {
            if (dir == null) {
                System.err.println("java-netty: --durability fsync needs --dir DIR");
                System.exit(2);
            }
            kvDir = Files.createDirectories(Path.of(dir, "kv"));
            disk = Executors.newFixedThreadPool(8);
        } else if (!durability.equals("memory")) {
            System.err.println("java-netty: durability must be memory or fsync, got '" + durability + "'");
            System.exit(2);
        }
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, io);
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(channel)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ChannelPipeline p = ch.pipeline();
                            switch (served) {
                                case "h1" -> http1(p);
                                case "h1-tls" -> {
                                    p.addLast(tls.newHandler(ch.alloc()));
                                    http1(p);
                                }
                                case "h2-tls" -> p.addLast(tls.newHandler(ch.alloc()), new Alpn());
                                default -> h2c(p);
                            }
                        }
                    })
                    .bind("0.0.0.0", port).sync().channel();
            System.out.println("listening on " + port + " (" + (epoll ? "epoll" : "nio") + ", " + threads + " threads, "
                    + protocol + (tls == null ? "" : ", TLS by " + (OpenSsl.isAvailable() ? OpenSsl.versionString() : "the JDK"))
                    + ")");
            System.out.flush();
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    static SslContext serverTls(String cert, String key, boolean h2) throws javax.net.ssl.SSLException {
        String[] alpn = h2 ? new String[] {ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1}
                : new String[] {ApplicationProtocolNames.HTTP_1_1};
        return SslContextBuilder.forServer(new File(cert), new File(key))
                .sslProvider(OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK)
                .protocols("TLSv1.3", "TLSv1.2")
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, alpn))
                .build();
    }

    static void http1(ChannelPipeline p) {
        p.addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_BYTES), new Handler());
    }

    /** HTTP/2: the frame codec and, on it, one handler for all of the connection's streams. */
    static void http2(ChannelPipeline p) {
        p.addLast(Http2FrameCodecBuilder.forServer().build(), new Http2Handler());
    }

    /** After the TLS handshake: HTTP/2 or HTTP/1.1, as ALPN chose. */
    static final class Alpn extends ApplicationProtocolNegotiationHandler {
        Alpn() {
            super(ApplicationProtocolNames.HTTP_1_1);
        }

        @Override
        protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
            if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                http2(ctx.pipeline());
            } else {
                http1(ctx.pipeline());
            }
        }
    }

    /** h2c: the HTTP/2 preface (prior knowledge) or an Upgrade: h2c, else HTTP/1.1 on the same port. */
    static void h2c(ChannelPipeline p) {
        HttpServerCodec codec = new HttpServerCodec();
        HttpServerUpgradeHandler upgrade = new HttpServerUpgradeHandler(codec, name ->
                AsciiString.contentEquals(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, name)
                        ? new Http2ServerUpgradeCodec(Http2FrameCodecBuilder.forServer().build(), new Http2Handler())
                        : null);
        p.addLast(new CleartextHttp2ServerUpgradeHandler(codec, upgrade, new PriorKnowledge()), new Http1Fallback());
    }

    /** Put in place when the preface arrives: the frame codec, then the handler of its streams. */
    static final class PriorKnowledge extends ChannelHandlerAdapter {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            ChannelPipeline p = ctx.pipeline();
            p.addAfter(ctx.name(), "h2-frames", Http2FrameCodecBuilder.forServer().build());
            p.addAfter("h2-frames", "h2-streams", new Http2Handler());
            p.remove(this);
        }
    }

    /** The first HTTP/1.1 message without an upgrade: from now on this connection is HTTP/1.1. */
    static final class Http1Fallback extends SimpleChannelInboundHandler<HttpMessage> {
        Http1Fallback() {
            super(false);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpMessage msg) {
            ChannelPipeline p = ctx.pipeline();
            p.addAfter(ctx.name(), null, new Handler());
            p.replace(this, null, new HttpObjectAggregator(MAX_BYTES));
            ctx.fireChannelRead(msg); // on to the aggregator that now follows
        }
    }

    /**
     * One request being answered, over whichever protocol it came: {@link #route} serves every
     * endpoint through it, so the endpoints are the same code for all four protocol variants.
     */
    abstract static class Exchange {
        /** Sends the answer (headers Content-Type and Content-Length); the body is released once written. */
        abstract void send(HttpResponseStatus status, CharSequence type, ByteBuf body);

        /** The answer will be sent later, from the event loop (a delay, an fsync); called before that is scheduled. */
        void deferred() { }

        /** An answer sent after {@link #deferred} has gone out. */
        void resumed() { }
    }

    /**
     * The subject contract's endpoints. {@code content} is the request's body (read here, released by
     * the caller); {@code loop} the connection's event loop, where deferred answers are sent from.
     */
    static void route(EventExecutor loop, HttpMethod m, String uri, ByteBuf content, Exchange x) {
        int q = uri.indexOf('?');
        String path = q >= 0 ? uri.substring(0, q) : uri;
        boolean get = m.equals(HttpMethod.GET) || m.equals(HttpMethod.HEAD);
        if (get && path.equals("/plaintext")) {
            x.send(HttpResponseStatus.OK, TEXT_PLAIN, PLAINTEXT.retainedDuplicate());
        } else if (get && path.equals("/json")) {
            x.send(HttpResponseStatus.OK, APPLICATION_JSON, JSON.retainedDuplicate());
        } else if (get && path.startsWith("/bytes/")) {
            long n = number(path.substring(7));
            if (n < 0 || n > MAX_BYTES) {
                x.send(HttpResponseStatus.BAD_REQUEST, TEXT_PLAIN, text("n must be 0.." + MAX_BYTES));
            } else {
                x.send(HttpResponseStatus.OK, OCTET_STREAM, bytes((int) n));
            }
        } else if (path.startsWith("/kv/") && path.length() > 4) {
            kv(loop, m, get, path.substring(4), content, x);
        } else if (get && path.startsWith("/delay/")) {
            long ms = number(path.substring(7));
            if (ms < 0 || ms > 60_000) {
                x.send(HttpResponseStatus.BAD_REQUEST, TEXT_PLAIN, text("ms must be 0..60000"));
            } else {
                // Scheduled on the event loop: other connections (and streams) go on meanwhile.
                x.deferred();
                loop.schedule(() -> {
                    x.send(HttpResponseStatus.OK, TEXT_PLAIN, PLAINTEXT.retainedDuplicate());
                    x.resumed();
                }, ms, TimeUnit.MILLISECONDS);
            }
        } else {
            x.send(HttpResponseStatus.NOT_FOUND, TEXT_PLAIN, text("not found"));
        }
    }

    /** /kv/{key}: PUT stores (201 new, 204 replaced; in fsync mode only once on disk), GET reads (404 absent). */
    static void kv(EventExecutor loop, HttpMethod m, boolean get, String key, ByteBuf content, Exchange x) {
        if (m.equals(HttpMethod.PUT)) {
            byte[] body = new byte[content.readableBytes()];
            content.getBytes(content.readerIndex(), body);
            if (kvDir == null) {
                boolean existed = KV.put(key, body) != null;
                x.send(existed ? HttpResponseStatus.NO_CONTENT : HttpResponseStatus.CREATED, TEXT_PLAIN,
                        Unpooled.EMPTY_BUFFER);
                return;
            }
            x.deferred();
            disk.execute(() -> {
                HttpResponseStatus status;
                try {
                    writeDurably(key, body);
                    status = KV.put(key, body) != null ? HttpResponseStatus.NO_CONTENT : HttpResponseStatus.CREATED;
                } catch (IOException e) {
                    status = HttpResponseStatus.INTERNAL_SERVER_ERROR;
                }
                HttpResponseStatus s = status;
                loop.execute(() -> {
                    x.send(s, TEXT_PLAIN, Unpooled.EMPTY_BUFFER);
                    x.resumed();
                });
            });
        } else if (get) {
            byte[] v = KV.get(key);
            if (v == null) {
                x.send(HttpResponseStatus.NOT_FOUND, TEXT_PLAIN, text("no such key"));
            } else {
                x.send(HttpResponseStatus.OK, OCTET_STREAM, Unpooled.wrappedBuffer(v));
            }
        } else {
            x.send(HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT_PLAIN, text("use GET or PUT"));
        }
    }

    /**
     * HTTP/1.1, one per connection. Answers must leave in request order even when some are asynchronous
     * (a delay, an fsync): while one is pending, later pipelined requests wait in a queue.
     */
    static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final java.util.ArrayDeque<FullHttpRequest> waiting = new java.util.ArrayDeque<>();
        private boolean pending;

        Handler() {
            super(false); // requests are released by serve(), possibly after waiting in the queue
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            if (pending) {
                waiting.add(req);
            } else {
                serveAndRelease(ctx, req);
            }
        }

        /** An asynchronous answer went out: serve the requests that waited behind it. */
        void resume(ChannelHandlerContext ctx) {
            pending = false;
            while (!pending && !waiting.isEmpty()) {
                serveAndRelease(ctx, waiting.poll());
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            waiting.forEach(FullHttpRequest::release);
            waiting.clear();
            ctx.fireChannelInactive();
        }

        private void serveAndRelease(ChannelHandlerContext ctx, FullHttpRequest req) {
            try {
                boolean keepAlive = HttpUtil.isKeepAlive(req);
                // An HTTP/1.0 client keeps the connection only when the answer says so (ab -k waits otherwise).
                boolean http10KeepAlive = keepAlive && req.protocolVersion().equals(HttpVersion.HTTP_1_0);
                route(ctx.executor(), req.method(), req.uri(), req.content(), new Exchange() {
                    @Override
                    void send(HttpResponseStatus status, CharSequence type, ByteBuf body) {
                        send1(ctx, keepAlive, http10KeepAlive, status, type, body);
                    }

                    @Override
                    void deferred() {
                        pending = true;
                    }

                    @Override
                    void resumed() {
                        resume(ctx);
                    }
                });
            } finally {
                req.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    static void send1(ChannelHandlerContext ctx, boolean keepAlive, boolean http10KeepAlive, HttpResponseStatus status,
                      CharSequence type, ByteBuf body) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        if (keepAlive && http10KeepAlive) {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        if (!keepAlive) {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(res);
        }
    }

    /**
     * HTTP/2, one per connection, directly on the frame codec (no child channel per stream). A request
     * is served when its stream ends: at once for a HEADERS frame with END_STREAM (a GET), else once
     * its DATA has arrived, gathered here per stream id up to {@link #MAX_BYTES} (413 above, as the
     * HTTP/1 aggregator answers). Each DATA frame's bytes are given back to the flow-control windows
     * as soon as they are copied. Answers are written, not flushed, inside a read: the codec flushes
     * once per read (Http2ConnectionHandler.channelReadComplete), so the answers of one read leave in
     * one write; a deferred answer (a delay, an fsync) is flushed when it is sent.
     */
    static final class Http2Handler extends ChannelInboundHandlerAdapter {
        /** Requests whose body is still arriving, by stream id. */
        private final IntObjectHashMap<Http2Request> open = new IntObjectHashMap<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame h) {
                headers(ctx, h);
            } else if (msg instanceof Http2DataFrame d) {
                try {
                    data(ctx, d);
                } finally {
                    d.release();
                }
            } else {
                if (msg instanceof Http2ResetFrame r) {
                    drop(r.stream().id());
                }
                ReferenceCountUtil.release(msg); // SETTINGS, PING (acknowledged by the codec), GOAWAY ...
            }
        }

        private void headers(ChannelHandlerContext ctx, Http2HeadersFrame h) {
            Http2FrameStream stream = h.stream();
            Http2Request req = open.get(stream.id());
            if (req != null) { // trailers: the body is complete
                open.remove(stream.id());
                serve(ctx, req);
                return;
            }
            req = new Http2Request(stream, h.headers());
            if (h.isEndStream()) {
                serve(ctx, req);
            } else if (h.headers().getLong(HttpHeaderNames.CONTENT_LENGTH, 0) > MAX_BYTES) {
                tooLarge(ctx, stream);
            } else {
                if (h.headers().contains(HttpHeaderNames.EXPECT, HttpHeaderValues.CONTINUE, true)) {
                    ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers()
                            .status(HttpResponseStatus.CONTINUE.codeAsText()), false).stream(stream));
                }
                req.body = ctx.alloc().buffer();
                open.put(stream.id(), req);
            }
        }

        private void data(ChannelHandlerContext ctx, Http2DataFrame d) {
            Http2FrameStream stream = d.stream();
            if (d.initialFlowControlledBytes() > 0) {
                ctx.write(new DefaultHttp2WindowUpdateFrame(d.initialFlowControlledBytes()).stream(stream));
            }
            Http2Request req = open.get(stream.id());
            if (req == null) {
                return; // a stream already answered (413) or reset
            }
            if (req.body.readableBytes() + d.content().readableBytes() > MAX_BYTES) {
                drop(stream.id());
                tooLarge(ctx, stream);
                return;
            }
            req.body.writeBytes(d.content());
            if (d.isEndStream()) {
                open.remove(stream.id());
                serve(ctx, req);
            }
        }

        private static void serve(ChannelHandlerContext ctx, Http2Request req) {
            ByteBuf body = req.body == null ? Unpooled.EMPTY_BUFFER : req.body;
            try {
                HttpMethod m = method(req.headers.method());
                CharSequence path = req.headers.path();
                if (m == null || path == null) {
                    new Http2Exchange(ctx, req.stream, false).send(HttpResponseStatus.BAD_REQUEST, TEXT_PLAIN,
                            text("a request needs :method and :path"));
                } else {
                    route(ctx.executor(), m, path.toString(), body, new Http2Exchange(ctx, req.stream,
                            m.equals(HttpMethod.HEAD)));
                }
            } finally {
                body.release();
            }
        }

        /** The request's method; null when absent or not a token. */
        private static HttpMethod method(CharSequence name) {
            try {
                return name == null ? null : HttpMethod.valueOf(name.toString());
            } catch (IllegalArgumentException e) {
                return null;
            }
        }

        /** 413 with an empty body, then RST_STREAM CANCEL so that the client stops sending the rest. */
        private static void tooLarge(ChannelHandlerContext ctx, Http2FrameStream stream) {
            ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers()
                    .status(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.codeAsText())
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, 0), true).stream(stream));
            ctx.write(new DefaultHttp2ResetFrame(Http2Error.CANCEL).stream(stream));
        }

        private void drop(int streamId) {
            Http2Request req = open.remove(streamId);
            if (req != null && req.body != null) {
                req.body.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            open.values().forEach(r -> r.body.release());
            open.clear();
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof Http2FrameStreamException e) { // one stream's error: reset it, the others go on
                drop(e.stream().id());
                ctx.writeAndFlush(new DefaultHttp2ResetFrame(e.error()).stream(e.stream()));
            } else {
                ctx.close();
            }
        }
    }

    /** An HTTP/2 request: its stream, its headers and (when it has one) its body as it arrives. */
    static final class Http2Request {
        final Http2FrameStream stream;
        final Http2Headers headers;
        ByteBuf body;

        Http2Request(Http2FrameStream stream, Http2Headers headers) {
            this.stream = stream;
            this.headers = headers;
        }
    }

    /** An answer on one HTTP/2 stream: HEADERS (:status, content-type, content-length), then DATA unless empty or HEAD. */
    static final class Http2Exchange extends Exchange {
        private final ChannelHandlerContext ctx;
        private final Http2FrameStream stream;
        private final boolean head;
        private boolean later;

        Http2Exchange(ChannelHandlerContext ctx, Http2FrameStream stream, boolean head) {
            this.ctx = ctx;
            this.stream = stream;
            this.head = head;
        }

        @Override
        void send(HttpResponseStatus status, CharSequence type, ByteBuf body) {
            Http2Headers h = new DefaultHttp2Headers().status(status.codeAsText());
            h.set(HttpHeaderNames.CONTENT_TYPE, type);
            h.setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
            boolean noData = head || !body.isReadable();
            ctx.write(new DefaultHttp2HeadersFrame(h, noData).stream(stream));
            if (noData) {
                body.release();
            } else {
                ctx.write(new DefaultHttp2DataFrame(body, true).stream(stream));
            }
            if (later) {
                ctx.flush(); // outside a read: nothing else will flush it
            }
        }

        @Override
        void deferred() {
            later = true;
        }
    }

    /** Writes the value to its own file and waits for fdatasync before returning. */
    static void writeDurably(String key, byte[] value) throws IOException {
        // Keys come from URLs: keep the file name to a safe alphabet.
        String name = key.replaceAll("[^A-Za-z0-9._-]", "_");
        try (FileChannel ch = FileChannel.open(kvDir.resolve(name), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(value);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(false);
        }
    }

    static ByteBuf bytes(int n) {
        ByteBuf out = Unpooled.compositeBuffer(Math.max(2, n / PATTERN.readableBytes() + 1));
        int left = n;
        while (left > 0) {
            int k = Math.min(left, PATTERN.readableBytes());
            ((io.netty.buffer.CompositeByteBuf) out).addComponent(true, PATTERN.retainedSlice(0, k));
            left -= k;
        }
        return out;
    }

    static long number(String s) {
        if (s.isEmpty() || s.length() > 12) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    static ByteBuf constant(String s) {
        return Unpooled.unreleasableBuffer(Unpooled.directBuffer().writeBytes(s.getBytes(StandardCharsets.UTF_8)));
    }

    static ByteBuf pattern(int n) {
        ByteBuf b = Unpooled.directBuffer(n);
        for (int i = 0; i < n; i++) {
            b.writeByte('a' + i % 26);
        }
        return Unpooled.unreleasableBuffer(b);
    }
}
