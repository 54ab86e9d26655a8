package io.loadlab.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The CPU time the whole machine spent, from {@code /proc/stat}, on chosen CPUs: what a window's
 * noise is measured against (everything that is neither the subject nor the load generator).
 *
 * <p>Busy time is {@code user + nice + system} (guest time is inside user). Interrupt and softirq
 * time are left out: Linux accounts the loopback network processing of the benchmark itself there
 * rather than to the processes that caused it, so it is not another program's CPU. Steal is the time
 * the hypervisor ran someone else while this machine's CPUs wanted to run.
 */
public final class MachineCpu {

    private MachineCpu() {
    }

    /**
     * One reading, in clock ticks ({@link ProcFs#TICKS_PER_SECOND} a second).
     *
     * @param busyTicks  user + nice + system over the chosen CPUs
     * @param stealTicks steal over the chosen CPUs
     */
    public record Reading(long busyTicks, long stealTicks) {
        /** The difference {@code this - earlier}, in seconds: {busy, steal}. */
        public double[] secondsSince(Reading earlier) {
            return new double[] {(busyTicks - earlier.busyTicks) / ProcFs.TICKS_PER_SECOND,
                (stealTicks - earlier.stealTicks) / ProcFs.TICKS_PER_SECOND};
        }
    }

    /**
     * Reads the chosen CPUs' lines ({@code cpuN}), or the machine's total line when {@code cpus} is
     * empty; empty when there is no /proc/stat or a chosen CPU has no line.
     */
    public static Optional<Reading> read(List<Integer> cpus) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("/proc/stat"));
        } catch (IOException e) {
            return Optional.empty();
        }
        long busy = 0;
        long steal = 0;
        int found = 0;
        for (String line : lines) {
            if (!line.startsWith("cpu")) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            boolean total = f[0].equals("cpu");
            boolean chosen = cpus.isEmpty() ? total : !total && cpus.contains(Integer.parseInt(f[0].substring(3)));
            if (!chosen || f.length < 9) {
                continue;
            }
            // cpu user nice system idle iowait irq softirq steal [guest guest_nice]
            busy += Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]);
            steal += Long.parseLong(f[8]);
            found++;
        }
        boolean complete = cpus.isEmpty() ? found == 1 : found == cpus.size();
        return complete ? Optional.of(new Reading(busy, steal)) : Optional.empty();
    }
}
