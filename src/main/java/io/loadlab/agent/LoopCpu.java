package io.loadlab.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashSet;
import java.util.Set;

/**
 * CPU time of the built-in engine's event-loop threads during one run on an agent, read each
 * interval: the engine names them {@code loadlab-load-*} and makes them when the run starts, so the
 * threads of that name that were not there before are this run's. (An agent runs one load at a time.)
 * Used on the run's thread only.
 */
final class LoopCpu {

    private static final String PREFIX = "loadlab-load-";
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private final Set<Long> before;
    private long[] loops;
    private long last;
    private long lastProcess = processNanos();

    /** Notes the engine threads that exist before the run. */
    LoopCpu() {
        this.before = engineThreads();
    }

    /**
     * Marks the window's start: after a warm-up the loops exist and their CPU so far is not the
     * window's; without one they do not exist yet, and the first interval finds them.
     */
    void windowStarted() {
        find();
        if (loops.length > 0) {
            sinceLast();
            processSinceLast();
        } else {
            loops = null;
        }
    }

    /** CPU the run's loops used since the last call (or since they started), ns. */
    long sinceLast() {
        if (loops == null) {
            find();
        }
        long sum = 0;
        for (long id : loops) {
            sum += Math.max(0, mx.getThreadCpuTime(id));
        }
        long d = sum - last;
        last = sum;
        return Math.max(0, d);
    }

    /** CPU the whole JVM used since the last call (or since this object was made), ns. */
    long processSinceLast() {
        long now = processNanos();
        long d = now - lastProcess;
        lastProcess = now;
        return Math.max(0, d);
    }

    private static long processNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    private void find() {
        Set<Long> now = engineThreads();
        now.removeAll(before);
        loops = now.stream().mapToLong(Long::longValue).toArray();
    }

    private Set<Long> engineThreads() {
        Set<Long> out = new HashSet<>();
        for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds(), 0)) {
            if (t != null && t.getThreadName().startsWith(PREFIX)) {
                out.add(t.getThreadId());
            }
        }
        return out;
    }
}
