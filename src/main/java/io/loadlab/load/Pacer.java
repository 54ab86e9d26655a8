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
 * wait for I/O ends at the earliest due time of its connections as well as at Netty's own
 * deadlines, and after each wait the requests that have fallen due are sent. The due times wait
 * in a binary heap of plain arrays, so scheduling allocates nothing once the heap has grown to
 * the loop's connection count.
 *
 * <p>Everything but the factory's map runs on the loop's thread.
 */
final class Pacer implements IoHandler {

    /** Makes a paced handler per loop and remembers which loop has which. */
    static final class Factory implements IoHandlerFactory {
        private final IoHandlerFactory delegate;
        private final Map<ThreadAwareExecutor, Pacer> byLoop = new ConcurrentHashMap<>();

        Factory(IoHandlerFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public IoHandler newHandler(ThreadAwareExecutor loop) {
            Pacer p = new Pacer(delegate.newHandler(loop));
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
    /** Netty's deadlines are on its ticker's clock: {@code System.nanoTime()} minus this. */
    private final long tickerOrigin = Ticker.systemTicker().initialNanoTime();
    private IoHandlerContext outer;
    private Connection[] waiting = new Connection[16];
    private long[] due = new long[16];
    private int size;

    private final IoHandlerContext paced = new IoHandlerContext() {
        @Override
        public boolean canBlock() {
            return outer.canBlock() && (size == 0 || due[0] - System.nanoTime() > 0);
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            long netty = outer.delayNanos(currentTimeNanos);
            // Never 0 or less: a zero timeout disarms epoll's timer instead of firing it.
            return size == 0 ? netty : Math.max(1, Math.min(netty, due[0] - currentTimeNanos));
        }

        @Override
        public long deadlineNanos() {
            long netty = outer.deadlineNanos();
            if (size == 0) {
                return netty;
            }
            long mine = due[0] - tickerOrigin;
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

    private Pacer(IoHandler delegate) {
        this.delegate = delegate;
    }

    /** Sends {@code c}'s next request at {@code dueNanos} ({@link System#nanoTime()} base), or soon after. */
    void schedule(Connection c, long dueNanos) {
        if (size == waiting.length) {
            waiting = Arrays.copyOf(waiting, size * 2);
            due = Arrays.copyOf(due, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (due[parent] - dueNanos <= 0) {
                break;
            }
            waiting[i] = waiting[parent];
            due[i] = due[parent];
            i = parent;
        }
        waiting[i] = c;
        due[i] = dueNanos;
    }

    @Override
    public int run(IoHandlerContext context) {
        outer = context;
        int handled = delegate.run(paced);
        long now = System.nanoTime();
        while (size > 0 && due[0] - now <= 0) {
            removeFirst().sendDueRequest();
        }
        return handled;
    }

    private Connection removeFirst() {
        Connection first = waiting[0];
        size--;
        Connection last = waiting[size];
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
            waiting[i] = waiting[child];
            due[i] = due[child];
            i = child;
        }
        if (size > 0) {
            waiting[i] = last;
            due[i] = lastDue;
        }
        return first;
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
