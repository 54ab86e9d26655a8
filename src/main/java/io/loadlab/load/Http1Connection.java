package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import java.io.IOException;

/**
 * One client connection of a worker, kept across reconnects. It sends requests (closed loop or
 * on a fixed schedule), parses the answers and records each latency. Runs only on its worker's
 * event loop; errors are counted, never thrown.
 *
 * <p>Nothing is allocated per request: the requests that one read's answers make room for are
 * written together, as one buffer, and flushed once when the read is complete
 * ({@link #channelReadComplete}); every write of a channel shares one {@link WritePromise}; a
 * fixed rate's next request waits in the loop's {@link Pacer}, not in a Netty timer.
 *
 * <p>Sharable only in the sense that a reconnect adds it to the new channel after the old one
 * closed: it is never on two channels at once.
 */
@ChannelHandler.Sharable
final class Http1Connection extends ChannelInboundHandlerAdapter
        implements ResponseParser.Listener, WritePromise.Outcome, ClientConnection, Pacer.Paced {

    private enum Failure { READ, WRITE, TIMEOUT, PROTOCOL }

    private final Worker worker;
    private final RunControl control;
    private final int pipeline;
    /** Closed loop: the free places a connection waits for before it writes again, half the depth (see {@link #fillPipeline}). */
    private final int refillAt;
    private final boolean fixedRate;
    /** The request says {@code Connection: close}: this side closes after each answer and reconnects. */
    private final boolean closeEach;
    private final ResponseParser parser;
    /** Ring of outstanding requests: when each was due and when it was sent (nanoTime). */
    private final long[] due;
    private final long[] sent;
    private int head;
    private int size;
    /** The newest requests of the ring whose write has not completed. */
    private int unwritten;
    /** Requests in each write not completed yet, oldest first (a ring, as Netty completes writes in order). */
    private final int[] writeSizes;
    private int writeHead;
    private int writes;
    private Channel channel;
    /** The promise of every write on {@link #channel}. */
    private WritePromise writePromise;
    /** The channel of a connect under way, or null. */
    private Channel pending;
    /** Due time of the next request at a fixed rate (nanoTime base). */
    private double nextDue;
    /** Whether this connection waits in the pacer for its next due time. */
    private boolean sendScheduled;
    /** Set from the first read of a batch until it is complete: requests wait until every answer is parsed. */
    private boolean inRead;
    private boolean sendAfterRead;
    /** When the bytes being parsed were read (nanoTime): the end time of every answer in them. */
    private long readNanos;

    Http1Connection(Worker worker, int globalIndex) {
        this.worker = worker;
        this.control = worker.control;
        this.pipeline = control.spec.pipeline();
        this.refillAt = Math.max(1, pipeline / 2);
        this.fixedRate = control.spec.isFixedRate();
        this.closeEach = control.spec.request().closesConnection();
        this.parser = new ResponseParser(control.spec.request().isHead(), control.bodyMatcher, worker.parseWindow);
        this.due = new long[pipeline];
        this.sent = new long[pipeline];
        this.writeSizes = new int[pipeline];
        // Stagger the connections so that together they send at an even pace.
        this.nextDue = control.startNanos + globalIndex * control.fixedRateIntervalNanos / control.spec.connections();
    }

    @Override
    public void connectStarted(Channel pending) {
        this.pending = pending;
    }

    @Override
    public void addHandlers(ChannelPipeline pipeline) {
        pipeline.addLast(this);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        pending = null;
        if (worker.closed) {
            ctx.close(); // the worker closed while this connect was under way
            return;
        }
        channel = ctx.channel();
        writePromise = new WritePromise(channel, this);
        parser.reset();
        unwritten = 0;
        writes = 0;
        inRead = false;
        sendAfterRead = false;
        // With TLS this comes after the handshake (TlsGate); the worker times the TCP connect.
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
            // One clock read per read, not per answer: the answers in it all arrived by now, and
            // the time spent parsing the ones before is not theirs (pipelined, a read holds dozens).
            readNanos = System.nanoTime();
            // Sending before the rest of the batch is parsed would credit an unsolicited answer in
            // it to the new request; and one write for the whole batch is one syscall, not one each.
            inRead = true;
            if (parser.feed(buf, this) != null) {
                fail(Failure.PROTOCOL);
            }
        } finally {
            buf.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inRead = false;
        if (sendAfterRead) {
            sendAfterRead = false;
            sendNext();
        }
    }

    @Override
    public boolean onResponse(int status, long bodyBytes, boolean close, boolean matched) {
        if (size == 0) {
            // An answer nobody asked for is a protocol violation, not a measurement.
            if (!worker.closed) {
                worker.errProtocol++;
            }
            fail(Failure.PROTOCOL);
            return false;
        }
        int i = head;
        head = (head + 1) % pipeline;
        size--;
        worker.answered(due[i], sent[i], readNanos, status, bodyBytes, matched);
        if (close || closeEach) {
            // Requests pipelined behind this answer are lost with the connection. With closeEach
            // none is (one request per connection): the close counts nothing and a reconnect follows,
            // without waiting for the server to close first.
            fail(Failure.READ);
            return false;
        }
        if (inRead) {
            sendAfterRead = true;
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
        inRead = false;
        sendAfterRead = false;
        // After fail() the channel is already forgotten and its requests counted: its close must
        // not complete a body that ends at the close, which would count one more (protocol) error.
        if (!worker.closed && ctx.channel() == channel) {
            readNanos = System.nanoTime();
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

    @Override
    public void written(Channel ch) {
        if (ch != channel || writes == 0) {
            return; // a connection already given up: its requests were counted then
        }
        unwritten -= writeSizes[writeHead];
        writeHead = (writeHead + 1) % pipeline;
        writes--;
    }

    @Override
    public void writeFailed(Channel ch, Throwable cause) {
        if (ch == channel) {
            fail(Failure.WRITE);
        }
    }

    /**
     * Closed loop: tops the connection up to {@code pipeline} requests in flight once at least half
     * of them have been answered (at once with one in flight). Topping up after every answer made
     * writes of one or two requests: the server answers in the batches it reads, so the batches
     * stayed that small, and each small write and read cost a syscall and a TCP segment's kernel
     * work (85% of the loop's CPU in a profile). Batches of at least half the depth keep that down;
     * between N/2 and N requests are in flight.
     */
    private void fillPipeline() {
        if (pipeline - size < refillAt) {
            return;
        }
        long now = System.nanoTime();
        int n = 0;
        while (size + n < pipeline && control.tryAcquire()) {
            int tail = (head + size + n) % pipeline;
            due[tail] = now;
            sent[tail] = now;
            n++;
        }
        if (n > 0) {
            write(n);
        }
    }

    /** Fixed rate: sends the next request when it is due, at once if it is already late. */
    private void sendNextFixed() {
        if (size > 0 || sendScheduled || channel == null || !control.sending) {
            return;
        }
        if ((long) nextDue - System.nanoTime() <= 0) {
            sendDueRequest(false);
        } else {
            sendScheduled = true;
            worker.pacer.orElseThrow().schedule(this, 0, (long) nextDue);
        }
    }

    @Override
    public void sendDue(int slot) {
        sendDueRequest(true);
    }

    /** Sends the request due now: called by the pacer ({@code paced}), or at once when it is late. */
    private void sendDueRequest(boolean paced) {
        sendScheduled = false;
        if (size > 0 || channel == null || !control.tryAcquire()) {
            return;
        }
        int tail = (head + size) % pipeline;
        long now = System.nanoTime();
        due[tail] = (long) nextDue;
        sent[tail] = now;
        worker.sendLateness(now - due[tail], paced);
        nextDue += control.fixedRateIntervalNanos;
        write(1);
    }

    /** Writes, as one buffer, the {@code n} requests whose times were just put at the ring's tail, and flushes. */
    private void write(int n) {
        size += n;
        unwritten += n;
        writeSizes[(writeHead + writes) % pipeline] = n;
        writes++;
        ByteBuf req = worker.encoder.next(channel.alloc(), n);
        worker.bytesWritten += req.readableBytes();
        channel.writeAndFlush(req, writePromise);
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
        writes = 0;
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
        long missed = MissedRequests.record(nextDue, control.fixedRateIntervalNanos, endNanos, worker.unsent);
        nextDue += missed * control.fixedRateIntervalNanos;
        return missed;
    }

    @Override
    public long skipUnsent(long startNanos) {
        if (!fixedRate || sendScheduled) {
            return 0;
        }
        long skipped = MissedRequests.dueBefore(nextDue, control.fixedRateIntervalNanos, startNanos);
        nextDue += skipped * control.fixedRateIntervalNanos;
        return skipped;
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
        writes = 0;
        if (channel != null) {
            channel.close();
        }
        if (pending != null) {
            pending.close();
            pending = null;
        }
    }
}
