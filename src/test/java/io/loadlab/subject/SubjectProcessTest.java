package io.loadlab.subject;

import io.loadlab.host.ProcFs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Stopping a subject's processes: by pid, the whole group, whatever they do with SIGTERM. */
@Timeout(value = 1, unit = TimeUnit.MINUTES) // a hang guard only
class SubjectProcessTest {

    /**
     * A shell that ignores SIGTERM, as its children do (they inherit the ignored signal): one
     * child in its tree, one that a subshell re-parented away from it. Each records its pid.
     */
    private static SubjectProcess stubborn(Path tmp, Path pids) {
        String script = "trap '' TERM; (sleep 1000 & echo $! >> " + pids + "); sleep 1000 & echo $! >> " + pids
                + "; echo $$ >> " + pids + "; while :; do sleep 1; done";
        return SubjectProcess.start("stubborn", List.of("bash", "-c", script), tmp, tmp.resolve("log"),
                Optional.empty());
    }

    private static List<Long> awaitPids(Path pids, int n) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < end) {
            if (Files.exists(pids)) {
                List<Long> out = new ArrayList<>();
                for (String l : Files.readAllLines(pids)) {
                    out.add(Long.parseLong(l.trim()));
                }
                if (out.size() >= n) {
                    return out;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the subject did not record " + n + " pids in 20 s");
    }

    /** Running, not a zombie: a killed process whose new parent (init) has not reaped it yet has ended. */
    static boolean running(long pid) {
        return ProcFs.running(pid);
    }

    private static void killLeftovers(List<Long> pids) {
        pids.forEach(p -> ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly));
    }

    @Test
    void aTreeThatIgnoresSigtermIsKilledAfterTheGracePeriodChildrenAndOrphansToo(@TempDir Path tmp) throws Exception {
        Path pids = tmp.resolve("pids");
        SubjectProcess p = stubborn(tmp, pids);
        List<Long> all = awaitPids(pids, 3);
        try {
            assertTrue(all.stream().allMatch(SubjectProcessTest::running));
            long start = System.nanoTime();
            p.close();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(List.of(), all.stream().filter(SubjectProcessTest::running).toList(),
                    "every process of the subject is gone, the re-parented one too");
            assertTrue(millis >= 5000, "SIGTERM was ignored, so SIGKILL came after the 5 s grace period: " + millis);
            assertTrue(ProcessHandle.current().descendants().noneMatch(ProcessHandle::isAlive), "the watchdog is gone");
        } finally {
            killLeftovers(all);
        }
    }

    @Test
    void killAllSkipsTheGracePeriod(@TempDir Path tmp) throws Exception {
        Path pids = tmp.resolve("pids");
        SubjectProcess p = stubborn(tmp, pids);
        List<Long> all = awaitPids(pids, 3);
        try {
            assertEquals(1, SubjectProcess.killAll());
            long start = System.nanoTime();
            p.close();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(List.of(), all.stream().filter(SubjectProcessTest::running).toList());
            assertTrue(millis < 5000, "close did not wait out the grace period for killed processes: " + millis);
            assertEquals(0, SubjectProcess.killAll(), "a closed subject is no longer listed");
        } finally {
            killLeftovers(all);
        }
    }

    @Test
    void aSilentOrFailingReadinessProbeTimesOutWithinItsTimeout(@TempDir Path tmp) throws Exception {
        // A listener that accepts and never answers: each probe must end with the deadline.
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50,
                java.net.InetAddress.getLoopbackAddress())) {
            SubjectProcess p = SubjectProcess.start("silent", List.of("sleep", "1000"), tmp, tmp.resolve("log"),
                    Optional.empty());
            try (p) {
                SubjectException e = assertThrows(SubjectException.class,
                        () -> p.awaitReady("127.0.0.1", silent.getLocalPort(), "/", Duration.ofMillis(700)));
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("was not ready on port [0-9]+ within 700ms"
                        + " \\(last probe: connected, but no answer within ([0-9]+)ms\\)").matcher(e.getMessage());
                assertTrue(m.find(), e.getMessage());
                assertTrue(Integer.parseInt(m.group(1)) <= 700, "a probe waits no longer than the time left: " + m.group());
            }
        }
    }

    /**
     * Regression: on a busy machine the last probe before the deadline, started with 1 ms left,
     * timed out and its "no connection within 1ms" replaced the earlier probe's 500 answer, which
     * said why the subject was not ready.
     */
    @Test
    void aProbeCutShortByTheDeadlineDoesNotHideWhatTheProbeBeforeFound(@TempDir Path tmp) throws Exception {
        // Answers the first connection with 500, then accepts no more: later probes connect (the
        // kernel's backlog) but get no answer, until the deadline cuts the last one short.
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread answerer = new Thread(() -> {
                try (java.net.Socket s = server.accept()) {
                    s.getInputStream().read(new byte[4096]);
                    s.getOutputStream().write("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n"
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                } catch (java.io.IOException e) {
                    // the test fails on the message below
                }
            }, "answers-500-once");
            answerer.start();
            SubjectProcess p = SubjectProcess.start("fails-then-silent", List.of("sleep", "1000"), tmp, tmp.resolve("log"),
                    Optional.empty());
            try (p) {
                SubjectException e = assertThrows(SubjectException.class,
                        () -> p.awaitReady("127.0.0.1", server.getLocalPort(), "/", Duration.ofMillis(800)));
                assertTrue(e.getMessage().contains("(last probe: answered 'HTTP/1.1 500')"), e.getMessage());
            }
            answerer.join(5000);
        }
    }

    /**
     * A probe cut short by the deadline still replaces a probe that got less far: a subject that
     * refused connections, then listened without answering, is reported as not answering.
     */
    @Test
    void aProbeCutShortThatGotFurtherReplacesARefusal(@TempDir Path tmp) throws Exception {
        int port = SubjectProcess.freePort();
        java.util.concurrent.CompletableFuture<java.net.ServerSocket> late = new java.util.concurrent.CompletableFuture<>();
        SubjectProcess p = SubjectProcess.start("refuses-then-silent", List.of("sleep", "1000"), tmp, tmp.resolve("log"),
                Optional.empty());
        try (p) {
            // Listens (and never accepts) once the first probe has been refused.
            Thread binder = new Thread(() -> {
                try {
                    Thread.sleep(300);
                    late.complete(new java.net.ServerSocket(port, 50, java.net.InetAddress.getLoopbackAddress()));
                } catch (Exception e) {
                    late.completeExceptionally(e);
                }
            }, "binds-late");
            binder.start();
            SubjectException e = assertThrows(SubjectException.class,
                    () -> p.awaitReady("127.0.0.1", port, "/", Duration.ofMillis(1500)));
            assertTrue(e.getMessage().contains("(last probe: connected, but no answer within "), e.getMessage());
        } finally {
            late.get(5, TimeUnit.SECONDS).close();
        }
    }
}
