package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadlab.data.Results;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * {@code loadlab run --rounds auto} on the bundled Java subjects with tiny windows: the rounds it
 * took and why it stopped, in experiment.json and the run's summary, agree with the runs recorded.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
class RoundsAutoRunTest {

    @TempDir
    Path tmp;

    private static CliRun run(Path dir, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("run", "--subjects", "java-httpserver|java-netty",
                "--workloads", "plaintext", "--rounds", "auto", "--duration", "300ms", "--warmup", "200ms",
                "--cooldown", "0s", "-c", "4", "--out", dir.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void stopsWhenDecidedOrAtTheMostRoundsAndRecordsWhich() throws IOException {
        Path dir = tmp.resolve("auto");
        CliRun r = run(dir, "--max-rounds", "4");
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode auto = new ObjectMapper().readTree(dir.resolve("experiment.json").toFile()).path("rounds_auto");
        int taken = auto.path("rounds_taken").asInt();
        String stopped = auto.path("stopped").asText();
        Table runs = Results.load(dir).runs();
        int lastRound = (int) runs.numberColumn("round").max();
        assertEquals(taken, lastRound, auto.toString());
        assertEquals(2 * taken, runs.rowCount(), "each subject once a round: " + auto);
        assertEquals(1, auto.path("comparisons").size(), auto.toString());
        boolean decided = auto.path("comparisons").get(0).path("decided").asBoolean();
        if (stopped.equals("decided")) {
            assertTrue(decided && taken >= 3 && taken <= 4, auto.toString());
        } else {
            assertEquals("max_rounds", stopped, auto.toString());
            assertEquals(4, taken, auto.toString());
            assertTrue(!decided, auto.toString());
        }
        assertEquals(0.05 / 2, auto.path("alpha_per_look").asDouble(), 1e-12, "two looks: after rounds 3 and 4");
        assertEquals("java-httpserver", auto.path("baseline").asText());
        JsonNode spec = new ObjectMapper().readTree(dir.resolve("experiment.json").toFile()).path("spec");
        assertEquals(4, spec.path("rounds").asInt());
        assertEquals(4, spec.path("rounds_auto").path("max_rounds").asInt());
        assertTrue(r.out().contains("rounds auto: " + taken + " rounds of at most 4; stopped: " + stopped), r.out());
        assertTrue(r.out().contains("java-netty"), r.out());
    }

    @Test
    void aBudgetSpentByOneRoundStopsAfterIt() throws IOException {
        Path dir = tmp.resolve("budget");
        CliRun r = run(dir, "--max-rounds", "5", "--budget", "1ms");
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode auto = new ObjectMapper().readTree(dir.resolve("experiment.json").toFile()).path("rounds_auto");
        assertEquals("budget", auto.path("stopped").asText(), auto.toString());
        assertEquals(1, auto.path("rounds_taken").asInt(), auto.toString());
        assertTrue(auto.path("reason").asText().contains("budget of 1ms"), auto.toString());
        assertEquals(2, Results.load(dir).runs().rowCount(), "round 1 only");
        assertEquals("completed", new ObjectMapper().readTree(dir.resolve("experiment.json").toFile())
                .path("status").asText());
    }

    @Test
    void maxRoundsWithoutAutoAndBadValuesAreUsageErrors() {
        CliRun extra = CliRun.of("run", "--rounds", "3", "--max-rounds", "5");
        assertEquals(2, extra.code(), extra.err());
        assertTrue(extra.err().contains("--max-rounds and --budget belong to --rounds auto"), extra.err());
        CliRun word = CliRun.of("run", "--rounds", "many");
        assertEquals(2, word.code(), word.err());
        assertTrue(word.err().contains("--rounds must be a number of rounds or auto, got 'many'"), word.err());
        CliRun few = CliRun.of("run", "--rounds", "auto", "--max-rounds", "2");
        assertTrue(few.code() != 0 && few.err().contains("max-rounds"), few.err());
    }
}
