// Loadlab subject "java-netty": the subject contract (shared/DESIGN.md) on Netty 4.2 with the
// native epoll transport where it loads, NIO elsewhere. Run as a single-file source program:
//   java -cp 'target/lib/*' subjects/java-netty/NettyServer.java --port 8080 [--threads N]
//        [--durability memory|fsync --dir DIR] [--protocol h1|h1-tls|h2-tls|h2c --cert FILE --key FILE]
// (Loadlab compiles it once with javac; see subject.yaml.) It prints "listening on PORT" once it
// accepts connections. In fsync mode a PUT is answered only after its value is on disk
// (FileChannel.force(false), i.e. fdatasync), written off the event loop.
// Protocols: h1-tls is HTTP/1.1 over TLS; h2-tls offers h2 and http/1.1 in ALPN; h2c answers HTTP/2
// with prior knowledge (and an Upgrade: h2c) and HTTP/1.1 on one port. HTTP/2 is Netty's frame codec
// and multiplexer, each stream a child channel whose messages are converted to HTTP/1 objects, so the
// one Handler below serves every protocol. TLS is BoringSSL (netty-tcnative) where it loads, else the
// JDK's, TLS 1.2 and 1.3, with Netty's default session cache and tickets.

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelOption;
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
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.CleartextHttp2ServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.AsciiString;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

public final class NettyServer {

    static final int MAX_BYTES = 64 << 20;
    static final ByteBuf PLAINTEXT = constant("Hello, World!");
    static final ByteBuf JSON = constant("{\"message\":\"Hello, World!\"}");
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

    /** HTTP/2: the frame codec and a child channel per stream that speaks HTTP/1 objects to the Handler. */
    static void http2(ChannelPipeline p) {
        p.addLast(Http2FrameCodecBuilder.forServer().build(), new Http2MultiplexHandler(streams()));
    }

    static ChannelInitializer<Http2StreamChannel> streams() {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Http2StreamChannel ch) {
                ch.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(true), new HttpObjectAggregator(MAX_BYTES),
                        new Handler());
            }
        };
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
                        ? new Http2ServerUpgradeCodec(Http2FrameCodecBuilder.forServer().build(), new Http2MultiplexHandler(streams()))
                        : null);
        p.addLast(new CleartextHttp2ServerUpgradeHandler(codec, upgrade, new PriorKnowledge()), new Http1Fallback());
    }

    /**
     * Put in place when the preface arrives: the frame codec, then the multiplexer after it (which
     * looks for the codec when it is added, so the codec goes first).
     */
    static final class PriorKnowledge extends ChannelHandlerAdapter {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            ChannelPipeline p = ctx.pipeline();
            p.addAfter(ctx.name(), "h2-frames", Http2FrameCodecBuilder.forServer().build());
            p.addAfter("h2-frames", "h2-streams", new Http2MultiplexHandler(streams()));
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
     * One per connection. Answers must leave in request order even when some are asynchronous
     * (a delay, an fsync): while one is pending, later pipelined requests wait in a queue.
     */
    static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final java.util.ArrayDeque<FullHttpRequest> waiting = new java.util.ArrayDeque<>();
        private boolean pending;
        /** The request being answered is HTTP/1.0 with keep-alive (answers go out in request order). */
        private boolean http10KeepAlive;

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
                serve(ctx, req);
            } finally {
                req.release();
            }
        }

        private void serve(ChannelHandlerContext ctx, FullHttpRequest req) {
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            // An HTTP/1.0 client keeps the connection only when the answer says so (ab -k waits otherwise).
            http10KeepAlive = keepAlive && req.protocolVersion().equals(HttpVersion.HTTP_1_0);
            String path = req.uri();
            int q = path.indexOf('?');
            if (q >= 0) {
                path = path.substring(0, q);
            }
            HttpMethod m = req.method();
            boolean get = m.equals(HttpMethod.GET) || m.equals(HttpMethod.HEAD);
            if (get && path.equals("/plaintext")) {
                send(ctx, keepAlive, HttpResponseStatus.OK, "text/plain", PLAINTEXT.retainedDuplicate());
            } else if (get && path.equals("/json")) {
                send(ctx, keepAlive, HttpResponseStatus.OK, "application/json", JSON.retainedDuplicate());
            } else if (get && path.startsWith("/bytes/")) {
                long n = number(path.substring(7));
                if (n < 0 || n > MAX_BYTES) {
                    send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, "text/plain", text("n must be 0.." + MAX_BYTES));
                } else {
                    send(ctx, keepAlive, HttpResponseStatus.OK, "application/octet-stream", bytes((int) n));
                }
            } else if (path.startsWith("/kv/") && path.length() > 4) {
                String key = path.substring(4);
                if (m.equals(HttpMethod.PUT)) {
                    byte[] body = new byte[req.content().readableBytes()];
                    req.content().getBytes(req.content().readerIndex(), body);
                    if (kvDir == null) {
                        boolean existed = KV.put(key, body) != null;
                        send(ctx, keepAlive, existed ? HttpResponseStatus.NO_CONTENT : HttpResponseStatus.CREATED,
                                "text/plain", Unpooled.EMPTY_BUFFER);
                    } else {
                        pending = true;
                        disk.execute(() -> {
                            HttpResponseStatus status;
                            try {
                                writeDurably(key, body);
                                status = KV.put(key, body) != null ? HttpResponseStatus.NO_CONTENT : HttpResponseStatus.CREATED;
                            } catch (IOException e) {
                                status = HttpResponseStatus.INTERNAL_SERVER_ERROR;
                            }
                            HttpResponseStatus s = status;
                            ctx.executor().execute(() -> {
                                send(ctx, keepAlive, s, "text/plain", Unpooled.EMPTY_BUFFER);
                                resume(ctx);
                            });
                        });
                    }
                } else if (get) {
                    byte[] v = KV.get(key);
                    if (v == null) {
                        send(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, "text/plain", text("no such key"));
                    } else {
                        send(ctx, keepAlive, HttpResponseStatus.OK, "application/octet-stream", Unpooled.wrappedBuffer(v));
                    }
                } else {
                    send(ctx, keepAlive, HttpResponseStatus.METHOD_NOT_ALLOWED, "text/plain", text("use GET or PUT"));
                }
            } else if (get && path.startsWith("/delay/")) {
                long ms = number(path.substring(7));
                if (ms < 0 || ms > 60_000) {
                    send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, "text/plain", text("ms must be 0..60000"));
                } else {
                    // Scheduled on the event loop: other connections go on meanwhile.
                    pending = true;
                    ctx.executor().schedule(() -> {
                        send(ctx, keepAlive, HttpResponseStatus.OK, "text/plain", PLAINTEXT.retainedDuplicate());
                        resume(ctx);
                    }, ms, TimeUnit.MILLISECONDS);
                }
            } else {
                send(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, "text/plain", text("not found"));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    static void send(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, String type, ByteBuf body) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        if (keepAlive && ((Handler) ctx.handler()).http10KeepAlive) {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        if (!keepAlive) {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(res);
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
