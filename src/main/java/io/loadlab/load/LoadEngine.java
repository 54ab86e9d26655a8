package io.loadlab.load;

import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Runs a {@link LoadSpec} and returns its {@link LoadResult}.
 *
 * <p>The calling thread coordinates: it starts the event loops, ends the warm-up, collects one
 * {@link IntervalSample} per second from every loop (each loop takes its own snapshot, so
 * counters and histograms of an interval agree exactly) and stops the run. Event-loop threads
 * exist only during {@link #run}; none is left behind.
 */
public final class LoadEngine {

    private static final long SECOND = 1_000_000_000L;

    private LoadEngine() {
    }

    /** Runs the spec without progress callbacks. See {@link #run(LoadSpec, LoadListener)}. */
    public static LoadResult run(LoadSpec spec) {
        return run(spec, LoadListener.NONE);
    }

    /**
     * Runs the spec, blocking until the measured window ends (or every request of a
     * request-count run has ended).
     *
     * @param listener told, on the calling thread, when the window starts, of each second's
     *                 sample as it completes, and when the window ends
     * @throws LoadException when the host does not resolve or the server refuses connections
     *                       before the run starts; per-request errors are counted instead
     */
    public static LoadResult run(LoadSpec spec, LoadListener listener) {
        Transport transport = spec.transport().resolve();
        InetSocketAddress address = preflight(spec);
        listener.started();
        RunControl control = new RunControl(spec, address);
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(spec.threads(),
                new DefaultThreadFactory("loadlab-load", true), transport.ioHandlerFactory());
        Run run = new Run(spec, transport, control, group, listener);
        try {
            return run.execute();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            // Only now can no write still hold the encoded requests.
            run.workers.forEach(w -> w.encoder.release());
        }
    }

    /** Resolves the host and opens one connection, so that a wrong URL fails before the run. */
    private static InetSocketAddress preflight(LoadSpec spec) {
        Target t = spec.request().target();
        InetAddress ip;
        try {
            ip = InetAddress.getByName(t.host());
        } catch (UnknownHostException e) {
            throw LoadException.usage("cannot resolve host '" + t.host() + "': check the URL");
        }
        InetSocketAddress address = new InetSocketAddress(ip, t.port());
        try (Socket s = new Socket()) {
            s.connect(address, (int) Math.min(Integer.MAX_VALUE, spec.connectTimeout().toMillis()));
        } catch (ConnectException e) {
            throw LoadException.failed("connection refused by " + t.hostHeader()
                    + ": is the server running on that port?", e);
        } catch (SocketTimeoutException e) {
            throw LoadException.failed("no answer from " + t.hostHeader() + " within "
                    + spec.connectTimeout().toMillis() + "ms: check the host and port", e);
        } catch (IOException e) {
            throw LoadException.failed("cannot connect to " + t.hostHeader() + ": " + e.getMessage(), e);
        }
        return address;
    }

    /** One run's coordination, on the calling thread. */
    private static final class Run {
        private final LoadSpec spec;
        private final Transport transport;
        private final RunControl control;
        private final MultiThreadIoEventLoopGroup group;
        private final LoadListener listener;
        private final List<Worker> workers = new ArrayList<>();
        private final List<Long> threadIds = new ArrayList<>();
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

        Run(LoadSpec spec, Transport transport, RunControl control, MultiThreadIoEventLoopGroup group,
            LoadListener listener) {
            this.spec = spec;
            this.transport = transport;
            this.control = control;
            this.group = group;
            this.listener = listener;
        }

        LoadResult execute() {
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
                threadIds.add(onLoop(loop, () -> {
                    worker.start(mine);
                    return Thread.currentThread().getId();
                }));
                w++;
            }

            long warmupEnd = control.startNanos + spec.warmup().toNanos();
            if (spec.warmup().toNanos() > 0) {
                awaitUntil(warmupEnd);
            }
            // The listener's work (reading /proc) comes first, so that the window's clock and CPU
            // readings sit right next to the reset that starts counting.
            listener.windowStarted();
            long windowStart = System.nanoTime();
            long windowStartMs = System.currentTimeMillis();
            long cpuStart = loadCpuNanos();
            long processCpuStart = processCpuNanos();
            if (spec.warmup().toNanos() > 0) {
                for (Worker worker : workers) {
                    onLoop(worker.loop, () -> {
                        worker.reset();
                        return null;
                    });
                }
            }
            long end = spec.duration().map(d -> windowStart + d.toNanos()).orElse(Long.MAX_VALUE);

            List<IntervalSample> intervals = new ArrayList<>();
            Totals previous = Totals.ZERO;
            long tickStart = windowStart;
            long lastProgress = windowStart;
            long lastFinished = 0;
            long stallLimit = spec.requestTimeout().toNanos() + spec.connectTimeout().toNanos();
            boolean stoppedEarly = false;
            List<Worker.Snapshot> snaps;
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
                }
                snaps = snapshotAll();
                Totals totals = Totals.of(snaps);
                IntervalSample sample = totals.minus(previous).toSample(
                        windowStartMs + (tickStart - windowStart) / 1_000_000,
                        windowStartMs + (now - windowStart) / 1_000_000, snaps);
                intervals.add(sample);
                listener.interval(sample);
                previous = totals;
                tickStart = tickEnd;
                if (last) {
                    break;
                }
            }
            // The window ends at the last snapshot: read the clocks before anything else happens.
            double window = (System.nanoTime() - windowStart) / 1e9;
            double loadCpu = (loadCpuNanos() - cpuStart) / 1e9;
            double processCpu = (processCpuNanos() - processCpuStart) / 1e9;
            listener.windowEnded();
            for (Worker worker : workers) {
                onLoop(worker.loop, () -> {
                    worker.close();
                    return null;
                });
            }
            return finish(intervals, previous, snaps, window, loadCpu, processCpu, windowStartMs, stoppedEarly);
        }

        /** The result; its counts are the last snapshot's, so they equal the sum of the intervals. */
        private LoadResult finish(List<IntervalSample> intervals, Totals totals, List<Worker.Snapshot> last,
                                  double window, double loadCpu,
                                  double processCpu, long windowStartMs, boolean stoppedEarly) {
            Histogram latency = newHistogram();
            Histogram service = newHistogram();
            for (IntervalSample s : intervals) {
                latency.add(s.latency());
                s.serviceTime().ifPresent(service::add);
            }
            TreeMap<Integer, Long> codes = new TreeMap<>();
            Histogram connect = newHistogram();
            for (Worker.Snapshot s : last) {
                for (int code = 0; code < s.statusCounts().length; code++) {
                    if (s.statusCounts()[code] > 0) {
                        codes.merge(code, s.statusCounts()[code], Long::sum);
                    }
                }
            }
            for (Worker worker : workers) {
                onLoop(worker.loop, () -> {
                    connect.add(worker.connectTime);
                    return null;
                });
            }
            int loadCpus = Math.min(spec.threads(), Runtime.getRuntime().availableProcessors());
            return new LoadResult(spec, transport.label(), Instant.ofEpochMilli(windowStartMs), window,
                    totals.requests(), totals.bytesRead(), totals.bytesWritten(), codes, totals.errors(), latency,
                    spec.isFixedRate() ? Optional.of(service) : Optional.empty(), connect,
                    intervals, loadCpu, processCpu, loadCpus, stoppedEarly);
        }

        /** Takes each loop's snapshot, on the loop. */
        private List<Worker.Snapshot> snapshotAll() {
            List<Worker.Snapshot> out = new ArrayList<>();
            for (Worker worker : workers) {
                out.add(onLoop(worker.loop, worker::snapshot));
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

        private static Histogram newHistogram() {
            return new Histogram(1, Worker.HIGHEST_US, Worker.DIGITS);
        }
    }

    /** Runs a task on an event loop and waits for its answer. */
    static <T> T onLoop(EventLoop loop, java.util.concurrent.Callable<T> task) {
        Future<T> f = loop.submit(task);
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw LoadException.failed("interrupted while waiting for the event loop", e);
        } catch (ExecutionException e) {
            throw LoadException.failed("event loop task failed: " + e.getCause(), e.getCause());
        }
    }

    /** Cumulative counters over all workers. */
    private record Totals(long requests, long bytesRead, long bytesWritten, ErrorCounts errors) {
        static final Totals ZERO = new Totals(0, 0, 0, ErrorCounts.NONE);

        static Totals of(List<Worker.Snapshot> snaps) {
            long r = 0, b = 0, w = 0;
            ErrorCounts e = ErrorCounts.NONE;
            for (Worker.Snapshot s : snaps) {
                r += s.requests();
                b += s.bytesRead();
                w += s.bytesWritten();
                e = e.plus(s.errors());
            }
            return new Totals(r, b, w, e);
        }

        Totals minus(Totals o) {
            ErrorCounts d = new ErrorCounts(errors.connect() - o.errors.connect(), errors.read() - o.errors.read(),
                    errors.write() - o.errors.write(), errors.timeout() - o.errors.timeout(),
                    errors.status() - o.errors.status(), errors.protocol() - o.errors.protocol());
            return new Totals(requests - o.requests, bytesRead - o.bytesRead, bytesWritten - o.bytesWritten, d);
        }

        IntervalSample toSample(long startMs, long endMs, List<Worker.Snapshot> snaps) {
            Histogram lat = new Histogram(1, Worker.HIGHEST_US, Worker.DIGITS);
            Histogram svc = new Histogram(1, Worker.HIGHEST_US, Worker.DIGITS);
            boolean hasService = false;
            for (Worker.Snapshot s : snaps) {
                lat.add(s.latency());
                if (s.service().isPresent()) {
                    svc.add(s.service().get());
                    hasService = true;
                }
            }
            lat.setStartTimeStamp(startMs);
            lat.setEndTimeStamp(endMs);
            svc.setStartTimeStamp(startMs);
            svc.setEndTimeStamp(endMs);
            return new IntervalSample(startMs, endMs, requests, errors, bytesRead, lat,
                    hasService ? Optional.of(svc) : Optional.empty());
        }
    }
}
