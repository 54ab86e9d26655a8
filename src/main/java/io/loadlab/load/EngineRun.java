package io.loadlab.load;

import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * One run's coordination, on the calling thread, in its phases: start the connections, warm up,
 * open the window, tick once a second (with the stall check of a request-count run), close the
 * window, read the CPU, and build the result. The event loops do all the I/O; this thread only
 * asks each loop for its counters, on the loop.
 */
final class EngineRun {

    private static final long SECOND = 1_000_000_000L;

    private final LoadSpec spec;
    private final Transport transport;
    private final RunControl control;
    private final MultiThreadIoEventLoopGroup group;
    private final LoadListener listener;
    final List<Worker> workers = new ArrayList<>();
    private final List<Long> threadIds = new ArrayList<>();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    /** Clock and CPU readings at the start of the window. */
    private record Opened(long nanos, long epochMs, long loadCpu, long processCpu) {}

    /** What the window's ticks gathered; {@code totals} are the last snapshot's. */
    private record Ticks(List<IntervalSample> intervals, Totals totals, List<Worker.Snapshot> last,
                         boolean stoppedEarly) {}

    EngineRun(LoadSpec spec, Transport transport, RunControl control, MultiThreadIoEventLoopGroup group,
              LoadListener listener) {
        this.spec = spec;
        this.transport = transport;
        this.control = control;
        this.group = group;
        this.listener = listener;
    }

    LoadResult execute() {
        Opened opened;
        Warmed warm;
        if (spec.warmup().isNone()) {
            // No warm-up: the window is the whole run, so its clock and CPU readings come before
            // the first connection, and the listener's work (reading /proc) is not inside it.
            listener.windowStarted();
            long cpu = processCpuNanos();
            startWorkers();
            opened = new Opened(control.startNanos, System.currentTimeMillis(), 0, cpu);
            warm = Warmed.none(spec.requestCount().isPresent());
        } else {
            startWorkers();
            warm = warmUp();
            opened = openWindow();
        }
        Ticks ticks = tick(opened);
        // The window ends at the last snapshot: read the clocks before anything else happens.
        double window = (System.nanoTime() - opened.nanos()) / 1e9;
        double loadCpu = (loadCpuNanos() - opened.loadCpu()) / 1e9;
        double processCpu = (processCpuNanos() - opened.processCpu()) / 1e9;
        listener.windowEnded();
        for (Worker worker : workers) {
            LoadEngine.onLoop(worker.loop, () -> {
                worker.close();
                return null;
            });
        }
        return finish(ticks, window, loadCpu, processCpu, opened.epochMs(), warm);
    }

    /** Creates one worker per event loop and opens its connections. */
    private void startWorkers() {
        control.startNanos = System.nanoTime();
        int w = 0;
        for (EventExecutor e : group) {
            EventLoop loop = (EventLoop) e;
            Worker worker = new Worker(w, loop, control, transport);
            workers.add(worker);
            List<Integer> mine = new ArrayList<>();
            for (int c = w; c < spec.connections(); c += spec.threads()) {
                mine.add(c);
            }
            threadIds.add(LoadEngine.onLoop(loop, () -> {
                worker.start(mine);
                return Thread.currentThread().getId();
            }));
            w++;
        }
    }

    /**
     * Runs the load in intervals of {@link SteadyState#INTERVAL_MS} until the warm-up is over: its
     * fixed length, or (steady-state warm-up) once past its minimum the last intervals meet the rule,
     * or its maximum.
     */
    private Warmed warmUp() {
        Warmup w = spec.warmup();
        long min = w instanceof Warmup.Steady s ? s.min().toNanos() : w.max().toNanos();
        long max = w.max().toNanos();
        boolean untilSteady = w instanceof Warmup.Steady;
        List<SteadyState.Interval> samples = new ArrayList<>();
        long step = SteadyState.INTERVAL_MS * 1_000_000L;
        long previousAnswers = 0;
        long previousNanos = control.startNanos;
        boolean steady = false;
        while (true) {
            long next = Math.min(control.startNanos + max, previousNanos + step);
            awaitUntil(next);
            long now = System.nanoTime();
            long answers = answers();
            samples.add(new SteadyState.Interval(answers - previousAnswers, (now - previousNanos) / 1e9));
            previousAnswers = answers;
            previousNanos = now;
            long elapsed = now - control.startNanos;
            steady = SteadyState.check(samples).steady();
            if (elapsed >= max - step / 100 || (untilSteady && elapsed >= min && steady)) {
                break;
            }
        }
        return new Warmed((previousNanos - control.startNanos) / 1e9, Optional.of(steady),
                samples.stream().map(SteadyState.Interval::rate).toList());
    }

