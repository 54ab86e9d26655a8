package io.loadlab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loadlab.load.LoadSpec;
import io.loadlab.load.Warmup;
import io.loadlab.subject.SubjectManifest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The checks an agent makes on a peer's order before it acts: each refusal is one line naming the value. */
class OrderCheckTest {

    private static final String URL = "http://127.0.0.1:8080/plaintext";

    @Test
    void aSessionIsACanonicalUuidOnly() {
        String s = UUID.randomUUID().toString();
        assertEquals(s, OrderCheck.session(s));
        for (String bad : List.of(s.toUpperCase(java.util.Locale.ROOT), "../x", "1-1-1-1-1", "", "x\n" + s)) {
            AgentException e = assertThrows(AgentException.class, () -> OrderCheck.session(bad), bad);
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        }
    }

    @Test
    void aScratchNameThatLeavesTheFolderIsRefused(@org.junit.jupiter.api.io.TempDir Path scratch) {
        assertEquals(scratch.resolve("work-a"), OrderCheck.under(scratch, "work-a"));
        for (String bad : List.of("work-x/../../victim", "../victim", "a/b", "/etc")) {
            assertThrows(AgentException.class, () -> OrderCheck.under(scratch, bad), bad);
        }
    }

    @Test
    void loadsAreCappedWithTheCapInTheMessage() {
        LoadSpec ok = LoadSpec.builder().url(URL).connections(64).threads(16).duration(Duration.ofSeconds(10)).build();
        OrderCheck.load(ok, 10_000 + Setup.LIMIT_SLACK_MS, 1);
        assertEquals("threads 17 is over this agent's cap of 16 (4 per CPU of this agent, 16 at least)",
                assertThrows(AgentException.class, () -> OrderCheck.load(ok.toBuilder().threads(17).build(), 1000, 2))
                        .getMessage());
        OrderCheck.load(ok.toBuilder().threads(40).build(), 1000, 10);
        assertEquals("duration_ms 3600001 is over this agent's cap of 3600000", assertThrows(AgentException.class,
                () -> OrderCheck.load(ok.toBuilder().duration(Duration.ofMillis(3_600_001)).build(), 1000, 2))
                .getMessage());
        assertEquals("run_limit_ms 25001 is over this agent's cap of 25000 (warm-up + duration + 15000)",
                assertThrows(AgentException.class, () -> OrderCheck.load(ok, 25_001, 2)).getMessage());
        assertThrows(AgentException.class, () -> OrderCheck.load(ok, 0, 2));
        LoadSpec warm = ok.toBuilder().warmup(new Warmup.Fixed(Duration.ofSeconds(5))).build();
        OrderCheck.load(warm, 30_000, 2);
        assertEquals("connect_timeout_ms 60001 is over this agent's cap of 60000", assertThrows(AgentException.class,
                () -> OrderCheck.load(ok.toBuilder().connectTimeout(Duration.ofMillis(60_001)).build(), 1000, 2))
                .getMessage());
        // A request-count run has no window: the coordinator asks an hour plus the slack.
        LoadSpec count = LoadSpec.builder().url(URL).connections(2).requests(100).build();
        OrderCheck.load(count, Duration.ofHours(1).toMillis() + Setup.LIMIT_SLACK_MS, 1);
    }

    @Test
    void aLaunchMayNameOnlyDeclaredVariantsAndValues() {
        SubjectManifest m = new SubjectManifest("demo", "d", "Bash", Optional.empty(), List.of(), Optional.empty(),
                "true {port}", new SubjectManifest.Readiness("/", Duration.ofSeconds(1)), List.of("plaintext"),
                Map.of("durability", List.of("memory", "fsync")), Path.of("."), Optional.empty());
        OrderCheck.variant(m, Map.of("durability", "fsync"));
        OrderCheck.variant(m, Map.of());
        assertEquals("subject 'demo' has no durability 'memory; touch x; #' here; its values: memory, fsync",
                assertThrows(AgentException.class, () -> OrderCheck.variant(m, Map.of("durability", "memory; touch x; #")))
                        .getMessage());
        assertEquals("subject 'demo' has no variant 'protocol' here; its variants: [durability]",
                assertThrows(AgentException.class, () -> OrderCheck.variant(m, Map.of("protocol", "h1"))).getMessage());
    }

    @Test
    void aPeersTextIsShownOnOneShortLine() {
        assertEquals("a?b", OrderCheck.printable("a\nb"));
        assertEquals(80, OrderCheck.printable("x".repeat(500)).length());
    }
}
