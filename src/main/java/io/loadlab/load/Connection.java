package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * One client connection of a worker, kept across reconnects. It sends requests (closed loop or
 * on a fixed schedule), parses the answers and records each latency. Runs only on its worker's
 * event loop; errors are counted, never thrown.
 *
 * <p>Sharable only in the sense that a reconnect adds it to the new channel after the old one
 * closed: it is never on two channels at once.
 */
@ChannelHandler.Sharable
final class Connection extends ChannelInboundHandlerAdapter implements ResponseParser.Listener, ClientConnection {

    private enum Failure { READ, WRITE, TIMEOUT, PROTOCOL }

    private final Worker worker;
    private final RunControl control;
    private final int pipeline;
    private final boolean fixedRate;
    private final ResponseParser parser;
    private final boolean[] statusOk;
    private final long expectedBody;
    /** Ring of outstanding requests: when each was due and when it was sent (nanoTime). */
    private final long[] due;
    private final long[] sent;
    private int head;
    private int size;
    /** The newest requests of the ring whose write has not completed. */
    private int unwritten;
    private Channel channel;
    /** Due time of the next request at a fixed rate (nanoTime base). */
    private double nextDue;
    private final Runnable sendDue = this::sendDueRequest;
    private boolean sendScheduled;
    /** Set while a read's bytes are parsed: the next request waits until they all are. */
    private boolean inRead;
    private boolean refillAfterRead;
    private final ChannelFutureListener onWritten = this::written;

    Connection(Worker worker, int globalIndex) {
        this.worker = worker;
        this.control = worker.control;
        this.pipeline = control.spec.pipeline();
        this.fixedRate = control.spec.isFixedRate();
        this.parser = new ResponseParser(control.spec.request().isHead());
        this.statusOk = control.statusOk;
        this.expectedBody = control.spec.expectation().bodyBytes().orElse(-1);
        this.due = new long[pipeline];
        this.sent = new long[pipeline];
        // Stagger the connections so that together they send at an even pace.
        this.nextDue = control.startNanos + globalIndex * control.fixedRateIntervalNanos / control.spec.connections();
    }

