package io.loadlab.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;

/**
 * What this machine says about itself in {@code /proc}, {@code /sys} and {@code /etc/os-release}: the
 * CPU model, the kernel, the OS, and the CPU frequency governor and boost state where the machine
 * exposes them (a VM usually does not: then the text says so, never a guess). Each reader returns
 * {@code unknown} or a sentence when its source is missing. Stateless and thread-safe.
 */
public final class Machine {

    private static final String CPU_SYS = "/sys/devices/system/cpu";

    private Machine() {
    }

    /** The first {@code model name} of {@code /proc/cpuinfo}, or {@code unknown}. */
    public static String cpuModel() {
        return read("/proc/cpuinfo").lines().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("unknown");
    }

    /** The kernel release ({@code /proc/sys/kernel/osrelease}), or {@code unknown}. */
    public static String kernel() {
        String kernel = read("/proc/sys/kernel/osrelease").strip();
        return kernel.isEmpty() ? "unknown" : kernel;
    }

    /** The OS's pretty name from {@code /etc/os-release}, else the JVM's os.name and os.version. */
    public static String os() {
        return read("/etc/os-release").lines().filter(l -> l.startsWith("PRETTY_NAME="))
                .map(l -> l.substring(12).replace("\"", "")).findFirst()
                .orElse(System.getProperty("os.name") + " " + System.getProperty("os.version"));
    }

    /** The cpufreq governors of the CPUs, e.g. {@code performance}, or why none is known. */
    public static String governor() {
        TreeSet<String> seen = new TreeSet<>();
        for (int cpu = 0; cpu < Runtime.getRuntime().availableProcessors() * 4 && cpu < 4096; cpu++) {
            Path f = Path.of(CPU_SYS, "cpu" + cpu, "cpufreq", "scaling_governor");
            if (Files.isReadable(f)) {
                seen.add(read(f.toString()).strip());
            }
        }
        return seen.isEmpty() ? "not exposed (no " + CPU_SYS + "/cpu*/cpufreq/scaling_governor: a VM or no cpufreq"
                + " driver; the host sets the frequency)" : String.join(",", seen);
    }

    /** Whether the CPU may boost above its base clock, or why it is not known. */
    public static String boost() {
        String b = read(CPU_SYS + "/cpufreq/boost").strip();
        if (!b.isEmpty()) {
            return b.equals("1") ? "on" : "off";
        }
        String noTurbo = read(CPU_SYS + "/intel_pstate/no_turbo").strip();
        if (!noTurbo.isEmpty()) {
            return noTurbo.equals("1") ? "off (intel_pstate no_turbo)" : "on (intel_pstate)";
        }
        return "not exposed (neither " + CPU_SYS + "/cpufreq/boost nor intel_pstate/no_turbo)";
    }

    /** A whole small file of /proc, /sys or /etc, or "" when it cannot be read. */
    private static String read(String file) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
