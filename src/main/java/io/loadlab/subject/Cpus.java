package io.loadlab.subject;

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
        return Subjects.onPath("taskset");
    }

    /**
     * The default split: the server gets CPU 0, the load generator the rest. Empty when there is
     * one CPU or no {@code taskset}: the two then share whatever there is.
     */
    public static Optional<Split> defaultSplit() {
        int n = Runtime.getRuntime().availableProcessors();
        if (n < 2 || !canPin()) {
            return Optional.empty();
        }
        return Optional.of(new Split("0", n == 2 ? "1" : "1-" + (n - 1)));
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

    /**
     * Pins every thread of this JVM, and the threads it creates later, to {@code cpus}.
     *
     * @throws SubjectException when taskset fails
     */
    public static void pinThisProcess(String cpus) {
        long pid = ProcessHandle.current().pid();
        List<String> cmd = List.of("taskset", "-a", "-p", "-c", cpus, Long.toString(pid));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new SubjectException("taskset could not pin the load generator to CPUs " + cpus + ": " + out.trim());
            }
        } catch (IOException e) {
            throw new SubjectException("cannot run taskset: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SubjectException("interrupted while pinning CPUs", e);
        }
    }
}
