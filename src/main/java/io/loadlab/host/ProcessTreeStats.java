package io.loadlab.host;

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

    private ProcessTreeStats() {
    }

    /**
     * One reading.
     *
     * @param userSeconds   user CPU time, s
     * @param systemSeconds system CPU time, s
     * @param rssBytes      resident set size now, summed over the tree, bytes
     * @param peakRssBytes  sum of each process's peak RSS (VmHWM), bytes: since the process started, or
     *                      since {@link #resetPeak}
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
        long ticksUser = 0;
        long ticksSys = 0;
        long rss = 0;
        long peak = 0;
        for (ProcessHandle p : tree(root)) {
            String pid = Long.toString(p.pid());
            java.util.Optional<long[]> t = ProcFs.cpuTicks(pid);
            if (t.isEmpty()) {
                continue; // the process exited between listing and reading: it no longer counts
            }
            ticksUser += t.get()[0] + t.get()[2];
            ticksSys += t.get()[1] + t.get()[3];
            try {
                for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                    if (line.startsWith("VmRSS:")) {
                        rss += kib(line) * 1024;
                    } else if (line.startsWith("VmHWM:")) {
                        peak += kib(line) * 1024;
                    }
                }
            } catch (IOException e) {
                // Exited meanwhile: its memory is no longer there.
            }
        }
        return java.util.Optional.of(new Reading(ticksUser / ProcFs.TICKS_PER_SECOND, ticksSys / ProcFs.TICKS_PER_SECOND,
                rss, peak));
    }

    /**
     * Resets the peak RSS (VmHWM) of every process in the tree to its current RSS, by writing 5 to
     * {@code /proc/PID/clear_refs} (proc(5); Linux 4.0+, allowed for the processes' owner), so that
     * a later {@link #read} gives the peak since now. Only the peak is reset: 5 leaves the
     * page-reference bits that values 1 to 4 would clear, and with them the process's memory
     * behaviour, alone.
     *
     * @return whether every process's peak was reset; when not, the peak read later is not the
     *         window's and must not be reported as such
     */
    public static boolean resetPeak(ProcessHandle root) {
        boolean all = supported();
        for (ProcessHandle p : tree(root)) {
            try {
                Files.writeString(Path.of("/proc", Long.toString(p.pid()), "clear_refs"), "5");
            } catch (IOException e) {
                // Gone meanwhile (nothing to reset), or not allowed: only the latter spoils the peak.
                all &= !p.isAlive();
            }
        }
        return all;
    }

    /** The process and its descendants now. */
    static List<ProcessHandle> tree(ProcessHandle root) {
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(root);
        root.descendants().forEach(tree::add);
        return tree;
    }

    private static long kib(String line) {
        String digits = line.replaceAll("[^0-9]", "");
        return digits.isEmpty() ? 0 : Long.parseLong(digits);
    }
}
