package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP/2 connection of a worker, kept across reconnects: {@code streams} request slots, each a
 * stream in flight at a time. In the closed loop every answer starts the next stream; at a fixed rate
 * each slot keeps its own schedule (the run's rate split over connections × streams), so coordinated
 * omission is corrected per slot, as per connection over HTTP/1.1. Frame-level: Netty's
 * {@link Http2ConnectionHandler} (HPACK, flow control, stream states) calls this connection's frame
 * listener, with no frame objects and no child channel per stream. Runs only on its worker's loop;
 * errors are counted, never thrown.
 *
 * <p>Per request Netty allocates the stream's state, a write promise and the decoded response headers;
 * this class allocates nothing per request (its slots are arrays; with substitutions the path is
 * one string per request). The bytes allocated per request have not been measured yet.
 *
 * <p>Error categories: a stream the server resets ({@code RST_STREAM}) or the connection loses (closed,
 * or above a {@code GOAWAY}'s last stream) is a {@code read} error; one Netty resets because its
 * answer broke the protocol, and an answer with a wrong body length, are {@code protocol} errors; one
 * past the request timeout is reset by us and counted as {@code timeout}.
 */
@ChannelHandler.Sharable
final class H2Connection extends ChannelInboundHandlerAdapter implements ClientConnection {

    /**
     * Receive windows of 2^30 - 1 bytes per stream and per connection, h2load's defaults ({@code -w 30
     * -W 30}): a large answer never waits for a WINDOW_UPDATE from the load generator.
     */
    static final int WINDOW = (1 << 30) - 1;

    private enum Loss { READ, PROTOCOL, TIMEOUT }

    private final Worker worker;
    private final RunControl control;
    private final boolean fixedRate;
    private final boolean[] statusOk;
    private final long expectedBody;
    private final int streams;
    /** Per slot: the stream in flight (0 = free), when it was due and sent (nanoTime), its answer so far. */
    private final int[] streamOf;
    private final long[] due;
    private final long[] sent;
    private final long[] body;
    private final int[] status;
    /** Per slot at a fixed rate: the next due time, and whether its send is scheduled. */
    private final double[] nextDue;
    private final boolean[] scheduled;
    private final Runnable[] sendDue;
    private int inFlight;
    /** A fixed-rate slot found no free stream (the server's limit was lower): retry it on the next answer. */
    private boolean starved;

    // The current channel, null between connections.
    private ChannelHandlerContext codecCtx;
    private Http2ConnectionHandler codec;
    private boolean draining;
    /** Inside the codec's read: its channelReadComplete flushes what was written meanwhile. */
    private boolean inRead;
    /** The channel of a connect under way, or null. */
    private Channel pending;

    H2Connection(Worker worker, int globalIndex) {
        this.worker = worker;
        this.control = worker.control;
        this.fixedRate = control.spec.isFixedRate();
        this.statusOk = control.statusOk;
        this.expectedBody = control.spec.expectation().bodyBytes().orElse(-1);
        this.streams = control.spec.streams();
        this.streamOf = new int[streams];
        this.due = new long[streams];
        this.sent = new long[streams];
        this.body = new long[streams];
        this.status = new int[streams];
        this.nextDue = new double[streams];
        this.scheduled = new boolean[streams];
        this.sendDue = new Runnable[streams];
        int connections = control.spec.connections();
        for (int s = 0; s < streams; s++) {
            int slot = s;
            sendDue[s] = () -> sendDueRequest(slot);
            // Slot s of connection g is schedule g + s*C of C*m: consecutive due times go to different
            // connections, and all slots together send at an even pace.
            nextDue[s] = control.startNanos + (globalIndex + (double) s * connections) * control.fixedRateIntervalNanos
                    / control.spec.slots();
        }
    }

    @Override
    public void addHandlers(ChannelPipeline pipeline) {
        Frames frames = new Frames();
        Http2ConnectionHandler handler = new Http2ConnectionHandlerBuilder()
                .server(false)
                .frameListener(frames)
                .initialSettings(Http2Settings.defaultSettings().pushEnabled(false).initialWindowSize(WINDOW))
                // Closing at the window's end must not wait for streams in flight.
                .gracefulShutdownTimeoutMillis(0)
                .build();
        handler.connection().addListener(frames);
        pipeline.addLast(worker.h2Bytes, handler, this);
    }

    @Override
    public void connectStarted(Channel pending) {
        this.pending = pending;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        pending = null;
        if (worker.closed) {
            ctx.close(); // the worker closed while this connect was under way
            return;
        }
        Http2ConnectionHandler handler = ctx.pipeline().get(Http2ConnectionHandler.class);
        codec = handler;
        codecCtx = ctx.pipeline().context(handler);
        draining = false;
        inRead = false;
        Http2Stream connectionStream = handler.connection().connectionStream();
        handler.connection().local().flowController().incrementWindowSize(connectionStream,
                WINDOW - Http2CodecUtil.DEFAULT_WINDOW_SIZE);
        if (worker.h2Request.hasBody()) {
            // Only bodies are flow-controlled; the listener makes the codec track writability, which costs.
            handler.encoder().flowController().listener(stream -> {
                if (stream.id() != 0 && !handler.encoder().flowController().isWritable(stream)) {
                    worker.h2.flowControlStalls++;
                }
            });
        }
        // Requests go out at once, behind the preface, as nghttp2's clients do.
        if (fixedRate) {
            for (int s = 0; s < streams; s++) {
                sendNextFixed(s);
            }
        } else {
            fill();
        }
        flush();
    }

    /** The streams a connection may have open now: ours, within the server's SETTINGS limit. */
    private int capacity() {
        return Math.min(streams, codec.connection().local().maxActiveStreams());
    }

    /** Closed loop: keeps every slot busy while the run goes on. */
    private void fill() {
        int capacity = capacity();
        while (inFlight < capacity && !draining && control.tryAcquire()) {
            long now = System.nanoTime();
            send(freeSlot(), now, now);
        }
    }

    private int freeSlot() {
        for (int s = 0; s < streams; s++) {
            if (streamOf[s] == 0) {
                return s;
            }
        }
        throw new IllegalStateException("no free slot with " + inFlight + " of " + streams + " in flight");
    }

    /** Fixed rate: sends the slot's next request when it is due, at once if it is already late. */
    private void sendNextFixed(int slot) {
        if (streamOf[slot] != 0 || scheduled[slot] || codecCtx == null || !control.sending) {
            return;
        }
        long wait = (long) nextDue[slot] - System.nanoTime();
        if (wait <= 0) {
            sendDueRequest(slot);
        } else {
            scheduled[slot] = true;
            worker.loop.schedule(sendDue[slot], wait, TimeUnit.NANOSECONDS);
        }
    }

    private void sendDueRequest(int slot) {
        scheduled[slot] = false;
        if (streamOf[slot] != 0 || codecCtx == null || draining) {
            return;
        }
        if (inFlight >= capacity()) {
            starved = true;
            return;
        }
        if (!control.tryAcquire()) {
            return;
        }
        long dueNanos = (long) nextDue[slot];
        nextDue[slot] += control.fixedRateIntervalNanos;
        send(slot, dueNanos, System.nanoTime());
        if (!inRead) {
            flush();
        }
    }

    private void send(int slot, long dueNanos, long sentNanos) {
        Http2ConnectionEncoder encoder = codec.encoder();
        int id = codec.connection().local().incrementAndGetNextStreamId();
        if (id < 0) {
            // 2^30 streams used up on this connection: count this one as lost, and move to a new connection.
            lose(slot, Loss.READ);
            streamOf[slot] = 0;
            draining = true;
            codecCtx.close();
            return;
        }
        streamOf[slot] = id;
        due[slot] = dueNanos;
        sent[slot] = sentNanos;
        body[slot] = 0;
        status[slot] = 0;
        inFlight++;
        H2Request request = worker.h2Request;
        // A failed write resets the stream or closes the connection, which the listeners count.
        encoder.writeHeaders(codecCtx, id, request.headers(codecCtx.alloc()), 0, !request.hasBody(), codecCtx.voidPromise());
        if (request.hasBody()) {
            encoder.writeData(codecCtx, id, request.body(), 0, true, codecCtx.voidPromise());
        }
    }

    private void flush() {
        if (codecCtx != null) {
            codec.flush(codecCtx);
        }
    }

    private int slotOf(int streamId) {
        for (int s = 0; s < streams; s++) {
            if (streamOf[s] == streamId) {
                return s;
            }
        }
        return -1;
    }

    /** Response headers (or trailers) of a stream; an informational 1xx waits for the final answer. */
    private void onHeaders(int streamId, Http2Headers headers, boolean end) {
        int slot = slotOf(streamId);
        if (slot < 0) {
            return;
        }
        if (status[slot] == 0) {
            int code = statusOf(headers.status());
            if (code < 0) {
                lose(slot, Loss.PROTOCOL);
                next(slot);
                return;
            }
            status[slot] = code < 200 && !end ? 0 : code;
        }
        if (end) {
            answered(slot);
        }
    }

    /** A three-digit status without allocating; -1 when absent or malformed. */
    private static int statusOf(CharSequence s) {
        if (s == null || s.length() != 3) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < 3; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v >= 100 ? v : -1;
    }

    private void onData(int streamId, int bytes, boolean end) {
        int slot = slotOf(streamId);
        if (slot < 0) {
            return;
        }
        body[slot] += bytes;
        if (end) {
            if (status[slot] == 0) {
                lose(slot, Loss.PROTOCOL); // a body ended the stream before any final status
                next(slot);
            } else {
                answered(slot);
            }
        }
    }

    private void answered(int slot) {
        long now = System.nanoTime();
        worker.record((now - due[slot]) / 1000, (now - sent[slot]) / 1000);
        int code = status[slot];
        worker.requests++;
        worker.statusCounts[code]++;
        if (!statusOk[code]) {
            worker.errStatus++;
        } else if (expectedBody >= 0 && body[slot] != expectedBody) {
            worker.errProtocol++;
        }
        control.finished(1);
        free(slot);
        next(slot);
    }

    /** A request that ended without an answer, counted in its category. */
    private void lose(int slot, Loss why) {
        if (!worker.closed) {
            switch (why) {
                case READ -> worker.errRead++;
                case PROTOCOL -> worker.errProtocol++;
                case TIMEOUT -> worker.errTimeout++;
            }
            control.finished(1);
        }
        free(slot);
    }

    private void free(int slot) {
        streamOf[slot] = 0;
        inFlight--;
    }

    /** After a slot freed up: the next request, or the end of a connection the server is leaving. */
    private void next(int slot) {
        if (codecCtx == null || worker.closed) {
            return;
        }
        if (draining) {
            if (inFlight == 0) {
                codecCtx.close(); // a new connection follows (channelInactive)
            }
        } else if (fixedRate) {
            sendNextFixed(slot);
            if (starved) {
                starved = false;
                for (int s = 0; s < streams; s++) {
                    sendNextFixed(s);
                }
            }
        } else {
            fill();
        }
        if (!inRead) {
            flush();
        }
    }

    private void onGoAway(int lastStreamId) {
        worker.h2.goaway++;
        draining = true;
        // The server will not answer the streams above its last one: they are lost with it.
        for (int s = 0; s < streams; s++) {
            if (streamOf[s] > lastStreamId) {
                lose(s, Loss.READ);
            }
        }
        next(-1);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // The codec flushes right after this: whatever the frames of this read made us write goes out once.
        inRead = false;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // Netty has closed every stream already (each a read error in Frames.onStreamClosed).
        for (int s = 0; s < streams; s++) {
            if (streamOf[s] != 0) {
                lose(s, Loss.READ);
            }
        }
        codecCtx = null;
        codec = null;
        if (!worker.closed && control.sending) {
            worker.connect(this);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // HTTP/2 errors were handled by the codec (RST_STREAM or GOAWAY); this is the transport's.
        if (!(cause instanceof IOException) && !worker.closed) {
            worker.errProtocol++;
        }
        ctx.close();
    }

    @Override
    public void checkTimeout(long now) {
        if (codecCtx == null) {
            return;
        }
        boolean any = false;
        for (int s = 0; s < streams; s++) {
            if (streamOf[s] != 0 && now - sent[s] > control.requestTimeoutNanos) {
                int id = streamOf[s];
                lose(s, Loss.TIMEOUT);
                codec.encoder().writeRstStream(codecCtx, id, Http2Error.CANCEL.code(), codecCtx.voidPromise());
                any = true;
            }
        }
        if (any) {
            for (int s = 0; s < streams; s++) {
                next(s);
            }
        }
    }

    @Override
    public long recordMissed(long endNanos) {
        if (!fixedRate) {
            return 0;
        }
        long missed = 0;
        for (int s = 0; s < streams; s++) {
            long m = MissedRequests.record(nextDue[s], control.fixedRateIntervalNanos, endNanos,
                    worker::recordUnsent);
            nextDue[s] += m * control.fixedRateIntervalNanos;
            missed += m;
        }
        return missed;
    }

    @Override
    public void close() {
        java.util.Arrays.fill(streamOf, 0);
        inFlight = 0;
        if (codecCtx != null) {
            codecCtx.channel().close();
        }
        if (pending != null) {
            pending.close();
            pending = null;
        }
    }

    /** The codec's callbacks for one channel: frames read, and streams closed. */
    private final class Frames extends Http2FrameAdapter implements Http2Connection.Listener {

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            inRead = true;
            onHeaders(streamId, headers, endOfStream);
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                                  short weight, boolean exclusive, int padding, boolean endOfStream) {
            onHeadersRead(ctx, streamId, headers, padding, endOfStream);
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
            inRead = true;
            int bytes = data.readableBytes();
            onData(streamId, bytes, endOfStream);
            // Consumed at once: the window opens again without waiting for anyone.
            return bytes + padding;
        }

        @Override
        public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
            worker.h2.rstStream++;
            int slot = slotOf(streamId);
            if (slot >= 0) {
                lose(slot, Loss.READ);
                next(slot);
            }
        }

        @Override
        public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
            onGoAway(lastStreamId);
        }

        @Override
        public void onGoAwaySent(int lastStreamId, long errorCode, ByteBuf debugData) {
            // The codec found the server's frames broke the protocol and leaves the connection. (It says
            // INTERNAL_ERROR when a write failed on a connection the server closed: a transport error.)
            if (errorCode != Http2Error.NO_ERROR.code() && errorCode != Http2Error.INTERNAL_ERROR.code()
                    && !worker.closed) {
                worker.errProtocol++;
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
            int slot = slotOf(stream.id());
            if (slot >= 0) {
                // Closed without an answer: the codec reset it over a broken answer, or the channel went.
                lose(slot, codecCtx != null && codecCtx.channel().isActive() ? Loss.PROTOCOL : Loss.READ);
                next(slot);
            }
        }
    }
}
