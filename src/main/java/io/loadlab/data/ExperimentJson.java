package io.loadlab.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * An experiment's {@code experiment.json}, the one reader and writer of its fields: the header
 * (format version, status, start, plan, warnings, command line, import and rerun provenance), the
 * {@link SpecSection spec} and the {@link EnvironmentSection environment}. The runner, the import
 * and the rerun fill it in through its typed methods; {@link ExperimentStore} writes it (atomically)
 * and {@link ExperimentRecord}, the command line and the notebooks read it.
 *
 * <p>The document keeps the JSON tree it was read from, so that a field written by another version
 * of Loadlab, and the order of the fields, survive a resume or an import that rewrites the file.
 * Not thread-safe: one writer per experiment.
 */
public final class ExperimentJson {

    /** The format's version, 1 for every experiment so far. */
    public static final String VERSION = "loadlab_experiment";
    public static final String IMPORTED = "imported";
    public static final String SPEC = "spec";
    public static final String COMMAND_LINE = "command_line";
    public static final String ENVIRONMENT = "environment";
    /** ISO-8601. */
    public static final String STARTED = "started";
    public static final String STARTED_EPOCH_MS = "started_epoch_ms";
    public static final String PLANNED_RUNS = "planned_runs";
    /** Each planned run as one line: {@code 7 r1 p3 node-http - plaintext}; absent before plans were stored. */
    public static final String PLAN = "plan";
    public static final String SKIPPED_SUBJECTS = "skipped_subjects";
    public static final String WARNINGS = "warnings";
    /** One of {@link Status}. */
    public static final String STATUS = "status";
    public static final String ERROR = "error";
    public static final String ENDED = "ended";
    /** Each session that ran runs: when it ended, its status and the runs recorded then. */
    public static final String SESSIONS = "sessions";
    public static final String RUNS = "runs";
    public static final String IMPORTED_FILES = "imported_files";
    public static final String RERUN_OF = "rerun_of";
    /** What {@code --rounds auto} did: a {@link RoundsAutoOutcome}; absent without it. */
    public static final String ROUNDS_AUTO = "rounds_auto";

    /** The format version this Loadlab writes. */
    public static final int FORMAT = 1;

    /** What {@link #STATUS} says: the experiment's state when the file was last written. */
    public enum Status {
        CREATED, RUNNING, COMPLETED, INTERRUPTED, FAILED, IMPORTED;

