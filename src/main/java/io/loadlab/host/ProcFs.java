package io.loadlab.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** A process's state and group from Linux's {@code /proc/PID/stat}, which ProcessHandle does not tell. */
public final class ProcFs {

    /** USER_HZ, the unit of the CPU times in /proc: 100 on every Linux architecture Loadlab runs on. */
    public static final double TICKS_PER_SECOND = 100.0;

    private ProcFs() {
    }

    /**
     * CPU times of one process in clock ticks: {utime, stime, cutime, cstime} (its own threads',
     * then its reaped children's); empty when it is gone or there is no /proc.
     */
    public static Optional<long[]> cpuTicks(String pid) {
        return stat(pid).filter(f -> f.length > 14).map(f -> new long[] {
            Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14])});
    }

    /**
     * One thread of a process: its name as the kernel keeps it (15 characters at most) and its
     * utime + stime in clock ticks, from {@code /proc/PID/task/TID/stat}; empty when it has ended.
     */
    public record ThreadCpu(String name, long ticks) {}

    /** The thread whose {@code /proc/PID/task/TID} folder is {@code task}; empty when it has ended. */
    public static Optional<ThreadCpu> thread(Path task) {
        try {
            String s = Files.readString(task.resolve("stat"));
            int open = s.indexOf('(');
            int close = s.lastIndexOf(')');
            String[] f = s.substring(close + 2).split(" ");
            return open < 0 || close < open || f.length <= 12 ? Optional.empty()
                    : Optional.of(new ThreadCpu(s.substring(open + 1, close), Long.parseLong(f[11]) + Long.parseLong(f[12])));
        } catch (IOException | NumberFormatException | IndexOutOfBoundsException e) {
            return Optional.empty(); // ended meanwhile, or not the line proc(5) describes
        }
    }

    /** The fields after the command name (state, ppid, pgrp, ...); empty when unreadable. */
    private static Optional<String[]> stat(long pid) {
        return stat(Long.toString(pid));
    }

    /** The fields after the command name of /proc/PID/stat (PID may be {@code self}). */
    private static Optional<String[]> stat(String pid) {
        try {
            String s = Files.readString(Path.of("/proc", pid, "stat"));
            // The command name may contain spaces and parentheses: fields start after the last ')'.
            return Optional.of(s.substring(s.lastIndexOf(')') + 2).split(" "));
        } catch (IOException e) {
            return Optional.empty(); // gone meanwhile
        }
    }

    /** The process group of a process; empty when it is gone or there is no /proc. */
    public static Optional<Long> processGroup(long pid) {
        return stat(pid).filter(f -> f.length > 2).map(f -> Long.parseLong(f[2]));
    }

    /**
     * Whether the process runs: a zombie has ended (it only waits for its parent, or init, to
     * reap it), so it needs no more signals and holds no CPU, port or file.
     */
    public static boolean running(ProcessHandle p) {
        if (!p.isAlive()) {
            return false;
        }
        Optional<String[]> f = stat(p.pid());
        if (f.isEmpty()) {
            return !ProcessTreeStats.supported(); // gone from /proc, or no /proc to ask
        }
        return !f.get()[0].equals("Z");
    }

    /** {@link #running(ProcessHandle)} by pid: false when there is no such process. */
    public static boolean running(long pid) {
        return ProcessHandle.of(pid).map(ProcFs::running).orElse(false);
    }
}
