package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** How {@code loadlab jshell} starts JShell: the agent this Java allows, and the launcher's flags for the snippets' JVM. */
class JshellCommandTest {

    private static final List<String> LAUNCHER = List.of("-XX:-UsePerfData", "-Dio.netty.leakDetection.level=disabled",
            "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:SharedArchiveFile=/nonexistent/loadlab.jsa",
            "-Xlog:disable", "-Xlog:all=warning:stderr");

    @Test
    void theSnippetsJvmGetsTheLauncherFlagsButNotItsArchive() {
        assertEquals(LAUNCHER.subList(0, 4), JshellCommand.remoteFlags(LAUNCHER));
    }

    @Test
    void ourAgentOnlyWhereJshellAllowsIt() {
        // JShell's console, which makes Java 25's JShell refuse other agents, came with Java 21.
        assertEquals(Runtime.version().feature() < 21, JshellCommand.customAgentAllowed());
        assertEquals("jdi:remoteAgent(io.loadlab.cli.JshellAgent)", JshellCommand.execution(true));
        assertEquals("jdi", JshellCommand.execution(false));
    }

    /** The real jshell as loadlab jshell starts it: the snippet loads Netty's native transport without a warning. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void snippetsRunWithTheFlagsAndLoadNettysNativeTransportQuietly(@TempDir Path dir)
            throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(List.of("--execution",
                JshellCommand.execution(JshellCommand.customAgentAllowed())));
        JshellCommand.remoteFlags(LAUNCHER).forEach(f -> options.add("-R" + f));
        String text = JshellRun.run(dir, "System.out.println(\"epoll \" + io.netty.channel.epoll.Epoll.isAvailable()"
                + " + \" leak \" + System.getProperty(\"io.netty.leakDetection.level\"))\n/exit\n", options);
        assertTrue(text.contains("leak disabled"), text);
        assertFalse(text.contains("WARNING"), text);
    }
}
