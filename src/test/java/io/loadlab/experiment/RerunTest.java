package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadlab.data.ExperimentJson;
import io.loadlab.data.Json;
import io.loadlab.data.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/** {@code loadlab rerun}'s preparation on the committed sample experiment: the same plan, or a refusal. */
class RerunTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir"));
    private static final Path SAMPLE = HOME.resolve("data/sample");

    @TempDir
    Path tmp;

    @Test
    void theRerunOfTheSamplePlansTheRecordedRunsAndSettingsFieldByField() throws IOException {
        Rerun rerun = Rerun.prepare(HOME, SAMPLE, "sample-again");
        ExperimentSpec was = ExperimentSpec.fromJson(ExperimentJson.read(SAMPLE).spec());
        ExperimentSpec now = rerun.spec();
        assertEquals("sample-again", now.name());
        assertEquals(was.selection().subjects(), now.selection().subjects());
        assertEquals(was.selection().workloads(), now.selection().workloads());
        assertEquals(was.selection().variants(), now.selection().variants());
        assertEquals(was.rounds(), now.rounds());
        assertEquals(was.order(), now.order());
        assertEquals(was.seed(), now.seed());
        assertEquals(was.load().duration(), now.load().duration());
        assertEquals(was.load().warmup(), now.load().warmup());
        assertEquals(was.load().cooldown(), now.load().cooldown());
        assertEquals(was.load().connections(), now.load().connections());
        assertEquals(was.load().threads(), now.load().threads());
        assertEquals(was.load().rate(), now.load().rate());
        assertEquals(was.placement().serverCpus(), now.placement().serverCpus());
        assertEquals(was.placement().loadCpus(), now.placement().loadCpus());
        assertEquals(was.generators().engines(), now.generators().engines());
        assertEquals(was.rotateWorkloads(), now.rotateWorkloads());
        // Every recorded run of runs.csv is the run of the same id here: round, position, subject, variant, workload, engine.
        Table runs = Results.load(SAMPLE).runs().sortAscendingOn("run_id");
        List<Plan.Run> plan = rerun.plan().runs();
        assertEquals(runs.rowCount(), plan.size());
        for (int i = 0; i < runs.rowCount(); i++) {
            Plan.Run r = plan.get(i);
            String where = "run " + (i + 1);
            assertEquals(runs.intColumn("run_id").get(i), r.runId(), where);
            assertEquals(runs.intColumn("round").get(i), r.round(), where);
            assertEquals(runs.intColumn("position").get(i), r.position(), where);
            assertEquals(runs.stringColumn("subject").get(i), r.instance().subject().name(), where);
            assertEquals(runs.stringColumn("variant").get(i), r.instance().variantLabel(), where);
            assertEquals(runs.stringColumn("workload").get(i), r.workload().name(), where);
            assertEquals(runs.stringColumn("engine").get(i), r.engine().label(), where);
        }
    }

    @Test
    void theNewExperimentRecordsTheSamePlanAndWhereItCameFrom() throws IOException {
        Rerun rerun = Rerun.prepare(HOME, SAMPLE, "again");
        Path dir = tmp.resolve("again");
        rerun.create(HOME, dir, List.of("loadlab", "rerun", SAMPLE.toString()), new Runner.Progress() { });
        JsonNode json = Json.mapper().readTree(dir.resolve("experiment.json").toFile());
        assertEquals(rerun.recordedPlan().size(), json.path("plan").size());
        for (int i = 0; i < json.path("plan").size(); i++) {
            assertEquals(rerun.recordedPlan().get(i), json.path("plan").get(i).asText(), "run " + (i + 1));
        }
        assertEquals("sample", json.path("rerun_of").path("name").asText());
        assertTrue(json.path("environment").path("subject_sources").has("go-nethttp"), json.toString());
        // The new experiment can itself be rerun with nothing differing: its sources were recorded here.
        Rerun again = Rerun.prepare(HOME, dir, "again-2");
        assertTrue(again.notes().isEmpty(), again.notes().toString());
    }

    @Test
    void aMissingSubjectIsNamedAndNothingRuns() throws IOException {
        Path copy = Files.createDirectories(tmp.resolve("theirs"));
        Files.copy(SAMPLE.resolve("runs.csv"), copy.resolve("runs.csv"));
        String json = Files.readString(SAMPLE.resolve("experiment.json"))
                .replace("\"node-http\" : \"v20.20.2\"", "\"node-http\" : \"v20.20.2\", \"vapor\" : \"4.0\"");
        Files.writeString(copy.resolve("experiment.json"), json);
        ExperimentException e = assertThrows(ExperimentException.class, () -> Rerun.prepare(HOME, copy, "x"));
        assertTrue(e.getMessage().contains("missing subject vapor (no subjects/vapor/subject.yaml here)"), e.getMessage());
        assertTrue(Files.notExists(tmp.resolve("x")));
    }

    @Test
    void anImportedExperimentCannotBeRerun() throws IOException {
        Path copy = Files.createDirectories(tmp.resolve("imported"));
        Files.copy(SAMPLE.resolve("runs.csv"), copy.resolve("runs.csv"));
        Files.writeString(copy.resolve("experiment.json"), "{\"imported\": true, \"spec\": {\"name\": \"imported\"}}");
        ExperimentException e = assertThrows(ExperimentException.class, () -> Rerun.prepare(HOME, copy, "x"));
        assertTrue(e.getMessage().startsWith("cannot rerun " + copy + ": it was imported"), e.getMessage());
    }
}
