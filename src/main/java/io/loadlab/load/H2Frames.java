package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;

/**
 * The codec's callbacks for one channel of an {@link H2Connection}: frames read, and streams closed.
 * Each goes to the connection, on its loop; none allocates.
 */
final class H2Frames extends Http2FrameAdapter implements Http2Connection.Listener {

    private final H2Connection connection;

    H2Frames(H2Connection connection) {
        this.connection = connection;
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
        connection.onData(streamId, bytes, endOfStream);
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