    /** Answers so far over all loops, each read on its loop. */
    private long answers() {
        long sum = 0;
        for (Worker worker : workers) {
            sum += LoadEngine.onLoop(worker.loop, worker::answers);
        }
        return sum;
    }

    /** Ends the warm-up: the listener first, then the clocks, then every loop forgets the warm-up. */
    private Opened openWindow() {
        // The listener's work (reading /proc) comes first, so that the window's clock and CPU
        // readings sit right next to the reset that starts counting.
        listener.windowStarted();
        Opened opened = new Opened(System.nanoTime(), System.currentTimeMillis(), loadCpuNanos(), processCpuNanos());
        for (Worker worker : workers) {
            LoadEngine.onLoop(worker.loop, () -> {
                worker.reset();
                return null;
            });
        }
        return opened;
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
                control.sending = false;
                if (spec.isFixedRate() && spec.duration().isPresent()) {
                    recordMissed(Math.min(now, end));
                }
            }
            List<Worker.Snapshot> snaps = snapshotAll();
            Totals totals = Totals.of(snaps);
            IntervalSample sample = totals.minus(previous).toSample(
                    opened.epochMs() + (tickStart - windowStart) / 1_000_000,
                    opened.epochMs() + (now - windowStart) / 1_000_000, snaps);
            intervals.add(sample);
            listener.interval(sample);
            previous = totals;
            tickStart = tickEnd;
            if (last) {
                return new Ticks(intervals, totals, snaps, stoppedEarly);
            }
        }
    }

    private void recordMissed(long endNanos) {
        for (Worker worker : workers) {
            LoadEngine.onLoop(worker.loop, () -> {
                worker.recordMissed(endNanos);
                return null;
            });
        }
    }

    /** The result; its counts are the last snapshot's, so they equal the sum of the intervals. */
    private LoadResult finish(Ticks ticks, double window, double loadCpu, double processCpu, long windowStartMs,
                              Warmed warm) {
        Histogram latency = Totals.newHistogram();
        Histogram service = Totals.newHistogram();
        for (IntervalSample s : ticks.intervals()) {
            latency.add(s.latency());
            s.serviceTime().ifPresent(service::add);
        }
        TreeMap<Integer, Long> codes = new TreeMap<>();
        Histogram connect = Totals.newHistogram();
        for (Worker.Snapshot s : ticks.last()) {
            for (int code = 0; code < s.statusCounts().length; code++) {
                if (s.statusCounts()[code] > 0) {
                    codes.merge(code, s.statusCounts()[code], Long::sum);
                }
            }
        }
        for (Worker worker : workers) {
            LoadEngine.onLoop(worker.loop, () -> {
                connect.add(worker.connectTime);
                return null;
            });
        }
        Totals t = ticks.totals();
        int loadCpus = Math.min(spec.threads(), Runtime.getRuntime().availableProcessors());
        return new LoadResult(spec, transport.label(), Instant.ofEpochMilli(windowStartMs), window,
                t.requests(), t.bytesRead(), t.bytesWritten(), codes, t.errors(), latency,
                spec.isFixedRate() ? Optional.of(service) : Optional.empty(), connect,
                ticks.intervals(), loadCpu, processCpu, loadCpus, ticks.stoppedEarly(),
                warm, t.missed(), spec.protocol(), ProtocolTotals.tls(control, workers),
                ProtocolTotals.h2(spec, workers));
    }

    /** Takes each loop's snapshot, on the loop. */
    private List<Worker.Snapshot> snapshotAll() {
        List<Worker.Snapshot> out = new ArrayList<>();
        for (Worker worker : workers) {
            out.add(LoadEngine.onLoop(worker.loop, worker::snapshot));
        }
        return out;
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

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }
}
