package io.loadlab.load;

import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * One run's coordination, on the calling thread, in its phases: start the connections, warm up,
 * open the window, tick once a second (with the stall check of a request-count run), close the
 * window, read the CPU, and build the result. The event loops do all the I/O; this thread only
 * asks each loop for its counters, on the loop.
 */
final class RunPhases {

    private static final long SECOND = 1_000_000_000L;

    private final LoadSpec spec;
    private final Transport transport;
    private final RunControl control;
    private final MultiThreadIoEventLoopGroup group;
    private final Optional<Pacer.Factory> pacers;
    private final LoadListener listener;
    /** This engine's JIT compiler time so far, s ({@link WarmupEnd.CompilerTime#engineSeconds}). */
    private final Supplier<OptionalDouble> engineCompilers;
    final List<Worker> workers = new ArrayList<>();
    /** One per worker, owned by this thread: what each loop's snapshot is copied into. */
    private final List<Tally> tallies = new ArrayList<>();
    private final List<Long> threadIds = new ArrayList<>();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    /** Clock, CPU, GC and allocation readings at the start of the window. */
    private record Opened(long nanos, long epochMs, long loadCpu, long processCpu, Gc gc, long loopAllocated) {}

    /** The window's length and what the JVM spent in it: CPU seconds of the loops and of the process. */
    private record Closed(double seconds, double loadCpu, double processCpu, JvmUse jvm) {}

    /** The collectors' accumulated time (ms) and count. */
    private record Gc(long millis, long count) {}

    /** What the window's ticks gathered; {@code totals} and {@code codes} are the last snapshot's. */
    private record Ticks(List<IntervalSample> intervals, Totals totals, SortedMap<Integer, Long> codes,
                         boolean stoppedEarly) {}

    RunPhases(LoadSpec spec, Transport transport, RunControl control, MultiThreadIoEventLoopGroup group,
              Optional<Pacer.Factory> pacers, LoadListener listener, Supplier<OptionalDouble> engineCompilers) {
        this.spec = spec;
        this.transport = transport;
        this.control = control;
        this.group = group;
        this.pacers = pacers;
        this.listener = listener;
        this.engineCompilers = engineCompilers;
    }

    LoadResult execute() {
        Opened opened;
        Warmed warm;
        if (spec.warmup().isNone()) {
            // No warm-up: the window is the whole run, so its clock and CPU readings come before
            // the first connection, and the listener's work (reading /proc) is not inside it.
            listener.windowStarted();
            long cpu = processCpuNanos();
            Gc gc = gc();
            startWorkers();
            // The loops' threads start with the first connection: everything they allocate is the window's.
            opened = new Opened(control.startNanos, System.currentTimeMillis(), 0, cpu, gc, 0);
            warm = Warmed.none(spec.requestCount().isPresent());
        } else {
            startWorkers();
            warm = warmUp();
            opened = openWindow();
        }
        Ticks ticks = tick(opened);
        // The window ends at the last snapshot: read the clocks before anything else happens.
        Closed closed = close(opened);
        listener.windowEnded();
        for (Worker worker : workers) {
            NettyLoad.onLoop(worker.loop, () -> {
                worker.close();
                return null;
            });
        }
        return finish(ticks, closed, opened.epochMs(), warm);
    }

    /** The clocks, CPU, GC and allocation readings at the window's end, against those at its start. */
    private Closed close(Opened opened) {
        double window = (System.nanoTime() - opened.nanos()) / 1e9;
        double loadCpu = (loadCpuNanos() - opened.loadCpu()) / 1e9;
        double processCpu = (processCpuNanos() - opened.processCpu()) / 1e9;
        long allocated = loopAllocatedBytes();
        Gc gc = gc();
        JvmUse jvm = new JvmUse((gc.millis() - opened.gc().millis()) / 1e3, gc.count() - opened.gc().count(),
                allocated < 0 || opened.loopAllocated() < 0 ? -1 : allocated - opened.loopAllocated());
        return new Closed(window, loadCpu, processCpu, jvm);
    }

    /** Creates one worker per event loop and opens its connections. */
    private void startWorkers() {
        control.startNanos = System.nanoTime();
        int w = 0;
        for (EventExecutor e : group) {
            EventLoop loop = (EventLoop) e;
            Worker worker = new Worker(w, loop, control, transport, pacers.map(p -> p.of(loop)));
            workers.add(worker);
            tallies.add(new Tally(spec.isFixedRate()));
            List<Integer> mine = new ArrayList<>();
            for (int c = w; c < spec.connections(); c += spec.threads()) {
                mine.add(c);
            }
            threadIds.add(NettyLoad.onLoop(loop, () -> {
                worker.start(mine);
                return Thread.currentThread().getId();
            }));
            w++;
        }
    }

