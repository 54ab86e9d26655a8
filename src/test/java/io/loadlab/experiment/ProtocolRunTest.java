package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * An experiment over java-netty's four protocol variants: each runs over its protocol (TLS with the
 * experiment's throw-away CA, which the engine trusts without {@code --insecure}), the key-value
 * preload too, and the CA's folder is gone at the end.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
class ProtocolRunTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir"));

    @Test
    void everyProtocolVariantRunsOverItsProtocolWithoutErrors(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("protocols");
        ExperimentSpec spec = ExperimentSpec.builder().name("protocols").subjects("java-netty")
                .workloads("plaintext|get-kv").variants("protocol=.*").streams(4).rounds(1)
                .duration(Duration.ofMillis(1000)).warmup(Duration.ofMillis(300)).cooldown(Duration.ZERO)
                .connections(4).build();
        Runner.Outcome o = Experiment.create(HOME, spec, dir, List.of("test"), new Runner.Progress() { }).execute();
        assertEquals("completed", o.status());

        Table runs = Results.load(dir).runs();
        assertEquals(8, runs.rowCount(), "four protocols, two workloads");
        Map<String, String> expected = Map.of("durability=memory", "http/1.1",
                "durability=memory,protocol=h1-tls", "http/1.1", "durability=memory,protocol=h2-tls", "h2",
                "durability=memory,protocol=h2c", "h2c");
        Map<String, Integer> perVariant = new HashMap<>();
        for (Row r : runs) {
            String what = r.getString("variant") + " " + r.getString("workload");
            assertEquals("ok", r.getString("status"), what + ": " + r.getString("error"));
            assertEquals(expected.get(r.getString("variant")), r.getString("protocol"), what);
            assertTrue(r.getLong("requests") > 0, what);
            for (String e : List.of("errors_connect", "errors_read", "errors_status", "errors_protocol")) {
                assertEquals(0, r.getLong(e), what + " " + e);
            }
            if (r.getString("variant").contains("-tls")) {
                assertEquals(0, r.getLong("errors_tls"), what + " errors_tls");
            } else {
                assertTrue(r.isMissing("errors_tls"), what + ": no TLS, so errors_tls is empty, not 0");
            }
            perVariant.merge(r.getString("variant"), 1, Integer::sum);
        }
        assertEquals(Map.of("durability=memory", 2, "durability=memory,protocol=h1-tls", 2,
                "durability=memory,protocol=h2-tls", 2, "durability=memory,protocol=h2c", 2), perVariant);
        assertFalse(Files.exists(dir.resolve("work").resolve("tls")), "the throw-away CA is removed at the end");
    }
}
