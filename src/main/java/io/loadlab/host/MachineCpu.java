package io.loadlab.host;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.zip.GZIPInputStream;

/**
 * The CPU time the whole machine spent, from {@code /proc/stat}, on chosen CPUs: what a window's
 * noise is measured against (everything that is neither the subject nor the load generator).
 *
 * <p>Busy time is compared with the processes' own CPU times ({@code /proc/PID/stat}), which the
 * scheduler measures to the nanosecond, so it must be measured as exactly and count what they count.
 * Both failed before (issue 31: a busy loop of a third of a CPU read as no noise at all):
 * <ul>
 *   <li><b>Not the sampled columns.</b> {@code user}, {@code system}, {@code irq} and {@code softirq}
 *       are ticks, each given to whatever ran when the tick fired. A server and a load generator that
 *       wake for a few microseconds per request and sleep again are mostly asleep at the tick: they
 *       got far fewer ticks than their measured time, and the difference was subtracted from the
 *       noise (a quiet run read less than 0, a busy loop on the load's CPU half its time). Busy time
 *       is instead the wall time of each chosen CPU less its {@code idle} and {@code iowait}, which a
 *       tickless kernel measures exactly (from its idle entry and exit), less {@code steal}.</li>
 *   <li><b>Interrupt work counted as the tasks count it.</b> Without
 *       {@code CONFIG_IRQ_TIME_ACCOUNTING} (the default of many kernels, this project's machine's
 *       among them) the softirq work of the benchmark's loopback traffic, done in the sending process's
 *       context, is inside that process's time: it stays in busy time, and is subtracted with the
 *       process. With {@code CONFIG_IRQ_TIME_ACCOUNTING=y} it is measured apart and taken out of the
 *       tasks' times; then {@code irq + softirq} (exact in that mode) is taken out of busy time too.
 *       Which applies is read from {@code /proc/config.gz} or {@code /boot/config-RELEASE}; without
 *       either, the first.</li>
 * </ul>
 * Steal is the time the hypervisor ran someone else while this machine's CPUs wanted to run.
 */
public final class MachineCpu {

    /** Whether the kernel measures interrupt time apart from the tasks' times; read once. */
    private static final boolean IRQ_TIME_APART = irqTimeApart();

    private MachineCpu() {
    }

    /**
     * One reading.
     *
     * @param nanos      {@link System#nanoTime()} when it was read
     * @param cpus       how many CPUs it covers
     * @param idleTicks  idle + iowait over them, in clock ticks ({@link ProcFs#TICKS_PER_SECOND} a second)
     * @param stealTicks steal over them, ticks
     * @param irqTicks   irq + softirq over them where the kernel takes it out of the tasks' times, else 0
     */
    public record Reading(long nanos, int cpus, long idleTicks, long stealTicks, long irqTicks) {
        /**
         * The difference {@code this - earlier}, in seconds: {busy, steal}, where busy is the CPUs' time
         * less their idle, steal and (where apart) interrupt time; never below 0.
         */
        public double[] secondsSince(Reading earlier) {
            double wall = cpus * (nanos - earlier.nanos) / 1e9;
            double steal = (stealTicks - earlier.stealTicks) / ProcFs.TICKS_PER_SECOND;
            double other = (idleTicks - earlier.idleTicks + irqTicks - earlier.irqTicks) / ProcFs.TICKS_PER_SECOND;
            return new double[] {Math.max(0, wall - other - steal), steal};
        }
    }

    /**
     * Steal over the CPUs of two readings of them, s (clock ticks of 10 ms); empty when either is
     * missing. What a window's listener reports ({@code LoadListener.stealSeconds}).
     */
    public static OptionalDouble stealBetween(Optional<Reading> start, Optional<Reading> end) {
        return start.isPresent() && end.isPresent()
                ? OptionalDouble.of(end.get().secondsSince(start.get())[1]) : OptionalDouble.empty();
    }

    /**
     * Reads the chosen CPUs' lines ({@code cpuN}), or every CPU's when {@code cpus} is empty; empty
     * when there is no /proc/stat or a chosen CPU has no line.
     */
    public static Optional<Reading> read(List<Integer> cpus) {
        List<String> lines;
        long nanos;
        try {
            lines = Files.readAllLines(Path.of("/proc/stat"));
            nanos = System.nanoTime();
        } catch (IOException e) {
            return Optional.empty();
        }
        long idle = 0;
        long steal = 0;
        long irq = 0;
        int found = 0;
        for (String line : lines) {
            if (!line.startsWith("cpu") || line.startsWith("cpu ")) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            if (!(cpus.isEmpty() || cpus.contains(Integer.parseInt(f[0].substring(3)))) || f.length < 9) {
                continue;
            }
            // cpuN user nice system idle iowait irq softirq steal [guest guest_nice]
            idle += Long.parseLong(f[4]) + Long.parseLong(f[5]);
            irq += IRQ_TIME_APART ? Long.parseLong(f[6]) + Long.parseLong(f[7]) : 0;
            steal += Long.parseLong(f[8]);
            found++;
        }
        boolean complete = cpus.isEmpty() ? found > 0 : found == cpus.size();
        return complete ? Optional.of(new Reading(nanos, found, idle, steal, irq)) : Optional.empty();
    }

    /**
     * Whether the running kernel was built with {@code CONFIG_IRQ_TIME_ACCOUNTING=y}; false when its
     * configuration cannot be read.
     */
    static boolean irqTimeApart() {
        for (Path config : List.of(Path.of("/proc/config.gz"), Path.of("/boot/config-" + System.getProperty("os.version")))) {
            try (InputStream raw = Files.newInputStream(config);
                 InputStream in = config.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
                return new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines()
                        .anyMatch(l -> l.equals("CONFIG_IRQ_TIME_ACCOUNTING=y"));
            } catch (IOException e) {
                continue; // not there or not readable: the next place, else the default
            }
        }
        return false;
    }
}
