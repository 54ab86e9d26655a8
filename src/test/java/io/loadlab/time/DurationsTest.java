package io.loadlab.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({"500ms, 500000000", "10s, 10000000000", "10, 10000000000", "1.5s, 1500000000", "2m, 120000000000",
            "1h, 3600000000000", "250us, 250000", "250µs, 250000", "2m30s, 150000000000", "1h5m, 3900000000000",
            "1m0.5s, 60500000000", "' 3S ', 3000000000"})
    void parsesWhatPeopleWrite(String text, long nanos) {
        assertEquals(Duration.ofNanos(nanos), Durations.parse(text));
    }

    /**
     * experiment.json keeps its durations as {@link Durations#format} writes them and resume reads them
     * back: a run of 150 s was written as 2m30s, which the parser once refused.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 250, 999, 1000, 1500, 59_000, 60_000, 61_000, 150_000, 599_000, 600_000, 601_000,
            3_600_000, 86_400_000})
    void everyFormattedDurationParsesBackToItself(long millis) {
        Duration d = Duration.ofMillis(millis);
        assertEquals(d, Durations.parse(Durations.format(d)), Durations.format(d));
    }

    @ParameterizedTest
    @ValueSource(longs = {1_000, 250_000, 500_000, 1_500_000, 2_250_000})
    void aDurationUnderAMillisecondOrBetweenThemKeepsItsMicroseconds(long nanos) {
        Duration d = Duration.ofNanos(nanos);
        assertEquals(d, Durations.parse(Durations.format(d)), Durations.format(d));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ten", "5 minutes", "2m30", "m30s", "-1s", "1s2", "1d"})
    void refusesAnythingElseWithTheFormsItAccepts(String text) {
        DurationException e = assertThrows(DurationException.class, () -> Durations.parse(text));
        assertEquals("'" + text + "' is not a duration: write it as 500ms, 10s, 2m, 2m30s or 1h", e.getMessage());
    }
}
