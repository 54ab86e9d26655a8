package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import java.io.IOException;

/**
 * One HTTP/2 connection of a worker, kept across reconnects: {@code streams} request slots, each a
 * stream in flight at a time. In the closed loop every answer starts the next stream; at a fixed rate
 * each slot keeps its own schedule (the run's rate split over connections × streams), so coordinated
 * omission is corrected per slot, as per connection over HTTP/1.1. Frame-level: Netty's
 * {@link Http2ConnectionHandler} (framing, flow control, stream states) calls this connection's frame
 * listener, with no frame objects and no child channel per stream. Runs only on its worker's loop;
 * errors are counted, never thrown.
 *
 * <p>Per request Netty allocates the stream's state, a write promise and its content-length check;
 * the answers' header blocks go through the engine's own HPACK decoder ({@link H2StatusDecoder}), which
 * keeps only {@code :status} and {@code content-length}; this class allocates nothing per request (its
 * slots are arrays; with substitutions the path is one string per request). In all, about 930 bytes
 * per request over h2c against a Netty server and 1.3 KB over h2-tls against nginx, which
 * {@code ProtocolAllocationTest} bounds.
 *
 * <p>Error categories: a stream the server resets ({@code RST_STREAM}) or the connection loses (closed,
 * or above a {@code GOAWAY}'s last stream) is a {@code read} error; one Netty resets because its
 * answer broke the protocol, and an answer with a wrong body length, are {@code protocol} errors; one
 * past the request timeout is reset by us and counted as {@code timeout}.
 */
@ChannelHandler.Sharable
final class H2Connection extends ChannelInboundHandlerAdapter implements ClientConnection, Pacer.Paced {

    /**
     * Receive windows of 2^30 - 1 bytes per stream and per connection, h2load's defaults ({@code -w 30
     * -W 30}): a large answer never waits for a WINDOW_UPDATE from the load generator.
     */
    static final int WINDOW = (1 << 30) - 1;

    private enum Loss { READ, PROTOCOL, TIMEOUT }

    private final Worker worker;
    private final RunControl control;
    private final boolean fixedRate;
    private final H2Slots slots;
    /** At a fixed rate: each slot's schedule (its next request waits in the loop's {@link Pacer}). */
    private final H2Schedules schedules;
    /** A fixed-rate slot found no free stream (the server's limit was lower): retry it on the next answer. */
    private boolean starved;

    // The current channel, null between connections.
    private ChannelHandlerContext codecCtx;
    private Http2ConnectionHandler codec;
    private boolean draining;
    /** Inside the codec's read: its channelReadComplete flushes what was written meanwhile. */
    private boolean inRead;
    /** Written by the pacer in its current pass: it flushes at the pass's end ({@link #flushPaced}). */
    private boolean pacedUnflushed;
    /**
     * Whether the pacer's sends wait for its pass's end to flush: when the wake-up slack spans two or
     * more of this connection's request intervals, so that several of its streams fall due at one grid
     * point. Then one write carries them (a 6.4 ms grid at 100,000/s over TLS: 16% less CPU a request);
     * with about one due a point, waiting cost 2.4% more (docs/benchmarks.md).
     */
    private final boolean batchPaced;
    /** The channel of a connect under way, or null. */
    private Channel pending;

    H2Connection(Worker worker, int globalIndex) {
        this.worker = worker;
        this.control = worker.control;
        this.fixedRate = control.spec.isFixedRate();
        this.slots = new H2Slots(control.spec.streams());
        this.schedules = fixedRate ? new H2Schedules(control, globalIndex) : null;
        this.batchPaced = control.spec.model() instanceof LoadModel.FixedRate f
                && f.paceSlack().toNanos() * (double) control.spec.streams() >= 2 * control.fixedRateIntervalNanos;
    }

