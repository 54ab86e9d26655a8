package io.loadlab.subject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU time and resident memory of a process and all its descendants, read from Linux's
 * {@code /proc}. CPU includes all threads and the children already reaped by the tree
 * (cutime/cstime), at the kernel's clock-tick resolution (10 ms).
 */
public final class ProcessTreeStats {

    /** USER_HZ: 100 on every Linux architecture Loadlab runs on. */
    private static final double TICKS_PER_SECOND = 100.0;

    private ProcessTreeStats() {
    }

    /**
     * One reading.
     *
     * @param userSeconds   user CPU time, s
     * @param systemSeconds system CPU time, s
     * @param rssBytes      resident set size now, summed over the tree, bytes
     * @param peakRssBytes  sum of each process's peak RSS (VmHWM), bytes
     */
    public record Reading(double userSeconds, double systemSeconds, long rssBytes, long peakRssBytes) {
        /** User plus system time, s. */
        public double cpuSeconds() {
            return userSeconds + systemSeconds;
        }
    }

    /** Whether this system has a Linux {@code /proc}. */
    public static boolean supported() {
        return Files.isReadable(Path.of("/proc/self/stat"));
    }

    /**
     * Reads the whole tree under {@code root}; descendants that vanish meanwhile are skipped.
     * Empty when there is no {@code /proc} or the root itself cannot be read: not measured, not 0.
     */
    public static java.util.Optional<Reading> read(ProcessHandle root) {
        if (!supported() || !Files.isReadable(Path.of("/proc", Long.toString(root.pid()), "stat"))) {
            return java.util.Optional.empty();
        }
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(root);
        root.descendants().forEach(tree::add);
        long ticksUser = 0;
        long ticksSys = 0;
        long rss = 0;
        long peak = 0;
        for (ProcessHandle p : tree) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
                // The command name may contain spaces and parentheses: fields start after the last ')'.
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
                // Fields 14-17 of stat(5): utime stime cutime cstime; here offset by 3.
                ticksUser += Long.parseLong(f[11]) + Long.parseLong(f[13]);
                ticksSys += Long.parseLong(f[12]) + Long.parseLong(f[14]);
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status"))) {
                    if (line.startsWith("VmRSS:")) {
                        rss += kib(line) * 1024;
                    } else if (line.startsWith("VmHWM:")) {
                        peak += kib(line) * 1024;
                    }
                }
            } catch (IOException e) {
                // The process exited between listing and reading: it no longer counts.
            }
        }
        return java.util.Optional.of(new Reading(ticksUser / TICKS_PER_SECOND, ticksSys / TICKS_PER_SECOND, rss, peak));
    }

    private static long kib(String line) {
        String digits = line.replaceAll("[^0-9]", "");
        return digits.isEmpty() ? 0 : Long.parseLong(digits);
    }
}
