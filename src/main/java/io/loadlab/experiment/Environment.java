package io.loadlab.experiment;

import io.loadlab.data.EnvironmentSection;
import io.loadlab.host.Machine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

    /** Reads the machine's description ({@link Machine}); {@code unknown} where a source is missing. */
    public static Environment capture(Path home, Map<String, String> subjectVersions, String pinning) {
        String jvm = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        String version = Optional.ofNullable(Environment.class.getPackage().getImplementationVersion())
                .orElse("development build");
        String commit = git(home, "rev-parse", "HEAD").orElse("unknown");
        if (!commit.equals("unknown") && git(home, "status", "--porcelain", "--untracked-files=no")
                .filter(s -> !s.isBlank()).isPresent()) {
            commit += " (with uncommitted changes)";
        }
        return new Environment(Machine.cpuModel(), Runtime.getRuntime().availableProcessors(), Machine.kernel(),
                Machine.os(), jvm, version, commit, new TreeMap<>(subjectVersions), pinning, Machine.governor(),
                Machine.boost());
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
