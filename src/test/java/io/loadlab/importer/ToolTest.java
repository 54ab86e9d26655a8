package io.loadlab.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.load.Protocol;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each tool's rules, as the engines read them instead of asking which tool they hold. */
class ToolTest {

    @Test
    void loadlabRunsWrkH2loadAndOhaAndOnlyImportsTheOthers() {
        assertEquals(List.of(Tool.WRK, Tool.OHA, Tool.H2LOAD),
                Arrays.stream(Tool.values()).filter(t -> t.command().isPresent()).toList());
        for (Tool t : List.of(Tool.WRK2, Tool.HEY, Tool.AB)) {
            assertEquals(Optional.of("Loadlab reads " + t.label() + "'s output (loadlab import) but does not run it"),
                    t.cannotRun("/", List.of()));
            assertTrue(t.cannotSpeak(Protocol.HTTP_1_1).isPresent(), t.label());
        }
        assertEquals("-v", Tool.WRK.command().orElseThrow().versionFlag());
    }

    @Test
    void wrkSpeaksHttp11OnlyInWholeSecondsAndDrawsAnyKeys() {
        assertEquals(Optional.of("wrk speaks HTTP/1.1 only, not h2c"), Tool.WRK.cannotSpeak(Protocol.H2C));
        assertEquals(Optional.empty(), Tool.WRK.cannotSpeak(Protocol.HTTP_1_1));
        assertTrue(Tool.WRK.cannotRun("/", List.of(Duration.ZERO, Duration.ofMillis(1500))).orElseThrow()
                .startsWith("wrk takes whole seconds, got 1500 ms"));
        assertEquals(Optional.empty(), Tool.WRK.cannotRun("/kv/{seq}/{rand:0-99999999}",
                List.of(Duration.ofSeconds(2))));
        assertFalse(Tool.WRK.fixedRate());
        assertFalse(Tool.WRK.countsTlsErrorsApart());
    }

    @Test
    void h2loadAndOhaSpeakHttp2AndTakeKeysFromAFile() {
        for (Tool t : List.of(Tool.H2LOAD, Tool.OHA)) {
            for (Protocol p : Protocol.values()) {
                assertEquals(Optional.empty(), t.cannotSpeak(p), t + " " + p);
            }
            assertEquals(Optional.empty(), t.cannotRun("/kv/{rand:0-999}", List.of(Duration.ofMillis(1500))));
            assertTrue(t.cannotRun("/kv/{seq}", List.of()).orElseThrow().startsWith(t.label() + " cannot send"));
            assertTrue(t.cannotRun("/{rand:0-9}/{rand:0-9}", List.of()).orElseThrow().contains("has 2"));
            assertTrue(t.cannotRun("/kv/{rand:1-" + (Tool.MAX_URIS + 1) + "}", List.of()).orElseThrow()
                    .contains((Tool.MAX_URIS + 1) + " keys is more than " + Tool.MAX_URIS));
        }
        assertTrue(Tool.OHA.fixedRate());
        assertFalse(Tool.H2LOAD.fixedRate());
        assertTrue(Tool.OHA.countsTlsErrorsApart());
        assertFalse(Tool.H2LOAD.countsTlsErrorsApart());
    }
}