    /**
     * Runs the load in intervals of {@link SteadyState#INTERVAL_MS} until {@link WarmupEnd} says the
     * warm-up is over: its fixed length or maximum, steady with the compilers quiet, or no good answer.
     */
    private Warmed warmUp() {
        WarmupEnd end = new WarmupEnd(spec.warmup(), compilerTime(),
                spec.model() instanceof LoadModel.FixedRate f ? f.requestsPerSecond() : Double.NaN);
        long max = spec.warmup().max().toNanos();
        long step = SteadyState.INTERVAL_MS * 1_000_000L;
        long previousAnswers = 0;
        long previousGood = 0;
        long previousNanos = control.startNanos;
        while (true) {
            awaitUntil(Math.min(control.startNanos + max, previousNanos + step));
            long now = System.nanoTime();
            // The window's per-second snapshot, practised: its sample is thrown away, but the code that
            // makes it (the histograms' copy and reset, HdrHistogram's index arithmetic) is compiled
            // here. Run eight times a window, it was compiled at the window's first four ticks, C1 and
            // C2 on the load core at each (jit+compilation log, 20,000/s).
            snapshotAll();
            Totals totals = Totals.of(tallies);
            sampleOf(totals, Totals.ZERO, now / 1_000_000, now / 1_000_000);
            long answers = totals.requests();
            long good = 0;
            for (Tally t : tallies) {
                good += t.good;
            }
            boolean over = end.add(new SteadyState.Interval(answers - previousAnswers, (now - previousNanos) / 1e9),
                    good - previousGood, (now - control.startNanos) / 1e9, compilerTime());
            previousAnswers = answers;
            previousGood = good;
            previousNanos = now;
            if (over) {
                return end.result((previousNanos - control.startNanos) / 1e9);
            }
        }
    }

    private WarmupEnd.CompilerTime compilerTime() {
        return new WarmupEnd.CompilerTime(listener.serverCompilerSeconds(), engineCompilers.get());
    }

    /**
     * Ends the warm-up: the listener first, then the clocks, then every loop forgets the warm-up, its
     * counts and, at a fixed rate, the requests it left due and unsent (they are the warm-up's).
     */
    private Opened openWindow() {
        // The listener's work (reading /proc) comes first, so that the window's clock and CPU
        // readings sit right next to the reset that starts counting.
        listener.windowStarted();
        long loadCpu = loadCpuNanos();
        long processCpu = processCpuNanos();
        Gc gc = gc();
        // The clock is read last, right before the loops reset their counts: read first, it ran for
        // the readings above (about 20 ms, the first time), whose answers went uncounted, and a fixed
        // rate of 20,000/s read 19,800 over 3 s (19,970 to 19,980 since; 3 runs each).
        long nanos = System.nanoTime();
        long epochMs = System.currentTimeMillis();
        long allocated = 0;
        for (Worker worker : workers) {
            long mine = NettyLoad.onLoop(worker.loop, () -> {
                worker.reset();
                worker.skipUnsent(nanos);
                return currentThreadAllocatedBytes();
            });
            allocated = allocated < 0 || mine < 0 ? -1 : allocated + mine;
        }
        return new Opened(nanos, epochMs, loadCpu, processCpu, gc, allocated);
    }

    /**
     * Bytes this thread has allocated so far; -1 where this JVM cannot say. A loop reads it once it
     * has reset its counts and skipped the warm-up's backlog, so that the window's allocation leaves
     * out that one-off work (the first skip loads a class): the window counted about 5 KB of it at a
     * fixed rate, and 13 KB in the pipelined loop, when the caller read the loops' counters before.
     */
    private long currentThreadAllocatedBytes() {
        return threads instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemoryEnabled()
                ? t.getCurrentThreadAllocatedBytes() : -1;
    }

    /** One snapshot a second until the window ends, every request of a count has ended, or it stalls. */
    private Ticks tick(Opened opened) {
        long windowStart = opened.nanos();
        long end = spec.duration().map(d -> windowStart + d.toNanos()).orElse(Long.MAX_VALUE);
        List<IntervalSample> intervals = new ArrayList<>();
        Totals previous = Totals.ZERO;
        long tickStart = windowStart;
        long lastProgress = windowStart;
        long lastFinished = 0;
        long stallLimit = spec.requestTimeout().toNanos() + spec.connectTimeout().toNanos();
        boolean stoppedEarly = false;
        while (true) {
            long tickEnd = Math.min(tickStart + SECOND, end);
            boolean allDone = awaitUntil(tickEnd);
            long now = System.nanoTime();
            boolean last = allDone || now >= end;
            if (spec.requestCount().isPresent() && !last) {
                long f = control.finishedCount();
                if (f != lastFinished) {
                    lastFinished = f;
                    lastProgress = now;
                } else if (now - lastProgress > stallLimit) {
                    stoppedEarly = true;
                    last = true;
                }
            }
            if (last) {
                boolean fixedWindow = spec.isFixedRate() && spec.duration().isPresent();
                if (fixedWindow) {
                    sendHeld(Math.min(now, end));
                }
                control.sending = false;
                if (fixedWindow) {
                    recordMissed(Math.min(now, end));
                }
            }
            snapshotAll();
            Totals totals = Totals.of(tallies);
            SortedMap<Integer, Long> codes = last ? statusCodes() : null;
            IntervalSample sample = sampleOf(totals, previous, opened.epochMs() + (tickStart - windowStart) / 1_000_000,
                    opened.epochMs() + (now - windowStart) / 1_000_000);
            intervals.add(sample);
            listener.interval(sample);
            previous = totals;
            tickStart = tickEnd;
            if (last) {
                return new Ticks(intervals, totals, codes, stoppedEarly);
            }
        }
    }

