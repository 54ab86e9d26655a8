package io.loadlab.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The connections of one event loop and what they measured. Everything is touched only on the
 * loop's thread, so the counters are plain fields and the histograms plain {@link Histogram}s:
 * the one thread that records into them is also the one that hands them over at a snapshot
 * ({@link #snapshotInto}), so a {@code SingleWriterRecorder}'s two atomic steps per value would
 * buy nothing.
 */
final class Worker {
    /** Latencies are recorded in µs up to an hour: far beyond any timeout. */
    static final long HIGHEST_US = 3_600_000_000L;
    static final int DIGITS = 3;
    /** Status codes are counted in an array indexed by code: 0 to 999. */
    static final int STATUS_CODES = 1000;
    /**
     * At a fixed rate, the timeout check's shortest period in the warm-up, ns; 3 µs a connection above
     * 66 connections, so that it stays a small share of the loop. At its own period (a tenth of the
     * timeout, at most 100 ms) the check ran 10 times a second and so was compiled inside the window (C1
     * and C2 on the load core, 2 to 22 ms a window at 20,000/s on 64 connections, 7 logged runs); every
     * 0.2 ms, on about half the loop's passes at that rate, it is compiled in the warm-up (none in the
     * window in 3 logged runs). Not at every pass: the pacer's test whether the check is due must see
     * both answers before C2 compiles the pass, or the window's first "not due" would deoptimize it.
     */
    private static final long WARMUP_CHECK_NANOS = 200_000L;
    private static final long WARMUP_CHECK_NANOS_PER_CONNECTION = 3_000L;

    final int index;
    final EventLoop loop;
    final RunControl control;
    /** The body size every answer must have, or -1 when any size will do (bytes). */
    private final long expectedBody;
    final RequestEncoder encoder;
    /** The request as HTTP/2 headers and body; null over HTTP/1.1. */
    final H2Request h2Request;
    /** Counts an HTTP/2 connection's wire bytes; null over HTTP/1.1. */
    final WireBytes h2Bytes;
    /**
     * When the bytes an HTTP/2 connection is decoding were read ({@link System#nanoTime()}, set by
     * {@link WireBytes}): the end time of every answer in them, as over HTTP/1.1.
     */
    long h2ReadNanos;
    /** Sends fixed-rate requests when due; empty in the closed loop. */
    final Optional<Pacer> pacer;
    /** This interval's latencies, µs; swapped for an empty one at each snapshot. */
    private Histogram latency = Totals.newHistogram();
    /** This interval's service times, µs, at a fixed rate; null in the closed loop. */
    private Histogram service;
    /** TCP connect times, µs (a TLS handshake is timed apart, in {@link #tls}). */
    final Histogram connectTime = new Histogram(1, HIGHEST_US, DIGITS);
    /** The response parsers' scratch, shared by this loop's HTTP/1.1 connections (fed on this loop only). */
    final byte[] parseWindow = ResponseParser.newWindow();
    final TlsCounters tls = new TlsCounters();
    final H2Counters h2 = new H2Counters();
    private final Bootstrap bootstrap;
    private final List<ClientConnection> connections = new ArrayList<>();
    private ScheduledFuture<?> timeoutCheck;
    /** The timeout check's period in the window, ns: a tenth of the request timeout, within 1–100 ms. */
    private final long checkNanos;
    private final Runnable timeoutCheckTask = this::checkTimeouts;
    /** Set when the window has closed: late answers are no longer recorded. */
    boolean closed;

    // Counters since the last reset (end of warm-up).
    long requests;
    /** Answers with an accepted status and body, since the last reset: what the warm-up counts as good. */
    long good;
    long bytesRead;
    long bytesWritten;
    final long[] statusCounts = new long[STATUS_CODES];
    long errConnect;
    long errRead;
    long errWrite;
    long errTimeout;
    long errStatus;
    long errProtocol;
    /** Answers whose body lacked the expected text. */
    long errBody;
    /** At a fixed rate: requests that fell due in the window but were never sent (set at its end). */
    long missed;
    /**
     * At a fixed rate: the lateness of the requests the pacer sent when they fell due, ns: the loop's own;
     * null in the closed loop. With {@link #freeLateness} it makes every request's lateness.
     */
    final Histogram pacedLateness;
    /**
     * At a fixed rate: the lateness of the requests that fell due while their connection (or stream) still
     * awaited an answer or was not open yet, and went out as soon as it was free, ns.
     */
    final Histogram freeLateness;
    /** At a fixed rate: requests sent before their due time (a bug if ever above 0). */
    long sentEarly;
    /** At a fixed rate: requests the warm-up left due and unsent, skipped as the window opened. */
    long warmupUnsent;
    /**
     * Where the connections record the requests that were due and never sent ({@link #recordUnsent}).
     * Made once here: a method reference made at the window's end spins its class there, some 20 KB
     * that the loop's allocation in the window then counted (2 bytes per request at 4,000/s for 3 s).
     */
    final MissedRequests.Sink unsent = this::recordUnsent;

    Worker(int index, EventLoop loop, RunControl control, Transport transport, Optional<Pacer> pacer) {
        this.index = index;
        this.loop = loop;
        this.control = control;
        this.expectedBody = control.spec.expectation().bodyBytes().orElse(-1);
        this.pacer = pacer;
        this.checkNanos = Math.max(1_000_000L, Math.min(100_000_000L, control.requestTimeoutNanos / 10));
        this.encoder = new RequestEncoder(control.spec.request(), index, control.spec.threads(), control.spec.seed());
        this.service = control.spec.isFixedRate() ? Totals.newHistogram() : null;
        this.pacedLateness = control.spec.isFixedRate() ? new Histogram(1, HIGHEST_US * 1000, 2) : null;
        this.freeLateness = control.spec.isFixedRate() ? new Histogram(1, HIGHEST_US * 1000, 2) : null;
        boolean h2 = control.spec.protocol().isHttp2();
        this.h2Request = h2 ? new H2Request(control.spec.request(), encoder) : null;
        this.h2Bytes = h2 ? new WireBytes(this) : null;
        int connectMillis = (int) Math.min(Integer.MAX_VALUE, control.spec.connectTimeout().toMillis());
        this.bootstrap = new Bootstrap()
                .group(loop)
                .channel(transport.channelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectMillis)
                .option(ChannelOption.AUTO_READ, true);
    }

    /** Opens this worker's connections; {@code globalIndexes} give each its place in the rate schedule. */
    void start(List<Integer> globalIndexes) {
        for (int g : globalIndexes) {
            ClientConnection c = control.spec.protocol().isHttp2() ? new H2Connection(this, g) : new Http1Connection(this, g);
            connections.add(c);
            connect(c);
        }
        if (pacer.isPresent()) {
            // At a fixed rate the pacer runs the check from its pass, with no Netty timer: see Pacer, "Timeouts".
            long warmup = Math.max(WARMUP_CHECK_NANOS, WARMUP_CHECK_NANOS_PER_CONNECTION * connections.size());
            pacer.get().checkEvery(timeoutCheckTask, control.spec.warmup().isNone() ? checkNanos : Math.min(warmup, checkNanos));
        } else {
            timeoutCheck = loop.scheduleAtFixedRate(timeoutCheckTask, checkNanos, checkNanos, TimeUnit.NANOSECONDS);
        }
    }

    void connect(ClientConnection c) {
        if (closed || !control.sending) {
            return;
        }
        long began = System.nanoTime();
        ChannelFuture f = bootstrap.clone().handler(handlerFor(c)).connect(control.address);
        c.connectStarted(f.channel());
        f.addListener(done -> {
            if (done.isSuccess()) {
                // The TCP connect alone: with TLS the connection's channelActive comes after the handshake.
                connectTime.recordValue(Math.max(1, Math.min(HIGHEST_US, (System.nanoTime() - began) / 1000)));
            } else if (!closed) {
                errConnect++;
                if (!closed && control.sending) {
                    // Back off a little so a refusing server is not hammered in a tight loop.
                    loop.schedule(() -> connect(c), 10, TimeUnit.MILLISECONDS);
                }
            }
        });
    }

    /**
     * The pipeline of a new channel: a plain HTTP/1.1 connection is its own (sharable) handler; TLS
     * puts the SslHandler and the handshake's gate before the HTTP handlers.
     */
    private ChannelHandler handlerFor(ClientConnection c) {
        if (control.tls.isEmpty() && c instanceof Http1Connection plain) {
            return plain;
        }
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                control.tls.ifPresent(t -> {
                    SslHandler ssl = t.newHandler(ch.alloc());
                    ch.pipeline().addLast(ssl, new TlsGate(Worker.this, c, ssl, control.spec.protocol() == Protocol.H2));
                });
                c.addHandlers(ch.pipeline());
            }
        };
    }

    private void checkTimeouts() {
        long now = System.nanoTime();
        for (int i = 0; i < connections.size(); i++) {
            connections.get(i).checkTimeout(now);
        }
    }

    /**
     * One answer, over either protocol: its latency from when it was due and from when it was sent
     * ({@link System#nanoTime()} values, {@code now} when it ended), its status, and a body of the wrong
     * size as a protocol error, and one without the expected text ({@code matched} false) as a body error;
     * the run is told. On the loop.
     */
    void answered(long dueNanos, long sentNanos, long now, int status, long bodyBytes, boolean matched) {
        record((now - dueNanos) / 1000, (now - sentNanos) / 1000);
        requests++;
        statusCounts[status]++;
        if (!control.statusOk[status]) {
            errStatus++;
        } else if (expectedBody >= 0 && bodyBytes != expectedBody) {
            errProtocol++;
        } else if (!matched) {
            errBody++;
        } else {
            good++;
        }
        control.finished(1);
    }

    /** Records one answer's latency (and at a fixed rate its service time), µs, clamped to the histograms' range. */
    void record(long latencyUs, long serviceUs) {
        latency.recordValue(clamp(latencyUs));
        if (service != null) {
            service.recordValue(clamp(serviceUs));
        }
    }

    /** Records {@code count} requests that were due but never sent, each with the wait it had reached, µs. */
    void recordUnsent(long waitUs, long count) {
        latency.recordValueWithCount(clamp(waitUs), count);
    }

    private static long clamp(long us) {
        return Math.max(1, Math.min(HIGHEST_US, us));
    }

    /** Discards everything recorded so far: the end of the warm-up. Runs on the loop. */
    void reset() {
        latency.reset();
        if (service != null) {
            service.reset();
        }
        requests = good = bytesRead = bytesWritten = 0;
        errConnect = errRead = errWrite = errTimeout = errStatus = errProtocol = errBody = 0;
        tls.failed = 0;
        h2.reset();
        missed = 0;
        Arrays.fill(statusCounts, 0);
        if (pacedLateness != null) {
            pacedLateness.reset();
            freeLateness.reset();
            sentEarly = 0;
        }
        if (pacer.isPresent()) {
            pacer.get().resetCounts();
            pacer.get().checkEvery(timeoutCheckTask, checkNanos);
        }
    }

    /**
     * Records that a fixed-rate request went out {@code nanos} after its due time: sent by the pacer when it
     * fell due ({@code paced}), or as soon as its connection was free. Runs on the loop.
     */
    void sendLateness(long nanos, boolean paced) {
        if (nanos < 0) {
            sentEarly++;
            return;
        }
        // One histogram per send: the two make every request's lateness when the run ends (Pacing.of).
        (paced ? pacedLateness : freeLateness).recordValue(Math.min(nanos, HIGHEST_US * 1000));
    }

    /** Records the requests due before {@code endNanos} that were never sent (fixed rate). Runs on the loop. */
    void recordMissed(long endNanos) {
        for (int i = 0; i < connections.size(); i++) {
            missed += connections.get(i).recordMissed(endNanos);
        }
    }

    /**
     * Skips the requests that fell due before {@code startNanos}, the window's start, and were never
     * sent ({@link ClientConnection#skipUnsent}); counts them in {@link #warmupUnsent}. Runs on the loop,
     * right after {@link #reset}.
     */
    void skipUnsent(long startNanos) {
        for (int i = 0; i < connections.size(); i++) {
            warmupUnsent += connections.get(i).skipUnsent(startNanos);
        }
    }

    /**
     * Copies the counters into {@code t} and swaps this interval's histograms for the tally's empty
     * ones, at one instant, so that an interval's histogram count is exactly its answers plus its
     * missed requests. Allocates nothing. Runs on the loop.
     */
    void snapshotInto(Tally t) {
        t.requests = requests;
        t.good = good;
        t.missed = missed;
        t.bytesRead = bytesRead;
        t.bytesWritten = bytesWritten;
        t.errors(errConnect, errRead, errWrite, errTimeout, errStatus, errProtocol, tls.failed, errBody);
        t.copyStatus(statusCounts);
        Histogram empty = t.latency;
        t.latency = latency;
        latency = empty;
        if (service != null) {
            empty = t.service;
            t.service = service;
            service = empty;
        }
    }

    /** Stops recording and closes every connection. Runs on the loop. */
    void close() {
        closed = true;
        if (timeoutCheck != null) {
            timeoutCheck.cancel(false);
        }
        for (int i = 0; i < connections.size(); i++) {
            connections.get(i).close();
        }
    }
}
