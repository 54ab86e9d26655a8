package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.data.ExperimentJson;
import io.loadlab.data.ExperimentStore;
import io.loadlab.data.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The spec section as SpecJson writes it, held against every committed experiment's. */
class SpecJsonTest {

    private static final Path DATA = Path.of(System.getProperty("user.dir")).resolve("data");

    /**
     * Read into a spec and written again, each committed spec keeps every field it has, with the
     * same value, in the same order; fields added since (such as pace_slack_us) come with the
     * value that older experiments ran with.
     */
    @Test
    void everyCommittedSpecIsWrittenAgainAsStored() throws IOException {
        List<Path> dirs;
        try (Stream<Path> s = Files.list(DATA)) {
            dirs = s.filter(d -> Files.isRegularFile(d.resolve(ExperimentStore.SPEC_FILE))).sorted().toList();
        }
        assertTrue(dirs.size() >= 5, dirs.toString());
        for (Path dir : dirs) {
            ObjectNode stored = ExperimentJson.read(dir).spec().fields();
            ObjectNode again = ExperimentSpec.fromJson(ExperimentJson.read(dir).spec()).toJson().fields();
            List<String> order = iterate(again).stream().filter(stored::has).toList();
            assertEquals(iterate(stored), order, dir + ": the order of the fields");
            ObjectNode kept = again.deepCopy();
            kept.retain(iterate(stored));
            assertEquals(Json.mapper().writeValueAsString(stored), Json.mapper().writeValueAsString(kept), dir.toString());
        }
    }

    /** A project's spec keeps the file, its text and the revisions' commits through experiment.json. */
    @Test
    void aProjectIsStoredAndReadBack() {
        io.loadlab.project.ProjectRef ref = new io.loadlab.project.ProjectRef(Path.of("/tmp/p/loadlab.yaml"),
                "name: p\nsubjects: {}\n", java.util.Map.of("api@v1", "0123abcd", "api@HEAD", "4567ef01"));
        ExperimentSpec spec = ExperimentSpec.builder().name("p-1").subjects(".*").workloads(".*").project(ref).build();
        ExperimentSpec back = ExperimentSpec.fromJson(spec.toJson());
        assertEquals(java.util.Optional.of(ref), back.selection().project());
        assertEquals(java.util.Optional.empty(), ExperimentSpec.fromJson(ExperimentSpec.builder().name("b").build()
                .toJson()).selection().project());
    }

    @Test
    void roundsAutoIsStoredAndReadBackWithTheMostRoundsAsRounds() {
        AutoRounds auto = new AutoRounds(7, java.util.Optional.of(java.time.Duration.ofMinutes(5)));
        ExperimentSpec spec = ExperimentSpec.builder().name("a").rounds(3).autoRounds(auto).build();
        assertEquals(7, spec.rounds());
        ExperimentSpec back = ExperimentSpec.fromJson(spec.toJson());
        assertEquals(java.util.Optional.of(auto), back.autoRounds());
        assertEquals(7, back.rounds());
        assertEquals(java.util.Optional.empty(), ExperimentSpec.fromJson(ExperimentSpec.builder().name("b").build()
                .toJson()).autoRounds());
        ExperimentException e = org.junit.jupiter.api.Assertions.assertThrows(ExperimentException.class,
                () -> new AutoRounds(2, java.util.Optional.empty()));
        assertEquals("invalid experiment: max-rounds: rounds auto looks after round 3 first, so it needs at least 3,"
                + " got 2", e.getMessage());
    }

    private static List<String> iterate(ObjectNode o) {
        List<String> out = new java.util.ArrayList<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
