package io.loadlab.host;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * CPU time of the JIT compiler threads in a process tree, read from Linux's
 * {@code /proc/PID/task/TID/stat}: what tells a JVM server's plateau from its final level (issue 31).
 *
 * <p>Why threads: a HotSpot server warming up spends a core's worth of time in its C1 and C2
 * compiler threads. Measured on java-netty (demo settings, the server pinned to one core), they used
 * 40-60% of the server's core over its first 3-5 s, then under 2%, while the throughput looked
 * steady enough for the rule before they were done. A JVM names them {@code C1 CompilerThreadN},
 * {@code C2 CompilerThreadN} (and {@code JVMCI CompilerThreadN} with Graal); the kernel keeps the
 * first 15 characters, so the name matched is {@value #NAME}.
 */
public final class CompilerThreads {

    /** What a compiler thread's name contains, as {@code /proc} shows it (15 characters at most). */
    public static final String NAME = "CompilerThre";

    private final ProcessHandle root;
    /** Each compiler thread's CPU ticks at the last reading, by "pid/tid". */
    private final Map<String, Long> last = new HashMap<>();
    private long ticks;
    private boolean found;

    /** @param root the process tree whose compiler threads are read */
    public CompilerThreads(ProcessHandle root) {
        this.root = root;
    }

    /**
     * User plus system CPU time, s, that the tree's compiler threads have used, as far as the
     * readings so far saw them, at the kernel's tick (10 ms). Summed thread by thread, so that the
     * figure never falls when a compiler thread ends: HotSpot stops compiler threads that fall idle
     * and starts new ones later, which count their whole time. Empty while there is no {@code /proc},
     * the root is gone, or no compiler thread was ever seen (not a JVM: nothing to wait for).
     */
    public synchronized OptionalDouble cpuSeconds() {
        if (!ProcessTreeStats.supported() || !root.isAlive()) {
            return OptionalDouble.empty();
        }
        for (ProcessHandle p : ProcessTreeStats.tree(root)) {
            Path tasks = Path.of("/proc", Long.toString(p.pid()), "task");
            try (DirectoryStream<Path> ids = Files.newDirectoryStream(tasks)) {
                for (Path task : ids) {
                    Optional<ProcFs.ThreadCpu> t = ProcFs.thread(task).filter(c -> c.name().contains(NAME));
                    if (t.isPresent()) {
                        Long before = last.put(p.pid() + "/" + task.getFileName(), t.get().ticks());
                        ticks += Math.max(0, t.get().ticks() - (before == null ? 0 : before));
                        found = true;
                    }
                }
            } catch (IOException | SecurityException e) {
                // The process exited meanwhile: its compilers no longer run.
            }
        }
        return found ? OptionalDouble.of(ticks / ProcFs.TICKS_PER_SECOND) : OptionalDouble.empty();
    }
}
