package io.loadlab.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What {@link CompilerThreads} reads of a process tree's JIT compiler threads (issue 31). */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard, not a speed target
class CompilerThreadsTest {

    /**
     * A child whose thread calls itself a C2 compiler burns CPU, says how much, and ends: the reading
     * rises by what that thread used (its own /proc figure, as the child read it), and keeps it once the
     * thread has ended, as HotSpot's idle compiler threads do.
     */
    @Test
    void aCompilerThreadsTimeIsCountedAndKeptAfterItEnds() throws Exception {
        String script = "import hashlib, sys, threading\n"
                + "def compile():\n"
                + "    tid = threading.get_native_id()\n"
                + "    open('/proc/self/task/%d/comm' % tid, 'w').write('C2 CompilerThread0')\n"
                + "    print('named', flush=True)\n"
                + "    sys.stdin.readline()\n"
                + "    block = b'x' * (1 << 20)\n"
                + "    used = lambda: sum(int(x) for x in open('/proc/self/task/%d/stat' % tid).read()"
                + ".rsplit(')', 1)[1].split()[11:13])\n"
                + "    while used() < 30:\n" // 0.3 CPU-s, in ticks
                + "        hashlib.sha256(block).digest()\n"
                + "    print(used(), flush=True)\n"
                + "    sys.stdin.readline()\n"
                + "t = threading.Thread(target=compile)\n"
                + "t.start()\n"
                + "t.join()\n"
                + "sys.stdin.readline()\n";
        Process p = new ProcessBuilder("python3", "-c", script).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("named", out.readLine());
            CompilerThreads compilers = new CompilerThreads(p.toHandle());
            double before = compilers.cpuSeconds().orElseThrow();
            p.getOutputStream().write('\n');
            p.getOutputStream().flush();
            double used = Long.parseLong(out.readLine().trim()) / ProcFs.TICKS_PER_SECOND;
            double after = compilers.cpuSeconds().orElseThrow();
            // Ticks of 10 ms round each reading: allow two.
            assertEquals(used - before, after - before, 0.02, "the rise is the thread's own time");
            assertTrue(after - before >= 0.28, "it burned 0.3 CPU-s: " + (after - before));
            // The thread ends (the child then waits on its main thread): its time stays counted.
            p.getOutputStream().write('\n');
            p.getOutputStream().flush();
            waitUntilGone(p, "C2 CompilerThre");
            assertEquals(after, compilers.cpuSeconds().orElseThrow(), 0.0, "an ended thread keeps its time");
        } finally {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A process without compiler threads (not a JVM) has nothing to wait for: empty, not 0. */
    @Test
    void aProcessWithoutCompilerThreadsReadsEmpty() throws Exception {
        Process p = new ProcessBuilder("sleep", "60").start();
        try {
            assertEquals(OptionalDouble.empty(), new CompilerThreads(p.toHandle()).cpuSeconds());
        } finally {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertEquals(OptionalDouble.empty(), new CompilerThreads(p.toHandle()).cpuSeconds(), "a process gone");
    }

    /** This JVM is a HotSpot: its C1 and C2 threads are found by their names. */
    @Test
    void thisJvmsCompilersAreFound() {
        assertTrue(new CompilerThreads(ProcessHandle.current()).cpuSeconds().isPresent(),
                "HotSpot names its compiler threads '" + CompilerThreads.NAME + "...'");
    }

    private static void waitUntilGone(Process p, String name) throws Exception {
        java.nio.file.Path tasks = java.nio.file.Path.of("/proc", Long.toString(p.pid()), "task");
        while (true) {
            boolean found = false;
            try (var ids = java.nio.file.Files.list(tasks)) {
                for (java.nio.file.Path t : ids.toList()) {
                    try {
                        found |= java.nio.file.Files.readString(t.resolve("comm")).startsWith(name);
                    } catch (java.io.IOException e) {
                        // ended meanwhile
                    }
                }
            }
            if (!found) {
                return;
            }
            Thread.onSpinWait();
        }
    }
}
