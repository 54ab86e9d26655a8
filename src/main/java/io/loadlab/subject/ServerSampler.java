package io.loadlab.subject;

import io.loadlab.host.CompilerThreads;
import io.loadlab.host.MachineCpu;
import io.loadlab.host.ProcFs;
import io.loadlab.host.ProcessTreeStats;
import io.loadlab.load.LoadListener;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Reads, at the start and the end of the measured window, the subject's process tree (CPU, and
 * its peak RSS reset at the start so that the peak is the window's), the machine's CPU on the CPUs
 * in use, and this JVM's own CPU: what the window's noise is computed from. The runner uses it on
 * its own host, and an agent started with {@code --allow-subjects} on the subject's host.
 */
public final class ServerSampler implements LoadListener {
    private final ProcessHandle server;
    private final List<Integer> cpus;
    private final CompilerThreads compilers;
    private boolean peakReset;
    private Optional<ProcessTreeStats.Reading> start = Optional.empty();
    private Optional<ProcessTreeStats.Reading> end = Optional.empty();
    private Optional<MachineCpu.Reading> machineStart = Optional.empty();
    private Optional<MachineCpu.Reading> machineEnd = Optional.empty();
    private long selfStart = -1;
    private long selfEnd = -1;

    /**
     * @param server the root of the subject's process tree
     * @param cpus   the CPUs the subject and the load generator run on, whose other use is noise;
     *               empty for the whole machine (when nothing is pinned)
     */
    public ServerSampler(ProcessHandle server, List<Integer> cpus) {
        this.server = server;
        this.cpus = List.copyOf(cpus);
        this.compilers = new CompilerThreads(server);
    }

    /** A sampler of the subject's tree over the whole machine. */
    public ServerSampler(ProcessHandle server) {
        this(server, List.of());
    }

    /** The JIT compiler threads' CPU time in the subject's tree ({@link CompilerThreads}), s; empty for a server without them. */
    @Override
    public OptionalDouble serverCompilerSeconds() {
        return compilers.cpuSeconds();
    }

    @Override
    public void windowStarted() {
        peakReset = ProcessTreeStats.resetPeak(server);
        machineStart = MachineCpu.read(cpus);
        selfStart = selfTicks();
        start = ProcessTreeStats.read(server);
    }

    @Override
    public void windowEnded() {
        end = ProcessTreeStats.read(server);
        selfEnd = selfTicks();
        machineEnd = MachineCpu.read(cpus);
    }

    /**
     * User and system CPU over the window (s), and the peak RSS within it (bytes; 0 when the peak
     * could not be reset at the window's start, so that no lifetime peak passes for the window's);
     * empty when not measured, or when a process of the tree exited meanwhile and took its CPU
     * time with it.
     */
    public Optional<ProcessTreeStats.Reading> window() {
        if (start.isEmpty() || end.isEmpty()) {
            return Optional.empty();
        }
        ProcessTreeStats.Reading a = start.get();
        ProcessTreeStats.Reading b = end.get();
        double user = b.userSeconds() - a.userSeconds();
        double sys = b.systemSeconds() - a.systemSeconds();
        if (user < 0 || sys < 0) {
            return Optional.empty();
        }
        return Optional.of(new ProcessTreeStats.Reading(user, sys, b.rssBytes(), peakReset ? b.peakRssBytes() : 0));
    }

    /**
     * CPU time, s, that the window's CPUs spent on neither the subject's tree nor this JVM (with
     * the children it reaped meanwhile: an external engine's tool): other programs, the machine's
     * noise. Not below 0 (clock ticks of 10 ms round each reading). Empty when not measured.
     */
    public OptionalDouble noiseCpuSeconds() {
        Optional<ProcessTreeStats.Reading> server = window();
        if (machineStart.isEmpty() || machineEnd.isEmpty() || server.isEmpty() || selfStart < 0 || selfEnd < 0) {
            return OptionalDouble.empty();
        }
        double busy = machineEnd.get().secondsSince(machineStart.get())[0];
        double self = (selfEnd - selfStart) / ProcFs.TICKS_PER_SECOND;
        return OptionalDouble.of(Math.max(0, busy - server.get().cpuSeconds() - self));
    }

    /** The hypervisor's steal time on the window's CPUs, s; empty when not measured. */
    @Override
    public OptionalDouble stealSeconds() {
        return MachineCpu.stealBetween(machineStart, machineEnd);
    }

    /**
     * The window's figures, once it ended: what a run's row takes of the server.
     *
     * @param server          {@link #window()}
     * @param noiseCpuSeconds {@link #noiseCpuSeconds()}
     * @param stealSeconds    {@link #stealSeconds()}
     */
    public record Window(Optional<ProcessTreeStats.Reading> server, OptionalDouble noiseCpuSeconds,
                         OptionalDouble stealSeconds) {
        /** Nothing measured. */
        public static final Window NONE = new Window(Optional.empty(), OptionalDouble.empty(), OptionalDouble.empty());
    }

    /** The window's figures; empty ones where not measured. */
    public Window reading() {
        return new Window(window(), noiseCpuSeconds(), stealSeconds());
    }

    private static long selfTicks() {
        return ProcFs.cpuTicks("self").map(t -> t[0] + t[1] + t[2] + t[3]).orElse(-1L);
    }
}