    /**
     * Sends, on each loop, the requests due before the window's end that its pacer still holds (within
     * the wake-up slack): late, but sent, so that the slack never makes a request a missed one.
     */
    private void sendHeld(long endNanos) {
        for (Worker worker : workers) {
            // The lambda is made here, not on the loop: a lambda's first use spins its class, some
            // 30 KB that the loop would otherwise allocate inside the window (AllocationTest).
            worker.pacer.ifPresent(p -> NettyLoad.onLoop(worker.loop, () -> {
                p.sendDueBefore(endNanos);
                return null;
            }));
        }
    }

    private void recordMissed(long endNanos) {
        for (Worker worker : workers) {
            NettyLoad.onLoop(worker.loop, () -> {
                worker.recordMissed(endNanos);
                return null;
            });
        }
    }

    /** The answers by status code at the last snapshot, over every loop. */
    private SortedMap<Integer, Long> statusCodes() {
        TreeMap<Integer, Long> codes = new TreeMap<>();
        for (Tally t : tallies) {
            for (int code = 0; code < t.statusCounts.length; code++) {
                if (t.statusCounts[code] > 0) {
                    codes.merge(code, t.statusCounts[code], Long::sum);
                }
            }
        }
        return codes;
    }

    /** The result; its counts are the last snapshot's, so they equal the sum of the intervals. */
    private LoadResult finish(Ticks ticks, Closed closed, long windowStartMs, Warmed warm) {
        Histogram latency = Totals.newHistogram();
        Histogram service = Totals.newHistogram();
        for (IntervalSample s : ticks.intervals()) {
            latency.add(s.latency());
            s.serviceTime().ifPresent(service::add);
        }
        Histogram connect = Totals.newHistogram();
        for (Worker worker : workers) {
            NettyLoad.onLoop(worker.loop, () -> {
                connect.add(worker.connectTime);
                return null;
            });
        }
        Totals t = ticks.totals();
        int loadCpus = Math.min(spec.threads(), Runtime.getRuntime().availableProcessors());
        return new LoadResult(spec, transport.label(), Instant.ofEpochMilli(windowStartMs), closed.seconds(),
                t.requests(), t.bytesRead(), t.bytesWritten(), ticks.codes(), t.errors(), latency,
                spec.isFixedRate() ? Optional.of(service) : Optional.empty(), connect,
                ticks.intervals(), closed.loadCpu(), closed.processCpu(), loadCpus, ticks.stoppedEarly(),
                warm, t.missed(), closed.jvm(), spec.protocol(), ProtocolTotals.tls(control, workers),
                ProtocolTotals.h2(spec, workers), spec.model() instanceof LoadModel.FixedRate f
                        ? Optional.of(Pacing.of(f.paceSlack().toNanos(), workers)) : Optional.empty(),
                listener.stealSeconds());
    }

    /**
     * The interval from {@code previous} to {@code totals} (the tallies of the last {@link #snapshotAll}),
     * with the tallies' histograms merged; then empties them for the next snapshot. Times in ms.
     */
    private IntervalSample sampleOf(Totals totals, Totals previous, long startMs, long endMs) {
        IntervalSample sample = totals.minus(previous).toSample(startMs, endMs, tallies);
        tallies.forEach(Tally::recycle);
        return sample;
    }

    /** Takes each loop's snapshot into its tally, on the loop. */
    private void snapshotAll() {
        for (int i = 0; i < workers.size(); i++) {
            Worker worker = workers.get(i);
            Tally tally = tallies.get(i);
            NettyLoad.onLoop(worker.loop, () -> {
                worker.snapshotInto(tally);
                return null;
            });
        }
    }

    /** Waits until the deadline or until a request-count run has finished; true if finished. */
    private boolean awaitUntil(long deadlineNanos) {
        try {
            long wait = deadlineNanos - System.nanoTime();
            return control.allFinished.await(Math.max(0, wait), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw LoadException.failed("the load run was interrupted", e);
        }
    }

    private long loadCpuNanos() {
        long sum = 0;
        for (long id : threadIds) {
            long t = threads.getThreadCpuTime(id);
            sum += Math.max(0, t);
        }
        return sum;
    }

    /** Bytes the event-loop threads have allocated so far; -1 where this JVM cannot say. */
    private long loopAllocatedBytes() {
        if (!(threads instanceof com.sun.management.ThreadMXBean t) || !t.isThreadAllocatedMemoryEnabled()) {
            return -1;
        }
        long sum = 0;
        for (long id : threadIds) {
            sum += Math.max(0, t.getThreadAllocatedBytes(id));
        }
        return sum;
    }

    private static Gc gc() {
        long millis = 0;
        long count = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            millis += Math.max(0, b.getCollectionTime());
            count += Math.max(0, b.getCollectionCount());
        }
        return new Gc(millis, count);
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }
}
