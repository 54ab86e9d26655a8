package io.loadlab.experiment;

import io.loadlab.data.EnvironmentSection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Where the numbers were measured: CPU, cores, kernel, OS, JVM, Loadlab's version and commit,
 * the subjects' toolchain versions, the CPU pinning, and the CPU frequency governor and boost
 * state where the machine exposes them (a VM usually does not: then they say so, never a guess).
 * Stored in {@code experiment.json}.
 */
public record Environment(String cpuModel, int cores, String kernel, String os, String jvm,
                          String loadlabVersion, String gitCommit, Map<String, String> subjectVersions,
                          String pinning, String cpuGovernor, String cpuBoost) {

    /** Reads the machine's description; {@code unknown} where a source is missing. */
    public static Environment capture(Path home, Map<String, String> subjectVersions, String pinning) {
        String cpu = read("/proc/cpuinfo").lines().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("unknown");
        String os = read("/etc/os-release").lines().filter(l -> l.startsWith("PRETTY_NAME="))
                .map(l -> l.substring(12).replace("\"", "")).findFirst()
                .orElse(System.getProperty("os.name") + " " + System.getProperty("os.version"));
        String kernel = read("/proc/sys/kernel/osrelease").strip();
        String jvm = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        String version = Optional.ofNullable(Environment.class.getPackage().getImplementationVersion())
                .orElse("development build");
        String commit = git(home, "rev-parse", "HEAD").orElse("unknown");
        if (!commit.equals("unknown") && git(home, "status", "--porcelain", "--untracked-files=no")
                .filter(s -> !s.isBlank()).isPresent()) {
            commit += " (with uncommitted changes)";
        }
        return new Environment(cpu, Runtime.getRuntime().availableProcessors(), kernel.isEmpty() ? "unknown" : kernel,
                os, jvm, version, commit, new TreeMap<>(subjectVersions), pinning, governor(), boost());
    }

    private static final String CPU_SYS = "/sys/devices/system/cpu";

    /** The cpufreq governors of the CPUs, e.g. {@code performance}, or why none is known. */
    static String governor() {
        java.util.TreeSet<String> seen = new java.util.TreeSet<>();
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
    static String boost() {
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

    /**
     * The environment as stored in {@code experiment.json}, with the versions of the external
     * engines and what each subject was made of.
     */
    public EnvironmentSection toSection(Map<String, String> engineVersions,
                                        Map<String, EnvironmentSection.Sources> subjectSources) {
        Map<String, String> machine = new LinkedHashMap<>();
        machine.put(EnvironmentSection.CPU_MODEL, cpuModel);
        machine.put(EnvironmentSection.CORES, Integer.toString(cores));
        machine.put(EnvironmentSection.KERNEL, kernel);
        machine.put(EnvironmentSection.OS, os);
        machine.put(EnvironmentSection.JVM, jvm);
        machine.put(EnvironmentSection.LOADLAB_VERSION, loadlabVersion);
        machine.put(EnvironmentSection.GIT_COMMIT, gitCommit);
        machine.put(EnvironmentSection.PINNING, pinning);
        machine.put(EnvironmentSection.CPU_GOVERNOR, cpuGovernor);
        machine.put(EnvironmentSection.CPU_BOOST, cpuBoost);
        return new EnvironmentSection(machine, subjectVersions, subjectSources, engineVersions);
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static Optional<String> git(Path home, String... args) {
        try {
            java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("git", "-C", home.toString()));
            cmd.addAll(java.util.List.of(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return Optional.empty();
            }
            return Optional.of(out);
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