    @Override
    public void addHandlers(ChannelPipeline pipeline) {
        pipeline.addLast(this);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // With TLS this comes after the handshake (TlsGate); the worker times the TCP connect.
        channel = ctx.channel();
        parser.reset();
        unwritten = 0;
        if (fixedRate) {
            sendNextFixed();
        } else {
            fillPipeline();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        try {
            if (worker.closed) {
                return;
            }
            worker.bytesRead += buf.readableBytes();
            inRead = true;
            String error;
            try {
                error = parser.feed(buf, this);
            } finally {
                inRead = false;
            }
            if (error != null) {
                fail(Failure.PROTOCOL);
            } else if (refillAfterRead) {
                // Sending before the rest of the buffer is parsed would credit an unsolicited
                // answer in it to the new request.
                refillAfterRead = false;
                sendNext();
            }
        } finally {
            buf.release();
        }
    }

    @Override
    public boolean onResponse(int status, long bodyBytes, boolean close) {
        if (size == 0) {
            // An answer nobody asked for is a protocol violation, not a measurement.
            if (!worker.closed) {
                worker.errProtocol++;
            }
            fail(Failure.PROTOCOL);
            return false;
        }
        long now = System.nanoTime();
        int i = head;
        head = (head + 1) % pipeline;
        size--;
        worker.latency.recordValue(Math.max(1, Math.min(Worker.HIGHEST_US, (now - due[i]) / 1000)));
        if (worker.service != null) {
            worker.service.recordValue(Math.max(1, Math.min(Worker.HIGHEST_US, (now - sent[i]) / 1000)));
        }
        worker.requests++;
        worker.statusCounts[status]++;
        if (!statusOk[status]) {
            worker.errStatus++;
        } else if (expectedBody >= 0 && bodyBytes != expectedBody) {
            worker.errProtocol++;
        }
        control.finished(1);
        if (close) {
            // Requests pipelined behind this answer are lost with the connection.
            fail(Failure.READ);
            return false;
        }
        if (inRead) {
            refillAfterRead = true;
        } else {
            sendNext();
        }
        return true;
    }

    private void sendNext() {
        if (channel == null || !channel.isActive() || worker.closed) {
            return;
        }
        if (fixedRate) {
            sendNextFixed();
        } else {
            fillPipeline();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        refillAfterRead = false;
        // After fail() the channel is already forgotten and its requests counted: its close must
        // not complete a body that ends at the close, which would count one more (protocol) error.
        if (!worker.closed && ctx.channel() == channel) {
            parser.onClose(this);
            countLost(Failure.READ);
        }
        channel = null;
        if (!worker.closed && control.sending) {
            worker.connect(this);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // IOExceptions here are resets and broken pipes: the outstanding requests are lost.
        fail(cause instanceof IOException ? Failure.READ : Failure.PROTOCOL);
    }

    private void written(ChannelFuture f) {
        if (f.channel() != channel) {
            return; // a connection already given up: its requests were counted then
        }
        if (f.isSuccess()) {
            unwritten--;
        } else {
            fail(Failure.WRITE);
        }
    }

    /** Closed loop: keeps {@code pipeline} requests in flight while the run goes on. */
    private void fillPipeline() {
        boolean wrote = false;
        while (size < pipeline && channel != null && control.tryAcquire()) {
            long now = System.nanoTime();
            write(now, now, false);
            wrote = true;
        }
        if (wrote) {
            channel.flush();
        }
    }

    /** Fixed rate: sends the next request when it is due, at once if it is already late. */
    private void sendNextFixed() {
        if (size > 0 || sendScheduled || channel == null || !control.sending) {
            return;
        }
        long wait = (long) nextDue - System.nanoTime();
        if (wait <= 0) {
            sendDueRequest();
        } else {
            sendScheduled = true;
            worker.loop.schedule(sendDue, wait, TimeUnit.NANOSECONDS);
        }
    }

    private void sendDueRequest() {
        sendScheduled = false;
        if (size > 0 || channel == null || !control.tryAcquire()) {
            return;
        }
        long dueNanos = (long) nextDue;
        nextDue += control.fixedRateIntervalNanos;
        write(dueNanos, System.nanoTime(), true);
    }

    private void write(long dueNanos, long sentNanos, boolean flush) {
        int tail = (head + size) % pipeline;
        due[tail] = dueNanos;
        sent[tail] = sentNanos;
        size++;
        unwritten++;
        ByteBuf req = worker.encoder.next(channel.alloc());
        worker.bytesWritten += req.readableBytes();
        ChannelFuture f = flush ? channel.writeAndFlush(req) : channel.write(req);
        f.addListener(onWritten);
    }

    /** Counts the outstanding requests as failed, closes the connection (a reconnect follows). */
    private void fail(Failure why) {
        countLost(why);
        // Forget the channel at once: a write to it now fails synchronously, and the pipeline
        // loop would otherwise spend every remaining permit on it.
        Channel c = channel;
        channel = null;
        if (c != null) {
            c.close();
        }
    }

    private void countLost(Failure why) {
        if (size == 0 || worker.closed) {
            size = 0;
            unwritten = 0;
            return;
        }
        switch (why) {
            case READ -> worker.errRead += size;
            case WRITE -> {
                // Only the requests whose write failed could not be written; those sent before
                // them are lost with the connection.
                int notSent = Math.min(unwritten, size);
                worker.errWrite += notSent;
                worker.errRead += size - notSent;
            }
            case TIMEOUT -> worker.errTimeout += size;
            case PROTOCOL -> {
                // One answer was invalid, the oldest request's; those pipelined behind it are
                // lost with the connection, as behind a Connection: close answer.
                worker.errProtocol++;
                worker.errRead += size - 1;
            }
        }
        control.finished(size);
        size = 0;
        unwritten = 0;
        head = 0;
    }

    /**
     * At a fixed rate, the requests that fell due before {@code endNanos} but were never sent: each
     * is recorded with the latency it had reached by then (a lower bound), so that an overloaded
     * server's backlog shows in the tail instead of vanishing. Runs on the loop, once, at the end.
     *
     * @return how many were due and never sent
     */
    @Override
    public long recordMissed(long endNanos) {
        if (!fixedRate) {
            return 0;
        }
        long missed = MissedRequests.record(nextDue, control.fixedRateIntervalNanos, endNanos,
                worker.latency::recordValueWithCount);
        nextDue += missed * control.fixedRateIntervalNanos;
        return missed;
    }

    @Override
    public void checkTimeout(long now) {
        if (size > 0 && now - sent[head] > control.requestTimeoutNanos) {
            fail(Failure.TIMEOUT);
        }
    }

    @Override
    public void close() {
        size = 0;
        unwritten = 0;
        if (channel != null) {
            channel.close();
        }
    }
}
