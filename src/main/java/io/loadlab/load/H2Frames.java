package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.UniformStreamByteDistributor;

/**
 * The codec's callbacks for one channel of an {@link H2Connection}: frames read, and streams closed.
 * Each goes to the connection, on its loop; none allocates.
 */
final class H2Frames extends Http2FrameAdapter implements Http2Connection.Listener {

    private final H2Connection connection;

    H2Frames(H2Connection connection) {
        this.connection = connection;
    }

    /**
     * A client codec for one channel that calls these callbacks, with receive windows of
     * {@code window} bytes per stream (the connection's own is raised on activation).
     */
    Http2ConnectionHandler newCodec(int window) {
        // Request bodies share the connection's window evenly. Netty's default, a weighted fair queue,
        // keeps a priority tree that every new stream and every answer's HEADERS update (RFC 9113
        // deprecates priorities): 6% of the loop's CPU and 10% of its bytes per request over h2-tls.
        DefaultHttp2Connection c = new DefaultHttp2Connection(false);
        c.remote().flowController(new DefaultHttp2RemoteFlowController(c, new UniformStreamByteDistributor(c)));
        Http2Settings settings = Http2Settings.defaultSettings().pushEnabled(false).initialWindowSize(window);
        Http2ConnectionEncoder encoder = new DefaultHttp2ConnectionEncoder(c, new DefaultHttp2FrameWriter());
        // The answers' headers through the engine's own HPACK decoder, which keeps only what it reads.
        H2StatusDecoder headers = new H2StatusDecoder(settings.maxHeaderListSize());
        Http2ConnectionDecoder decoder = new DefaultHttp2ConnectionDecoder(c, encoder, new DefaultHttp2FrameReader(headers));
        Http2ConnectionHandler handler = new Http2ConnectionHandlerBuilder()
                // The builder's rapid-reset protection (leaving the connection after 200 RST_STREAM a
                // window) is for servers, and it takes a codec's for one: a client's is none. (Set
                // before the codec, as the builder requires; the encoder given has no such limit.)
                .decoderEnforceMaxRstFramesPerWindow(0, 0)
                .codec(decoder, encoder)
                .frameListener(this)
                .initialSettings(settings)
                // Closing at the window's end must not wait for streams in flight.
                .gracefulShutdownTimeoutMillis(0)
                .build();
        c.addListener(this);
        return handler;
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                              boolean endOfStream) {
        connection.onHeaders(streamId, headers, endOfStream);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                              short weight, boolean exclusive, int padding, boolean endOfStream) {
        onHeadersRead(ctx, streamId, headers, padding, endOfStream);
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
        int bytes = data.readableBytes();
        connection.onData(streamId, data, endOfStream);
        // Consumed at once: the window opens again without waiting for anyone.
        return bytes + padding;
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        connection.onReset(streamId);
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
        connection.onGoAway(lastStreamId);
    }

    @Override
    public void onGoAwaySent(int lastStreamId, long errorCode, ByteBuf debugData) {
        // The codec found the server's frames broke the protocol and leaves the connection. (It says
        // INTERNAL_ERROR when a write failed on a connection the server closed: a transport error.)
        if (errorCode != Http2Error.NO_ERROR.code() && errorCode != Http2Error.INTERNAL_ERROR.code()) {
            connection.onProtocolGoAway();
        }
    }

    @Override
    public void onStreamAdded(Http2Stream stream) {
    }

    @Override
    public void onStreamActive(Http2Stream stream) {
    }

    @Override
    public void onStreamHalfClosed(Http2Stream stream) {
    }

    @Override
    public void onStreamRemoved(Http2Stream stream) {
    }

    @Override
    public void onGoAwayReceived(int lastStreamId, long errorCode, ByteBuf debugData) {
        // Handled in onGoAwayRead, which the codec calls first.
    }

    @Override
    public void onStreamClosed(Http2Stream stream) {
        connection.onStreamClosed(stream.id());
    }
}