    @Override
    public void addHandlers(ChannelPipeline pipeline) {
        pipeline.addLast(worker.h2Bytes, new H2Frames(this).newCodec(WINDOW), this);
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
            for (int s = 0; s < slots.size(); s++) {
                sendNextFixed(s);
            }
        } else {
            fill();
        }
        flush();
    }

    /** The streams a connection may have open now: ours, within the server's SETTINGS limit. */
    private int capacity() {
        return Math.min(slots.size(), codec.connection().local().maxActiveStreams());
    }

    /** Closed loop: keeps every slot busy while the run goes on. */
    private void fill() {
        int capacity = capacity();
        // One clock reading for the requests of one call: they go out together, at the flush that follows.
        long now = System.nanoTime();
        while (slots.inFlight() < capacity && !draining && control.tryAcquire()) {
            send(slots.free(), now, now);
        }
    }

    /** Fixed rate: sends the slot's next request when it is due, at once if it is already late. */
    private void sendNextFixed(int slot) {
        if (slots.stream[slot] != 0 || schedules.scheduled(slot) || codecCtx == null || !control.sending) {
            return;
        }
        long wait = schedules.untilDue(slot, System.nanoTime());
        if (wait <= 0) {
            sendDueRequest(slot, false);
        } else {
            schedules.scheduled(slot, true);
            worker.pacer.orElseThrow().schedule(this, slot, schedules.dueTime(slot));
        }
    }

    @Override
    public void sendDue(int slot) {
        sendDueRequest(slot, true);
    }

    /** Sends the slot's request due now: called by the pacer ({@code paced}), or at once when it is late. */
    private void sendDueRequest(int slot, boolean paced) {
        schedules.scheduled(slot, false);
        if (slots.stream[slot] != 0 || codecCtx == null || draining) {
            return;
        }
        if (slots.inFlight() >= capacity()) {
            starved = true;
            return;
        }
        if (!control.tryAcquire()) {
            return;
        }
        long now = System.nanoTime(), due = schedules.take(slot);
        worker.sendLateness(now - due, paced);
        send(slot, due, now);
        if (inRead) {
            return;
        }
        if (paced && batchPaced) {
            // The streams due at one grid point go out in one write, at the end of the pacer's pass.
            if (!pacedUnflushed) {
                pacedUnflushed = true;
                worker.pacer.orElseThrow().flushLater(this);
            }
        } else {
            flush();
        }
    }

    @Override
    public void flushPaced() {
        pacedUnflushed = false;
        flush();
    }

    private void send(int slot, long dueNanos, long sentNanos) {
        Http2ConnectionEncoder encoder = codec.encoder();
        int id = codec.connection().local().incrementAndGetNextStreamId();
        if (id < 0) {
            // 2^30 streams used up on this connection: this request is lost, and a new connection follows.
            count(Loss.READ);
            draining = true;
            codecCtx.close();
            return;
        }
        slots.start(slot, id, dueNanos, sentNanos);
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

    /** Response headers (or trailers) of a stream; an informational 1xx waits for the final answer. */
    void onHeaders(int streamId, Http2Headers headers, boolean end) {
        inRead = true;
        int slot = slots.of(streamId);
        if (slot < 0) {
            return;
        }
        if (slots.status[slot] == 0) {
            int code = H2Slots.statusOf(headers.status());
            if (code < 0) {
                lose(slot, Loss.PROTOCOL);
                next(slot);
                return;
            }
            slots.status[slot] = code < 200 && !end ? 0 : code;
        }
        if (end) {
            answered(slot);
        }
    }

    /** A DATA frame's payload (not consumed here): counted, and looked into for the expected text. */
    void onData(int streamId, ByteBuf data, boolean end) {
        inRead = true;
        int slot = slots.of(streamId);
        if (slot < 0) {
            return;
        }
        int bytes = data.readableBytes();
        slots.body[slot] += bytes;
        if (control.bodyMatcher != null) {
            slots.match[slot] = control.bodyMatcher.feed(slots.match[slot], data, data.readerIndex(), bytes);
        }
        if (end) {
            if (slots.status[slot] == 0) {
                lose(slot, Loss.PROTOCOL); // a body ended the stream before any final status
                next(slot);
            } else {
                answered(slot);
            }
        }
    }

    private void answered(int slot) {
        boolean matched = control.bodyMatcher == null || control.bodyMatcher.found(slots.match[slot]);
        worker.answered(slots.due[slot], slots.sent[slot], worker.h2ReadNanos, slots.status[slot], slots.body[slot],
                matched);
        slots.release(slot);
        next(slot);
    }

    /** A request that ended without an answer, counted in its category. */
    private void lose(int slot, Loss why) {
        count(why);
        slots.release(slot);
    }

    private void count(Loss why) {
        if (!worker.closed) {
            switch (why) {
                case READ -> worker.errRead++;
                case PROTOCOL -> worker.errProtocol++;
                case TIMEOUT -> worker.errTimeout++;
            }
            control.finished(1);
        }
    }

    /** After a slot freed up: the next request, or the end of a connection the server is leaving. */
    private void next(int slot) {
        if (codecCtx == null || worker.closed) {
            return;
        }
        if (draining) {
            if (slots.inFlight() == 0) {
                codecCtx.close(); // a new connection follows (channelInactive)
            }
        } else if (fixedRate) {
            sendNextFixed(slot);
            if (starved) {
                starved = false;
                for (int s = 0; s < slots.size(); s++) {
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

    void onGoAway(int lastStreamId) {
        worker.h2.goaway++;
        draining = true;
        // The server will not answer the streams above its last one: they are lost with it.
        for (int s = 0; s < slots.size(); s++) {
            if (slots.stream[s] > lastStreamId) {
                lose(s, Loss.READ);
            }
        }
        next(-1);
    }

    /** The codec left the connection over the server's frames, which broke the protocol. */
    void onProtocolGoAway() {
        if (!worker.closed) {
            worker.errProtocol++;
        }
    }

    /** The server reset a stream. */
    void onReset(int streamId) {
        worker.h2.rstStream++;
        int slot = slots.of(streamId);
        if (slot >= 0) {
            lose(slot, Loss.READ);
            next(slot);
        }
    }

    /** A stream closed; one of ours still in flight ended without an answer. */
    void onStreamClosed(int streamId) {
        int slot = slots.of(streamId);
        if (slot >= 0) {
            // The codec reset it over a broken answer, or the channel went.
            lose(slot, codecCtx != null && codecCtx.channel().isActive() ? Loss.PROTOCOL : Loss.READ);
            next(slot);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // The codec flushes right after this: whatever the frames of this read made us write goes out once.
        inRead = false;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // Netty has closed every stream already (each a read error in Frames.onStreamClosed).
        for (int s = 0; s < slots.size(); s++) {
            if (slots.stream[s] != 0) {
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
        for (int s = 0; s < slots.size(); s++) {
            if (slots.stream[s] != 0 && now - slots.sent[s] > control.requestTimeoutNanos) {
                int id = slots.stream[s];
                lose(s, Loss.TIMEOUT);
                codec.encoder().writeRstStream(codecCtx, id, Http2Error.CANCEL.code(), codecCtx.voidPromise());
                any = true;
            }
        }
        if (any) {
            for (int s = 0; s < slots.size(); s++) {
                next(s);
            }
        }
    }

    @Override
    public long recordMissed(long endNanos) {
        if (!fixedRate) {
            return 0;
        }
        return schedules.recordMissed(endNanos, worker.unsent);
    }

    @Override
    public long skipUnsent(long startNanos) {
        return fixedRate ? schedules.skipUnsent(startNanos) : 0;
    }

    @Override
    public void close() {
        slots.clear();
        if (codecCtx != null) {
            codecCtx.channel().close();
        }
        if (pending != null) {
            pending.close();
            pending = null;
        }
    }
}
