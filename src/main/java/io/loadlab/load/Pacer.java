package io.loadlab.load;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.ThreadAwareExecutor;
import io.netty.util.concurrent.Ticker;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sends the requests of a fixed rate when they fall due, without a Netty timer per request (each
 * {@code schedule} call makes a task object). It wraps the event loop's I/O handler: the loop's
 * wait for I/O ends at the pacer's next wake-up time as well as at Netty's own deadlines, and
 * after each wait (for I/O or for time) every request that has fallen due is sent (with a slack, once
 * its grid point has come: below). The due times
 * wait in a binary heap of plain arrays, so scheduling allocates nothing once the heap has grown to
 * the loop's slot count.
 *
 * <p><b>Wake-up slack.</b> With a slack {@code S > 0} the requests go out on a grid: the loop does not
 * wake at each due time but at the earliest due time rounded up to the next multiple of {@code S} (on
 * the {@link System#nanoTime()} clock), and the pacer sends nothing before that grid point, even when
 * the loop is awake for I/O in between. So every request due in the same interval of length {@code S}
 * goes out together, at its end: one wake-up and one timer setting for all of them, at most {@code 1/S}
 * wake-ups a second for the schedule, and, as their answers come back together too, fewer wake-ups
 * for I/O. Sending what was due at every pass instead spread the sends over the loop's I/O wake-ups,
 * and the answers with them: at 20,000/s a 1 ms slack saved 11% of the loop's CPU that way, and 59%
 * on a grid (docs/benchmarks.md, "Pace slack"). A request is never sent before its due time and the pacer holds
 * it at most {@code S} (less 1 ns) past it; the operating system's own wake-up latency comes on top,
 * as without a slack. Latency is measured from the due time, so the slack can only raise it, by at
 * most {@code S}. {@code S = 0} sends each request at its due time, to the nanosecond, or at the
 * first pass of the loop after it.
 *
 * <p><b>Timeouts.</b> At a fixed rate the worker's periodic timeout check runs from the pacer's pass
 * ({@link #checkEvery}), and the loop's wake-up time is the earlier of the next due time and the next
 * check, so the loop has no Netty timer at all. With the check on Netty's scheduler (every 100 ms), the
 * loop found a scheduled task already due when it asked whether it could wait for I/O only when a
 * deadline passed in the few microseconds between running its due tasks and that question: so rarely
 * that the warm-up never saw it, C2 compiled Netty's {@code EpollIoHandler.run} without that branch,
 * and the first time it came, inside the window, the compiled loop was thrown away (an
 * {@code unstable_if} trap in {@code hasScheduledTasks}) and compiled again on the load core: 100 ms of
 * C2 while the loop ran in the interpreter and C1. Without a timer that trap cannot come; others like it still do
 * (docs/benchmarks.md, "A deoptimization in the window").
 *
 * <p>Everything but the factory's map runs on the loop's thread.
 */
final class Pacer implements IoHandler {

    /** What waits in the pacer: an HTTP/1.1 connection, or one stream slot of an HTTP/2 connection. */
    interface Paced {
        /**
         * Sends the request of {@code slot} (0 for HTTP/1.1) that is due now. A handler that leaves the
         * write unflushed calls {@link Pacer#flushLater} once, and gets {@link #flushPaced} at the end
         * of the pacer's pass.
         */
        void sendDue(int slot);

        /** Flushes what {@link #sendDue} wrote in this pass: once per handler and pass. */
        default void flushPaced() {
        }
    }

    /** Makes a paced handler per loop and remembers which loop has which. */
    static final class Factory implements IoHandlerFactory {
        private final IoHandlerFactory delegate;
        private final long slackNanos;
        private final Map<ThreadAwareExecutor, Pacer> byLoop = new ConcurrentHashMap<>();

        /** @param slackNanos the wake-up slack, ns, 0 or more */
        Factory(IoHandlerFactory delegate, long slackNanos) {
            if (slackNanos < 0) {
                throw new IllegalArgumentException("pace slack must be 0 or more, got " + slackNanos + " ns");
            }
            this.delegate = delegate;
            this.slackNanos = slackNanos;
        }

        @Override
        public IoHandler newHandler(ThreadAwareExecutor loop) {
            Pacer p = new Pacer(delegate.newHandler(loop), slackNanos);
            byLoop.put(loop, p);
            return p;
        }

        /** The pacer of a loop this factory made a handler for. */
        Pacer of(ThreadAwareExecutor loop) {
            Pacer p = byLoop.get(loop);
            if (p == null) {
                throw new IllegalStateException("no pacer for event loop " + loop);
            }
            return p;
        }
    }

    private final IoHandler delegate;
    private final long slack;
    /** Netty's deadlines are on its ticker's clock: {@code System.nanoTime()} minus this. */
    private final long tickerOrigin = Ticker.systemTicker().initialNanoTime();
    private IoHandlerContext outer;
    private Paced[] waiting = new Paced[16];
    private int[] slot = new int[16];
    private long[] due = new long[16];
    private int size;
    /**
     * The handlers that wrote in this pass and flush at its end: one write (and over TLS one record) for
     * the requests an HTTP/2 connection's streams have due at one grid point, not one each.
     */
    private Paced[] unflushed = new Paced[16];
    private int unflushedCount;
    /** The wake-up time last asked of the loop (nanoTime base). */
    private long lastWake;
    /** Distinct wake-up times asked of the loop for due requests since {@link #resetCounts}. */
    private long wakeTimes;
    /** Passes of the loop (each after a wait for I/O or time, or none) since {@link #resetCounts}. */
    private long passes;
    /** The worker's timeout check ({@link #checkEvery}); none until one is given. */
    private Runnable check = () -> { };
    /** The check's period, ns: a quarter of the clock's range (never) until one is given. */
    private long checkPeriod = Long.MAX_VALUE / 4;
    /** When the check is next due (nanoTime base). */
    private long nextCheck = System.nanoTime() + checkPeriod;

    private final IoHandlerContext paced = new IoHandlerContext() {
        @Override
        public boolean canBlock() {
            return outer.canBlock() && nextWake() - System.nanoTime() > 0;
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            long netty = outer.delayNanos(currentTimeNanos);
            long mine = nextWake() - currentTimeNanos;
            // Never 0 or less: a zero timeout disarms epoll's timer instead of firing it.
            return Math.max(1, Math.min(netty, mine));
        }

        @Override
        public long deadlineNanos() {
            long netty = outer.deadlineNanos();
            long mine = nextWake() - tickerOrigin;
            return netty == -1 ? mine : Math.min(netty, mine);
        }

        @Override
        public void reportActiveIoTime(long activeNanos) {
            outer.reportActiveIoTime(activeNanos);
        }

        @Override
        public boolean shouldReportActiveIoTime() {
            return outer.shouldReportActiveIoTime();
        }
    };

    private Pacer(IoHandler delegate, long slackNanos) {
        this.delegate = delegate;
        this.slack = slackNanos;
    }

    /**
     * The time the loop should wake at: for the earliest due time ({@link #wakeAt}) or for the timeout
     * check. Only the former counts in {@link #wakeTimes}: the check's, at most 10 a second, would count
     * again each time the pacer empties and fills.
     */
    private long nextWake() {
        return size == 0 ? nextCheck : Math.min(asked(wakeAt()), nextCheck);
    }

    /** The time the loop should wake at for the earliest due time: that time rounded up to the slack's grid. */
    private long wakeAt() {
        long d = due[0];
        return slack == 0 ? d : d + Math.floorMod(-d, slack);
    }

    /** Counts a wake-up time asked of the loop, once however often the loop asks. */
    private long asked(long wake) {
        if (wake != lastWake) {
            lastWake = wake;
            wakeTimes++;
        }
        return wake;
    }

    /**
     * Sends slot {@code s} of {@code p} at {@code dueNanos} ({@link System#nanoTime()} base), or at most
     * the slack after it (plus the loop's own lateness).
     */
    void schedule(Paced p, int s, long dueNanos) {
        if (size == waiting.length) {
            waiting = Arrays.copyOf(waiting, size * 2);
            slot = Arrays.copyOf(slot, size * 2);
            due = Arrays.copyOf(due, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (due[parent] - dueNanos <= 0) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        waiting[i] = p;
        slot[i] = s;
        due[i] = dueNanos;
    }

    @Override
    public int run(IoHandlerContext context) {
        outer = context;
        passes++;
        int handled = delegate.run(paced);
        afterPass(System.nanoTime());
        return handled;
    }

    /**
     * After a pass of the loop at {@code nowNanos} ({@link System#nanoTime()} base): sends every request
     * due by then; with a slack, only once the earliest one's grid point has come.
     */
    void afterPass(long nowNanos) {
        if (nowNanos - nextCheck >= 0) {
            nextCheck = nowNanos + checkPeriod;
            check.run();
        }
        if (size > 0 && (slack == 0 || nowNanos - wakeAt() >= 0)) {
            sendDueBefore(nowNanos + 1);
        }
    }

    /**
     * Sends every waiting request due before {@code endNanos}: after each pass, those due by now; at the
     * window's end, those the slack still holds, so that the pacer never turns a request into a missed one.
     */
    void sendDueBefore(long endNanos) {
        while (size > 0 && due[0] - endNanos < 0) {
            Paced first = waiting[0];
            int s = slot[0];
            removeFirst();
            first.sendDue(s);
        }
        for (int i = 0; i < unflushedCount; i++) {
            Paced p = unflushed[i];
            unflushed[i] = null;
            p.flushPaced();
        }
        unflushedCount = 0;
    }

    /** {@code p} wrote in this pass without flushing: it flushes at the pass's end ({@link Paced#flushPaced}). */
    void flushLater(Paced p) {
        if (unflushedCount == unflushed.length) {
            unflushed = Arrays.copyOf(unflushed, unflushedCount * 2);
        }
        unflushed[unflushedCount++] = p;
    }

    /**
     * Runs {@code timeoutCheck} at the first pass at least {@code periodNanos} after its last run (the
     * first: that long from now); the loop wakes for it as for a due request. Called again, it starts
     * over with the new period: the worker's warm-up checks more often than its window. On the loop.
     */
    void checkEvery(Runnable timeoutCheck, long periodNanos) {
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("timeout check period must be above 0, got " + periodNanos + " ns");
        }
        check = timeoutCheck;
        checkPeriod = periodNanos;
        nextCheck = System.nanoTime() + periodNanos;
    }

    /** The wake-up slack, ns. */
    long slackNanos() {
        return slack;
    }

    /** Distinct wake-up times the pacer asked of the loop since the last {@link #resetCounts}. */
    long wakeTimes() {
        return wakeTimes;
    }

    /** Passes of the loop since the last {@link #resetCounts}: its wake-ups for I/O and for time together. */
    long passes() {
        return passes;
    }

    /** Starts counting {@link #wakeTimes} and {@link #passes} again: the window's start. */
    void resetCounts() {
        wakeTimes = 0;
        passes = 0;
    }

    private void removeFirst() {
        size--;
        Paced last = waiting[size];
        int lastSlot = slot[size];
        long lastDue = due[size];
        waiting[size] = null;
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && due[child + 1] - due[child] < 0) {
                child++;
            }
            if (lastDue - due[child] <= 0) {
                break;
            }
            move(child, i);
            i = child;
        }
        if (size > 0) {
            waiting[i] = last;
            slot[i] = lastSlot;
            due[i] = lastDue;
        }
    }

    private void move(int from, int to) {
        waiting[to] = waiting[from];
        slot[to] = slot[from];
        due[to] = due[from];
    }

    @Override
    public void initialize() {
        delegate.initialize();
    }

    @Override
    public void prepareToDestroy() {
        delegate.prepareToDestroy();
    }

    @Override
    public void destroy() {
        delegate.destroy();
    }

    @Override
    public IoRegistration register(IoHandle handle) throws Exception {
        return delegate.register(handle);
    }

    @Override
    public void wakeup() {
        delegate.wakeup();
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return delegate.isCompatible(handleType);
    }
}
