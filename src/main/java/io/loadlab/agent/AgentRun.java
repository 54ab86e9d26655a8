package io.loadlab.agent;

import io.loadlab.host.Cpus;
import io.loadlab.host.MachineCpu;
import io.loadlab.load.Hlog;
import io.loadlab.load.IntervalSample;
import io.loadlab.load.NettyLoad;
import io.loadlab.load.LoadException;
import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadResult;
import io.loadlab.load.LoadSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * One run on an agent: waits for the start instant, runs the built-in engine on the agent's share,
 * sends each interval as it completes, and ends by itself, on an {@link Message.End}, when its
 * coordinator disconnects, or at its deadline, whichever comes first. Then it sends a
 * {@link Message.Done}. Its own intervals are kept in an hlog when the agent was given a folder.
 */
final class AgentRun {

    private final String session;
    private final String client;
    private final LoadSpec spec;
    private final Replies replies;
    private final PrintStream log;
    private final Optional<Path> hlogDir;
    private final List<IntervalSample> kept = new ArrayList<>();
    private volatile Thread thread;
    private volatile int endAfter = Integer.MAX_VALUE;
    /** Why the run was stopped before the engine ended it, or null. */
    private volatile String stopReason;
    private volatile boolean finished;

    AgentRun(String session, String client, LoadSpec spec, Replies replies, PrintStream log,
             Optional<Path> hlogDir) {
        this.session = session;
        this.client = client;
        this.spec = spec;
        this.replies = replies;
        this.log = log;
        this.hlogDir = hlogDir;
    }

    String session() {
        return session;
    }

    String client() {
        return client;
    }

    boolean finished() {
        return finished;
    }

    /** Starts the run's thread, which loads from {@code startMs} (this host's clock). */
    synchronized void start(long startMs) {
        if (thread != null || stopReason != null) {
            return; // started already, or stopped before its start came (its coordinator gone): never load
        }
        thread = new Thread(() -> body(startMs), "loadlab-agent-run");
        thread.setDaemon(true);
        thread.start();
    }

    /** Ends the run once interval {@code afterIndex} is sent; at once when that is past or negative. */
    void endAfter(int afterIndex) {
        endAfter = afterIndex;
        if (afterIndex < 0 || sent() > afterIndex) {
            stop("stopped");
        }
    }

    /** Stops the run now, saying why ({@code stopped}, {@code coordinator_gone}, {@code deadline}). */
    synchronized void stop(String why) {
        if (stopReason == null) {
            stopReason = why;
        }
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        } else {
            finished = true;
        }
    }

    /** Waits for the run's thread to end. */
    void join() throws InterruptedException {
        Thread t = thread;
        if (t != null) {
            t.join();
        }
    }

    private int sent() {
        synchronized (kept) {
            return kept.size();
        }
    }

    private void body(long startMs) {
        Message.Done done;
        try {
            long wait = startMs - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            LoadResult r = NettyLoad.run(spec, new Reporter());
            done = new Message.Done("ok", Optional.empty(), "complete", r.statusCodes(),
                    OptionalLong.of(r.bytesWritten()), Optional.of(r.connectTime()),
                    spec.warmup().isNone() ? Optional.empty() : r.steady(), spec.threads());
        } catch (InterruptedException | RuntimeException e) {
            // A stop interrupts the engine (or a Hazelcast call in the listener): that is the end asked for.
            done = stopReason != null ? new Message.Done("ok", Optional.empty(), stopReason, new TreeMap<>(),
                    OptionalLong.empty(), Optional.empty(), Optional.empty(), spec.threads())
                    : Message.Done.failed(e instanceof LoadException ? e.getMessage() : "the agent's run failed: " + e,
                    spec.threads());
        }
        Thread.interrupted();
        keepHlog();
        finished = true;
        replies.send(done);
        log.println("loadlab agent: run " + session + " ended (" + done.ended() + done.error().map(x -> ": " + x)
                .orElse("") + "), " + sent() + " intervals sent");
        log.flush();
    }

    /**
     * Sends each interval at once, with the loops' CPU and the hypervisor's steal on the CPUs this
     * agent may use (its {@code taskset}); stops after the interval it was told.
     */
    private final class Reporter implements LoadListener {
        private final LoopCpu cpu = new LoopCpu();
        private final List<Integer> cpus = Cpus.allowed();
        private Optional<MachineCpu.Reading> machine = MachineCpu.read(cpus);

        @Override
        public void windowStarted() {
            cpu.windowStarted();
            machine = MachineCpu.read(cpus);
        }

        /** Steal since the last interval (or the window's start), s. */
        private OptionalDouble steal() {
            Optional<MachineCpu.Reading> now = MachineCpu.read(cpus);
            OptionalDouble s = MachineCpu.stealBetween(machine, now);
            machine = now;
            return s;
        }

        @Override
        public void interval(IntervalSample s) {
            int index;
            synchronized (kept) {
                index = kept.size();
                kept.add(s);
            }
            replies.send(new Message.Interval(index, s.startEpochMs(), s.endEpochMs(), s.requests(),
                    s.missed(), s.errors(), s.bytesRead(), cpu.sinceLast(), cpu.processSinceLast(), s.latency(), s.serviceTime(),
                    steal()));
            if (index >= endAfter) {
                stop("stopped");
            }
        }
    }

    private void keepHlog() {
        if (hlogDir.isEmpty() || kept.isEmpty()) {
            return;
        }
        Path file = hlogDir.get().resolve("run-" + session + ".hlog");
        try (OutputStream out = Files.newOutputStream(file); PrintStream ps = new PrintStream(out, false, "US-ASCII")) {
            long base = kept.get(0).startEpochMs();
            Hlog.writeRun(Hlog.writeHeader(ps, base, "Loadlab agent's own intervals of run " + session), kept, "agent",
                    base);
        } catch (IOException e) {
            log.println("loadlab agent: cannot keep " + file + ": " + e.getMessage());
        }
    }
}
