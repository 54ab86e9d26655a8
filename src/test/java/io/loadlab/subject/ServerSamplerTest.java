package io.loadlab.subject;

import io.loadlab.host.ProcFs;
import io.loadlab.host.ProcessTreeStats;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the sampler reads of a subject's process tree over a measured window. */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard, not a speed target
class ServerSamplerTest {

    private static final long MIB = 1024 * 1024;

    /**
     * A CPU burner beside the "server" is noise: the sampler counts at least its CPU time, and does
     * not count the server's own (an idle sleep here) nor this JVM's.
     */
    @Test
    void anotherProgramsCpuIsTheWindowsNoise() throws Exception {
        Process idle = new ProcessBuilder("sleep", "60").start();
        Process burner = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        try {
            ServerSampler sampler = new ServerSampler(idle.toHandle(), List.of());
            long before = burnerTicks(burner);
            sampler.windowStarted();
            // Wait until the burner has used half a CPU-second (a condition read from /proc).
            while (burnerTicks(burner) - before < 50) {
                Thread.sleep(20);
            }
            sampler.windowEnded();
            double burned = (burnerTicks(burner) - before) / ProcFs.TICKS_PER_SECOND;
            double noise = sampler.noiseCpuSeconds().orElseThrow();
            // Ticks of 10 ms round each of the readings: allow a few.
            assertTrue(noise >= burned - 0.05, "noise " + noise + " s covers the burner's " + burned + " s");
            assertTrue(sampler.stealSeconds().orElseThrow() >= 0);
            assertTrue(sampler.window().orElseThrow().cpuSeconds() < 0.05, "the idle server used no CPU");
        } finally {
            burner.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            idle.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static long burnerTicks(Process p) {
        return ProcFs.cpuTicks(Long.toString(p.pid())).map(t -> t[0] + t[1]).orElseThrow();
    }

    /**
     * 6c: the peak RSS was VmHWM since the process started, so memory a subject used once before
     * the window (a build, a preload, a start-up cache) showed as the window's peak. A process
     * that touched 300 MiB and gave it back before the window must show its small window peak.
     */
    @Test
    void peakRssIsThePeakWithinTheWindowNotSinceTheProcessStarted() throws Exception {
        String script = "import sys\n"
                + "b = b'x' * (300 << 20)\n" // written bytes: resident, unlike a calloc'd bytearray
                + "del b\n"                     // a large block goes back to the OS (munmap)
                + "print('ready', flush=True)\n"
                + "sys.stdin.read()\n";
        Process p = new ProcessBuilder("python3", "-c", script).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertTrue("ready".equals(out.readLine()), "the helper process started");
            long lifetimePeak = ProcessTreeStats.read(p.toHandle()).orElseThrow().peakRssBytes();
            assertTrue(lifetimePeak > 300 * MIB, "the process did touch 300 MiB: VmHWM " + lifetimePeak / MIB + " MiB");

            ServerSampler sampler = new ServerSampler(p.toHandle());
            sampler.windowStarted();
            sampler.windowEnded();
            long windowPeak = sampler.window().orElseThrow().peakRssBytes();
            assertTrue(windowPeak > 0 && windowPeak < 100 * MIB,
                    "the window's peak is the process's small resident set, not its old high-water mark: "
                            + windowPeak / MIB + " MiB");
        } finally {
            p.getOutputStream().close();
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
    }
}
