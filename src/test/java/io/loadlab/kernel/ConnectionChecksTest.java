package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the kernel refuses or warns about in its connection file before it binds anything. */
class ConnectionChecksTest {

    private static final Path FILE = Path.of("/run/kernel-1.json");

    private static KernelConnectionProperties props(String ip, String key) {
        return new KernelConnectionProperties(ip, 1, 2, 3, 4, 5, "tcp", "hmac-sha256", key);
    }

    @Test
    void anEmptyKeyIsRefusedUnlessAllowedOnPurpose() {
        String refusal = ConnectionChecks.refusal(props("127.0.0.1", ""), FILE, false).orElseThrow();
        assertTrue(refusal.contains("the connection file /run/kernel-1.json has an empty key"), refusal);
        assertTrue(refusal.contains("--allow-unsigned") && !refusal.contains("\n"), refusal);
        assertEquals(Optional.empty(), ConnectionChecks.refusal(props("127.0.0.1", ""), FILE, true));
        assertEquals(Optional.empty(), ConnectionChecks.refusal(props("127.0.0.1", "k"), FILE, false));
    }

    @Test
    void anAddressBeyondLoopbackIsWarnedAbout() {
        for (String ip : new String[] {"127.0.0.1", "::1", "localhost"}) {
            assertEquals(Optional.empty(), ConnectionChecks.warning(props(ip, "k"), FILE), ip);
        }
        for (String ip : new String[] {"0.0.0.0", "10.1.2.3", "*"}) {
            String w = ConnectionChecks.warning(props(ip, "k"), FILE).orElseThrow();
            assertTrue(w.startsWith("loadlab kernel: warning: the connection file /run/kernel-1.json binds " + ip
                    + ", beyond loopback"), w);
        }
    }
}
