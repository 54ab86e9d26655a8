package io.loadlab.host;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * CPU pinning with {@code taskset}: the server on some cores, the load generator on the others,
 * so that neither steals the other's CPU time.
 */
public final class Cpus {

    private Cpus() {
    }

    /** Whether {@code taskset} (util-linux) is on the PATH. */
    public static boolean canPin() {
        return Executables.onPath("taskset");
    }

    /**
     * The CPUs this JVM was allowed to use when Loadlab first looked (Linux
     * {@code Cpus_allowed_list}), so that pinning the JVM later does not shrink what the next
     * experiment sees. Falls back to 0..n-1.
     */
    public static List<Integer> allowed() {
        return Allowed.CPUS;
    }

    private static final class Allowed {
        static final List<Integer> CPUS = read();

        private static List<Integer> read() {
            try {
                for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                    if (line.startsWith("Cpus_allowed_list:")) {
                        return parse(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
            } catch (IOException | RuntimeException e) {
                // Not Linux, or an unexpected format: assume the CPUs Java reports.
            }
            List<Integer> all = new java.util.ArrayList<>();
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                all.add(i);
            }
            return List.copyOf(all);
        }
    }

    /** Parses a taskset/cpuset list such as {@code 0-3,6}. */
    public static List<Integer> parse(String list) {
        List<Integer> out = new java.util.ArrayList<>();
        for (String part : list.split(",")) {
            String[] r = part.trim().split("-");
            int lo = Integer.parseInt(r[0]);
            int hi = r.length == 1 ? lo : Integer.parseInt(r[1]);
            if (hi < lo) {
                throw new IllegalArgumentException("CPU range " + part + " runs backwards");
            }
            for (int c = lo; c <= hi; c++) {
                out.add(c);
            }
        }
        return List.copyOf(out);
    }

    private static String format(List<Integer> cpus) {
        return String.join(",", cpus.stream().map(String::valueOf).toList());
    }

    /**
     * The default split of the allowed CPUs: the server gets the first, the load generator the
     * rest. Empty when there is one CPU or no {@code taskset}: the two then share what there is
     * ({@link #sharingWarning} says so).
     */
    public static Optional<Split> defaultSplit() {
        return defaultSplit(allowed(), canPin());
    }

    /** {@link #defaultSplit()} for these allowed CPUs. */
    static Optional<Split> defaultSplit(List<Integer> cpus, boolean canPin) {
        if (cpus.size() < 2 || !canPin) {
            return Optional.empty();
        }
        return Optional.of(new Split(Integer.toString(cpus.get(0)), format(cpus.subList(1, cpus.size()))));
    }

    /**
     * Why the default split pins nothing, as a warning for the user; empty when it pins.
     */
    public static Optional<String> sharingWarning() {
        return sharingWarning(allowed(), canPin());
    }

    /** {@link #sharingWarning()} for these allowed CPUs. */
    static Optional<String> sharingWarning(List<Integer> cpus, boolean canPin) {
        if (cpus.size() < 2) {
            return Optional.of("only CPU " + format(cpus) + " is available to Loadlab, so nothing is pinned: the subject"
                    + " and the load generator share it and every run measures both together; give Loadlab two or"
                    + " more CPUs (taskset, the container's cpuset) for results worth comparing");
        }
        if (!canPin) {
            return Optional.of("taskset is not on the PATH (Debian: util-linux), so nothing is pinned: the subject and"
                    + " the load generator share CPUs " + format(cpus) + " and disturb each other");
        }
        return Optional.empty();
    }

    /** The allowed CPUs as a taskset list, such as {@code 0,1,2}. */
    public static String allowedList() {
        return format(allowed());
    }

    /**
     * Checks that a CPU list names only CPUs this JVM may use.
     *
     * @throws HostException naming the CPUs that are not available
     */
    public static void requireAvailable(String what, String list) {
        List<Integer> wanted;
        try {
            wanted = parse(list);
        } catch (IllegalArgumentException e) {
            throw new HostException(what + " '" + list + "' is not a CPU list such as 0 or 1-3 or 0,2");
        }
        List<Integer> missing = wanted.stream().filter(c -> !allowed().contains(c)).toList();
        if (!missing.isEmpty()) {
            throw new HostException(what + " '" + list + "' names CPU " + format(missing)
                    + ", which this machine does not give Loadlab; available: " + format(allowed()));
        }
    }

    /** Undoes {@link #pinThisProcess}: this JVM may use all the CPUs it started with again. */
    public static void unpinThisProcess() {
        pinThisProcess(format(allowed()));
    }

    /** Which CPUs (taskset list syntax, such as {@code 0} or {@code 1-3}) each side uses. */
    public record Split(String server, String load) {
        public Split {
            if (!server.matches("[0-9,-]+") || !load.matches("[0-9,-]+")) {
                throw new IllegalArgumentException("CPU lists look like 0 or 1-3 or 0,2; got '"
                        + server + "' and '" + load + "'");
            }
        }

        /** Number of CPUs in the load list. */
        public int loadCount() {
            return count(load);
        }

        /** Number of CPUs in the server list. */
        public int serverCount() {
            return count(server);
        }

        private static int count(String list) {
            int n = 0;
            for (String part : list.split(",")) {
                String[] r = part.split("-");
                n += r.length == 1 ? 1 : Integer.parseInt(r[1]) - Integer.parseInt(r[0]) + 1;
            }
            return n;
        }
    }

    /** How many times taskset is run when a thread of this JVM ended while it pinned them. */
    private static final int PIN_ATTEMPTS = 5;

    /**
     * Pins every thread of this JVM, and the threads it creates later, to {@code cpus}.
     * {@code taskset -a} lists the threads, then pins them one by one: a thread that ends in between
     * (a pool's idle worker, the engine's threads of the run before) fails with "No such process",
     * although this JVM lives on. Then taskset runs again, up to {@value #PIN_ATTEMPTS} times, which
     * pins what is left.
     *
     * @throws HostException when taskset fails
     */
    public static void pinThisProcess(String cpus) {
        long pid = ProcessHandle.current().pid();
        List<String> cmd = List.of("taskset", "-a", "-p", "-c", cpus, Long.toString(pid));
        try {
            for (int attempt = 1; ; attempt++) {
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                if (p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return;
                }
                p.destroyForcibly();
                if (attempt == PIN_ATTEMPTS || !out.contains("No such process")) {
                    throw new HostException("taskset could not pin the load generator to CPUs " + cpus + ": "
                            + errorLines(out));
                }
            }
        } catch (IOException e) {
            throw new HostException("cannot run taskset: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HostException("interrupted while pinning CPUs", e);
        }
    }

    /** The error lines of taskset's output: with -a it first prints two lines for each thread it pinned. */
    static String errorLines(String out) {
        List<String> lines = out.strip().lines().filter(l -> !l.startsWith("pid ")).toList();
        return lines.isEmpty() ? out.strip() : String.join("; ", lines);
    }
}