        /** The value as stored, such as {@code completed}. */
        public String value() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * What a new experiment's file says before it runs.
     *
     * @param spec            the spec section
     * @param commandLine     the command that made it
     * @param environment     where it runs
     * @param startedEpochMs  when it started, ms since the epoch
     * @param plan            each planned run as one line
     * @param skippedSubjects subjects the patterns matched that cannot run here, with why
     * @param warnings        what makes this machine's figures less trustworthy
     */
    public record Planned(SpecSection spec, List<String> commandLine, EnvironmentSection environment,
                          long startedEpochMs, List<String> plan, List<String> skippedSubjects, List<String> warnings) {
        public Planned {
            commandLine = List.copyOf(commandLine);
            plan = List.copyOf(plan);
            skippedSubjects = List.copyOf(skippedSubjects);
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * The header's facts, as read: what the code and people read besides the two sections.
     *
     * @param version        the format version; 0 when absent
     * @param imported       whether the experiment was imported from tool outputs
     * @param status         the status as stored, "" when absent
     * @param started        ISO-8601, "" when absent
     * @param ended          when the last session ended (ISO-8601), "" when none has
     * @param startedEpochMs when it started, ms since the epoch
     * @param plannedRuns    how many runs were planned
     * @param plan           the stored plan (absent before plans were stored)
     * @param commandLine    the command that made it
     * @param warnings       the warnings recorded
     */
    public record Header(int version, boolean imported, String status, String started, String ended,
                         OptionalLong startedEpochMs,
                         OptionalInt plannedRuns, Optional<List<String>> plan, List<String> commandLine,
                         List<String> warnings) {
        public Header {
            commandLine = List.copyOf(commandLine);
            warnings = List.copyOf(warnings);
            plan = plan.map(List::copyOf);
        }
    }

    /**
     * Where a rerun's spec came from ({@code rerun_of}).
     *
     * @param dir       the recorded folder, absolute
     * @param name      the recorded experiment's name
     * @param started   when it started (ISO-8601), or ""
     * @param gitCommit the Loadlab commit it ran with, or ""
     * @param notes     what differs here that did not stop the rerun
     */
    public record RerunOrigin(String dir, String name, String started, String gitCommit, List<String> notes) {
        public static final String DIR = "dir";
        public static final String NAME = "name";
        public static final String NOTES = "notes";

        public RerunOrigin {
            notes = List.copyOf(notes);
        }
    }

    /**
     * One imported tool output ({@code imported_files}).
     *
     * @param file  where it came from, as given
     * @param tool  the tool's label
     * @param runId the run id of its row
     */
    public record ImportedFile(String file, String tool, int runId) {
        public static final String FILE = "file";
        public static final String TOOL = "tool";
        public static final String RUN_ID = "run_id";
    }

    private final ObjectNode root;

    private ExperimentJson(ObjectNode root) {
        this.root = root;
    }

    /** The file of a new experiment, fields in the order every run has written them. */
    public static ExperimentJson planned(Planned p) {
        ObjectNode o = Json.mapper().createObjectNode();
        o.put(VERSION, FORMAT);
        o.set(SPEC, p.spec().fields());
        strings(o.putArray(COMMAND_LINE), p.commandLine());
        o.set(ENVIRONMENT, p.environment().toJson());
        o.put(STARTED, Instant.ofEpochMilli(p.startedEpochMs()).toString());
        o.put(STARTED_EPOCH_MS, p.startedEpochMs());
        o.put(PLANNED_RUNS, p.plan().size());
        strings(o.putArray(PLAN), p.plan());
        strings(o.putArray(SKIPPED_SUBJECTS), p.skippedSubjects());
        strings(o.putArray(WARNINGS), p.warnings());
        o.put(STATUS, Status.CREATED.value());
        return new ExperimentJson(o);
    }

    /** The file of a new imported experiment: no spec to run (only its name), no plan. */
    public static ExperimentJson imported(String name, List<String> commandLine, long startedEpochMs) {
        ObjectNode o = Json.mapper().createObjectNode();
        o.put(VERSION, FORMAT);
        o.put(IMPORTED, true);
        o.putObject(SPEC).put(SpecSection.NAME, name).put(SpecSection.IMPORTED, true);
        strings(o.putArray(COMMAND_LINE), commandLine);
        o.put(STARTED, Instant.ofEpochMilli(startedEpochMs).toString());
        o.put(STARTED_EPOCH_MS, startedEpochMs);
        o.put(STATUS, Status.IMPORTED.value());
        return new ExperimentJson(o);
    }

    /**
     * Reads {@code dir/experiment.json}.
     *
     * @throws DataException when the folder has none, or it cannot be read or is not a JSON object
     */
    public static ExperimentJson read(Path dir) {
        Path file = dir.resolve(ExperimentStore.SPEC_FILE);
        if (!Files.isRegularFile(file)) {
            throw new DataException(dir + " is not an experiment folder: it has no " + ExperimentStore.SPEC_FILE
                    + " (experiments are the folders under data/, such as data/sample)");
        }
        return parse(file);
    }

    /** Reads a file known to exist. */
    static ExperimentJson parse(Path file) {
        JsonNode json;
        try {
            json = Json.mapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new DataException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (!(json instanceof ObjectNode o)) {
            throw new DataException("cannot read " + file + ": it is not a JSON object");
        }
        return new ExperimentJson(o);
    }

    /** The document as written, for {@link ExperimentStore} (and tests). */
    ObjectNode tree() {
        return root;
    }

    /** The whole document as indented JSON text, as the file holds it. */
    public String text() {
        try {
            return Json.mapper().writeValueAsString(root);
        } catch (IOException e) {
            throw new DataException("cannot write experiment.json: " + e.getMessage(), e);
        }
    }

    /** The header's facts. */
    public Header header() {
        List<String> plan = new ArrayList<>();
        root.path(PLAN).forEach(r -> plan.add(r.asText()));
        return new Header(root.path(VERSION).asInt(0), root.path(IMPORTED).asBoolean(false) || spec().imported(),
                root.path(STATUS).asText(""), root.path(STARTED).asText(""), root.path(ENDED).asText(""),
                root.hasNonNull(STARTED_EPOCH_MS) ? OptionalLong.of(root.get(STARTED_EPOCH_MS).asLong()) : OptionalLong.empty(),
                root.hasNonNull(PLANNED_RUNS) ? OptionalInt.of(root.get(PLANNED_RUNS).asInt()) : OptionalInt.empty(),
                root.path(PLAN).isArray() ? Optional.of(plan) : Optional.empty(), texts(root.path(COMMAND_LINE)),
                texts(root.path(WARNINGS)));
    }

    /** The spec section; an empty one when the file has none. */
    public SpecSection spec() {
        JsonNode s = root.path(SPEC);
        return new SpecSection(s instanceof ObjectNode o ? o : Json.mapper().createObjectNode());
    }

    /** The environment section; an empty one when the file has none. */
    public EnvironmentSection environment() {
        return EnvironmentSection.of(root.path(ENVIRONMENT));
    }

    /** Where a rerun's spec came from, when the experiment is a rerun. */
    public Optional<RerunOrigin> rerunOf() {
        JsonNode r = root.path(RERUN_OF);
        if (!r.isObject()) {
            return Optional.empty();
        }
        return Optional.of(new RerunOrigin(r.path(RerunOrigin.DIR).asText(""), r.path(RerunOrigin.NAME).asText(""),
                r.path(STARTED).asText(""), r.path(EnvironmentSection.GIT_COMMIT).asText(""),
                texts(r.path(RerunOrigin.NOTES))));
    }

    /** Sets the status ({@code running} when a session starts). */
    public void status(Status status) {
        root.put(STATUS, status.value());
    }

    /** Records what stopped the experiment (its status is then {@code failed}). */
    public void error(String message) {
        root.put(ERROR, message);
    }

    /** Ends a session: the status, when it ended, and the session with the runs it recorded. */
    public void endSession(Status status, int runs) {
        root.put(STATUS, status.value());
        root.put(ENDED, Instant.now().toString());
        root.withArray(SESSIONS).addObject().put(ENDED, Instant.now().toString()).put(STATUS, status.value())
                .put(RUNS, runs);
    }

    /** Records what {@code --rounds auto} did so far, over what an earlier look recorded. */
    public void roundsAuto(RoundsAutoOutcome outcome) {
        outcome.write(root.putObject(ROUNDS_AUTO));
    }

    /**
     * What {@code --rounds auto} did, when the experiment ran with it and looked at least once.
     *
     * @throws DataException when the recorded reason to stop is not one Loadlab writes
     */
    public Optional<RoundsAutoOutcome> roundsAuto() {
        JsonNode r = root.path(ROUNDS_AUTO);
        return r.isObject() ? Optional.of(RoundsAutoOutcome.read(r)) : Optional.empty();
    }

    /** Adds the warnings not recorded yet (a resumed experiment's machine may warn of more). */
    public void addWarnings(List<String> warnings) {
        ArrayNode w = root.withArray(WARNINGS);
        for (String warning : warnings) {
            boolean known = false;
            for (JsonNode old : w) {
                known |= old.asText().equals(warning);
            }
            if (!known) {
                w.add(warning);
            }
        }
    }

    /**
     * Records where a rerun's spec came from.
     *
     * @throws IllegalStateException when the file records it already
     */
    public void rerunOf(RerunOrigin origin) {
        if (root.has(RERUN_OF)) {
            throw new IllegalStateException("experiment.json already has '" + RERUN_OF + "'");
        }
        ObjectNode of = root.putObject(RERUN_OF);
        of.put(RerunOrigin.DIR, origin.dir());
        of.put(RerunOrigin.NAME, origin.name());
        of.put(STARTED, origin.started());
        of.put(EnvironmentSection.GIT_COMMIT, origin.gitCommit());
        origin.notes().forEach(of.withArray(RerunOrigin.NOTES)::add);
    }

    /**
     * Sets machine facts of an imported experiment over those recorded; each fact in
     * {@code unknown} that has no value yet gets {@code placeholder}.
     *
     * @param given field name ({@link EnvironmentSection#MACHINE}) to value
     */
    public void machineFacts(Map<String, String> given, List<String> unknown, String placeholder) {
        ObjectNode env = root.has(ENVIRONMENT) ? (ObjectNode) root.get(ENVIRONMENT) : root.putObject(ENVIRONMENT);
        for (String key : unknown) {
            if (given.containsKey(key)) {
                env.put(key, given.get(key));
            } else if (!env.hasNonNull(key) || env.get(key).asText().isBlank()) {
                env.put(key, placeholder);
            }
        }
    }

    /**
     * Sets a version under {@code subject_versions} or {@code engine_versions}: the given one, or
     * {@code placeholder} when none is given and none is recorded.
     *
     * @param field {@link EnvironmentSection#SUBJECT_VERSIONS} or {@link EnvironmentSection#ENGINE_VERSIONS}
     */
    public void version(String field, String name, Optional<String> given, String placeholder) {
        if (!field.equals(EnvironmentSection.SUBJECT_VERSIONS) && !field.equals(EnvironmentSection.ENGINE_VERSIONS)) {
            throw new IllegalArgumentException("not a field of versions: " + field);
        }
        ObjectNode env = (ObjectNode) root.get(ENVIRONMENT);
        ObjectNode versions = env.has(field) ? (ObjectNode) env.get(field) : env.putObject(field);
        if (given.isPresent()) {
            versions.put(name, given.get());
        } else if (!versions.hasNonNull(name) || versions.get(name).asText().isBlank()) {
            versions.put(name, placeholder);
        }
    }

    /** Appends imported outputs to {@code imported_files}. */
    public void importedFiles(List<ImportedFile> files) {
        ArrayNode imported = root.has(IMPORTED_FILES) ? (ArrayNode) root.get(IMPORTED_FILES) : root.putArray(IMPORTED_FILES);
        for (ImportedFile f : files) {
            imported.addObject().put(ImportedFile.FILE, f.file()).put(ImportedFile.TOOL, f.tool())
                    .put(ImportedFile.RUN_ID, f.runId());
        }
    }

    /** {@code ExperimentJson[sample: completed]}. */
    @Override
    public String toString() {
        return "ExperimentJson[" + spec().name().orElse("?") + ": " + root.path(STATUS).asText("?") + "]";
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
