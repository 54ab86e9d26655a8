package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** What {@link ReportCommandTest} needs around the processes it starts: tools, class path, leftovers, output tails. */
final class ReportProcesses {

    private static final Path HOME = Path.of(System.getProperty("user.dir")).toAbsolutePath();

    private ReportProcesses() {
    }

    /** Absent tools skip the test on a developer's machine; in CI (scripts/test installs them) they fail it. */
    static void requireTool(Path tool, String packages) {
        boolean ci = System.getenv("CI") != null && !System.getenv("CI").isEmpty()
                || "1".equals(System.getenv("LOADLAB_REQUIRE_ALL_SUBJECTS"));
        if (!ci) {
            assumeTrue(Files.isExecutable(tool), "needs " + tool + ": apt-get install -y --no-install-recommends " + packages);
        }
        assertTrue(Files.isExecutable(tool), tool + " is missing: apt-get install -y --no-install-recommends " + packages);
    }

    /**
     * Fails when a process whose command line holds {@code marker} is still alive after a grace
     * period; kills those by PID first, so that nothing outlives the test.
     */
    static void assertNoneLeft(String what, String marker) throws InterruptedException {
        List<ProcessHandle> left = withMarker(marker);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            left = withMarker(marker);
        }
        left.forEach(ProcessHandle::destroyForcibly);
        assertTrue(left.isEmpty(), what + "es left running (killed now): "
                + left.stream().map(h -> Long.toString(h.pid())).collect(Collectors.joining(", ")));
    }

    static List<ProcessHandle> withMarker(String marker) {
        long self = ProcessHandle.current().pid();
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive).filter(h -> h.pid() != self)
                .filter(h -> h.info().commandLine().orElse("").contains(marker))
                .collect(Collectors.toList());
    }

    static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Loadlab's classes as Maven built them, and its libraries. */
    static String classpath() {
        return HOME.resolve("target/classes") + File.pathSeparator + HOME.resolve("target/lib") + File.separator + "*";
    }

    static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    static String tail(String text) {
        List<String> lines = new ArrayList<>(text.lines().collect(Collectors.toList()));
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
