package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one reader and writer of experiment.json, held against the committed experiments under data/. */
class ExperimentJsonTest {

    private static final Path DATA = Path.of(System.getProperty("user.dir")).resolve("data");

    @TempDir
    Path tmp;

    private static List<Path> committed() throws IOException {
        try (Stream<Path> dirs = Files.list(DATA)) {
            List<Path> out = dirs.filter(d -> Files.isRegularFile(d.resolve(ExperimentStore.SPEC_FILE))).sorted().toList();
            assertTrue(out.size() >= 5, "committed experiments: " + out);
            return out;
        }
    }

    @Test
    void everyCommittedExperimentReadsBackAndIsWrittenAgainToTheSameBytes() throws IOException {
        for (Path dir : committed()) {
            ExperimentJson json = ExperimentJson.read(dir);
            Path copy = Files.createDirectories(tmp.resolve(dir.getFileName()));
            try (ExperimentStore store = ExperimentStore.create(copy, json, json.header().startedEpochMs().orElseThrow())) {
                store.writeJson(json);
            }
            assertEquals(Files.readString(dir.resolve(ExperimentStore.SPEC_FILE), StandardCharsets.UTF_8),
                    Files.readString(copy.resolve(ExperimentStore.SPEC_FILE), StandardCharsets.UTF_8), dir.toString());
        }
    }

    /**
     * A new experiment's file, made from the sections read back from a committed one, is that file
     * as it was before its runs: the same fields in the same order, the environment's cores a number.
     * (Experiments written before source hashes were recorded are left out: this version writes them.)
     */
    @Test
    void aPlannedExperimentIsWrittenInTheOrderEveryRunHasWrittenIt() throws IOException {
        int checked = 0;
        for (Path dir : committed()) {
            ExperimentJson read = ExperimentJson.read(dir);
            if (!read.tree().path(ExperimentJson.ENVIRONMENT).has(EnvironmentSection.SUBJECT_SOURCES)) {
                continue;
            }
            checked++;
            ExperimentJson.Header h = read.header();
            ExperimentJson planned = ExperimentJson.planned(new ExperimentJson.Planned(read.spec(), h.commandLine(),
                    read.environment(), h.startedEpochMs().orElseThrow(), h.plan().orElseThrow(),
                    texts(read.tree().path(ExperimentJson.SKIPPED_SUBJECTS)), h.warnings()));
            ObjectNode before = read.tree().deepCopy();
            before.remove(List.of(ExperimentJson.ENDED, ExperimentJson.SESSIONS, ExperimentJson.ERROR));
            before.put(ExperimentJson.STATUS, "created");
            assertEquals(Json.mapper().writeValueAsString(before), planned.text(), dir.toString());
        }
        assertTrue(checked >= 3, "experiments with source hashes: " + checked);
    }

    @Test
    void theSectionsOfTheSampleAreTyped() {
        ExperimentJson sample = ExperimentJson.read(DATA.resolve("sample"));
        ExperimentJson.Header h = sample.header();
        assertEquals(1, h.version());
        assertFalse(h.imported());
        assertEquals("completed", h.status());
        assertEquals("2026-12-01T23:09:39.794Z", h.started());
        assertEquals(45, h.plannedRuns().orElseThrow());
        assertEquals("1 r1 p1 go-nethttp durability=memory plaintext", h.plan().orElseThrow().get(0));
        assertEquals("loadlab", h.commandLine().get(0));
        assertEquals(Optional.of("sample"), sample.spec().name());
        assertEquals(Optional.of("2s"), sample.spec().text(SpecSection.DURATION));
        assertEquals(Optional.empty(), sample.spec().slo());
        EnvironmentSection env = sample.environment();
        assertEquals("2", env.fact(EnvironmentSection.CORES));
        assertEquals("v20.20.2", env.subjectVersions().get("node-http"));
        assertEquals(new EnvironmentSection.Sources("95d617f47507f9ee", "e86a23132d9dd277", List.of("main.go")),
                env.subjectSources().get("go-nethttp"));
        assertTrue(env.engineVersions().isEmpty());
        assertEquals(Optional.of("5ms"), ExperimentJson.read(DATA.resolve("sweep-sample")).spec().slo());
    }

    @Test
    void anImportedExperimentSaysSoInItsHeaderAndKeepsWhatItWasGiven() {
        ExperimentJson json = ExperimentJson.imported("wrk-runs", List.of("loadlab", "import"), 1_000L);
        json.machineFacts(Map.of(EnvironmentSection.CORES, "8"), List.of(EnvironmentSection.CPU_MODEL,
                EnvironmentSection.CORES), "unknown");
        json.version(EnvironmentSection.ENGINE_VERSIONS, "wrk", Optional.empty(), "unknown");
        json.version(EnvironmentSection.ENGINE_VERSIONS, "wrk", Optional.of("4.2.0"), "unknown");
        json.importedFiles(List.of(new ExperimentJson.ImportedFile("out.txt", "wrk", 1)));
        assertTrue(json.header().imported());
        assertEquals("imported", json.header().status());
        assertEquals("1970-01-01T00:00:01Z", json.header().started());
        assertEquals(Map.of(EnvironmentSection.CPU_MODEL, "unknown", EnvironmentSection.CORES, "8"),
                json.environment().machine());
        assertEquals("4.2.0", json.environment().engineVersions().get("wrk"));
        assertEquals("{\"file\":\"out.txt\",\"tool\":\"wrk\",\"run_id\":1}",
                json.tree().path(ExperimentJson.IMPORTED_FILES).get(0).toString());
        assertThrows(IllegalArgumentException.class,
                () -> json.version("subjects", "x", Optional.empty(), "unknown"));
    }

    @Test
    void aSessionAndARerunOriginAreRecordedOnceEach() {
        ExperimentJson json = ExperimentJson.read(DATA.resolve("sample"));
        json.addWarnings(List.of("one CPU", "one CPU"));
        assertEquals(List.of("one CPU"), json.header().warnings());
        json.endSession(ExperimentJson.Status.INTERRUPTED, 3);
        assertEquals("interrupted", json.header().status());
        assertEquals(2, json.tree().path(ExperimentJson.SESSIONS).size());
        ExperimentJson.RerunOrigin origin = new ExperimentJson.RerunOrigin("/d", "sample", "then", "abc", List.of("n"));
        json.rerunOf(origin);
        assertEquals(Optional.of(origin), json.rerunOf());
        assertThrows(IllegalStateException.class, () -> json.rerunOf(origin));
    }

    @Test
    void aFolderWithoutTheFileOrWithAnotherDocumentIsRefusedWithItsName() throws IOException {
        DataException none = assertThrows(DataException.class, () -> ExperimentJson.read(tmp));
        assertTrue(none.getMessage().contains("is not an experiment folder"), none.getMessage());
        Files.writeString(tmp.resolve(ExperimentStore.SPEC_FILE), "[1, 2]");
        DataException array = assertThrows(DataException.class, () -> ExperimentJson.read(tmp));
        assertTrue(array.getMessage().contains("not a JSON object"), array.getMessage());
    }

    private static List<String> texts(com.fasterxml.jackson.databind.JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
