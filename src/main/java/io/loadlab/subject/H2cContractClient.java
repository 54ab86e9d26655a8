package io.loadlab.subject;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The contract check's client for h2c: one HTTP/2 connection with prior knowledge (Netty's frame codec
 * and multiplexer), a stream per request, each converted to and from HTTP/1-style messages. Used only
 * by the check, never for measurements.
 */
final class H2cContractClient implements ContractClient {

    private static final long TIMEOUT_SECONDS = 10;
    private static final int MAX_BODY = 64 << 20;

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
            new DefaultThreadFactory("loadlab-contract-h2c", true), NioIoHandler.newFactory());
    private final Channel parent;
    private final String authority;

    H2cContractClient(int port) throws IOException {
        this.authority = "127.0.0.1:" + port;
        this.parent = connect(port);
    }

    private Channel connect(int port) throws IOException {
        try {
            return new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(Http2FrameCodecBuilder.forClient().build(),
                                    new Http2MultiplexHandler(new SimpleChannelInboundHandler<Object>() {
                                        @Override
                                        protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
                                            // The server opens no streams of its own.
                                        }
                                    }));
                        }
                    }).connect("127.0.0.1", port).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IOException("interrupted while connecting over h2c", e);
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IOException("cannot connect over h2c to " + authority + ": " + e.getMessage(), e);
        }
    }

    private CompletableFuture<Reply> send(HttpMethod method, String path, byte[] body) {
        CompletableFuture<Reply> answer = new CompletableFuture<>();
        new Http2StreamChannelBootstrap(parent).handler(new ChannelInitializer<Http2StreamChannel>() {
            @Override
            protected void initChannel(Http2StreamChannel ch) {
                ch.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(false), new HttpObjectAggregator(MAX_BODY),
                        new SimpleChannelInboundHandler<FullHttpResponse>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse r) {
                                answer.complete(new Reply(r.status().code(),
                                        r.headers().get(HttpHeaderNames.CONTENT_TYPE, ""),
                                        ByteBufUtil.getBytes(r.content()), "h2"));
                                ctx.close();
                            }

                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                answer.completeExceptionally(cause);
                                ctx.close();
                            }

                            @Override
                            public void channelInactive(ChannelHandlerContext ctx) {
                                answer.completeExceptionally(new IOException("the stream closed without an answer"));
                            }
                        });
            }
        }).open().addListener(f -> {
            if (!f.isSuccess()) {
                answer.completeExceptionally(f.cause());
                return;
            }
            FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, path,
                    body == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
            req.headers().set(HttpHeaderNames.HOST, authority);
            if (body != null) {
                req.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            }
            ((Http2StreamChannel) f.getNow()).writeAndFlush(req);
        });
        return answer;
    }

    private static Reply await(CompletableFuture<Reply> f) throws IOException, InterruptedException {
        try {
            return f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IOException("h2c request failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("no h2c answer within " + TIMEOUT_SECONDS + " s", e);
        }
    }

    @Override
    public Reply get(String path) throws IOException, InterruptedException {
        return await(send(HttpMethod.GET, path, null));
    }

    @Override
    public Reply put(String path, byte[] body) throws IOException, InterruptedException {
        return await(send(HttpMethod.PUT, path, body));
    }

    @Override
    public CompletableFuture<Reply> getAsync(String path) {
        return send(HttpMethod.GET, path, null);
    }

    @Override
    public void close() {
        parent.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
