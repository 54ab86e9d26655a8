package io.loadlab.importer;

import io.loadlab.data.DataException;
import io.loadlab.data.EnvironmentSection;
import io.loadlab.data.ExperimentJson;
import io.loadlab.data.ExperimentStore;
import io.loadlab.data.RunColumn;
import io.loadlab.data.RunRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Appends imported runs to an experiment folder, creating it (with an {@code experiment.json}
 * marked {@code imported}) when it does not exist. Run ids continue after the recorded ones; each
 * imported output is one round of its subject and workload, starting at the given round or the
 * one after the last recorded for that subject, variant and workload. One import per folder at a
 * time: the folder's lock refuses a second (or a run) while one writes it.
 */
public final class ExperimentImport {

    /**
     * The machine facts an import can be given ({@code loadlab import --env cpu=...,cores=...}):
     * the name given, and its key under {@code environment} in experiment.json.
     */
    public static final Map<String, String> ENV_KEYS = orderedKeys("cpu", EnvironmentSection.CPU_MODEL, "cores",
            EnvironmentSection.CORES, "kernel", EnvironmentSection.KERNEL, "os", EnvironmentSection.OS, "jvm",
            EnvironmentSection.JVM, "pinning", EnvironmentSection.PINNING, "governor", EnvironmentSection.CPU_GOVERNOR,
            "boost", EnvironmentSection.CPU_BOOST);

    /**
     * The version facts an import can be given besides the machine's: {@code subject_version}, the
     * imported subject's (under {@code environment.subject_versions}), and {@code tool_version}, the
     * load tool's (under {@code environment.engine_versions}, by the engine column's name).
     */
    public static final List<String> VERSION_KEYS = List.of("subject_version", "tool_version");

    /** What experiment.json holds for a machine fact that nobody gave an import: unknown, never blank. */
    public static final String NOT_GIVEN = "unknown (not given to loadlab import)";

    /** The labels of the imported runs; {@code round} empty for the next round. */
    public record Labels(String subject, String workload, String variant, OptionalInt round) {
        public Labels {
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(workload, "workload");
            variant = variant == null ? "" : variant;
            if (subject.isBlank() || workload.isBlank()) {
                throw new IllegalArgumentException("subject and workload must not be empty");
            }
            if (round.isPresent() && round.getAsInt() < 1) {
                throw new IllegalArgumentException("round must be 1 or more, got " + round.getAsInt());
            }
        }
    }

    /** One output to import: where it came from (for experiment.json) and what it reported. */
    public record Source(String name, ImportedRun run) {}

    private ExperimentImport() {
    }

    /**
     * Appends the runs as rows with status {@code ok}.
     *
     * @return the rows written, in order
     * @throws DataException when the folder holds something that is not an experiment, or cannot be written
     */
    public static List<RunRow> append(Path dir, List<Source> sources, Labels labels, List<String> commandLine) {
        return append(dir, sources, labels, commandLine, Map.of());
    }

    /**
     * Appends the runs, and records the machine facts given (keys of {@link #ENV_KEYS}, such as
     * {@code cpu} and {@code cores}) in experiment.json's environment, over any recorded before.
     * The {@link #VERSION_KEYS} are recorded for the subject of {@code labels} and the tool of the
     * sources. Every fact not given and not recorded before is stored as {@link #NOT_GIVEN}.
     *
     * @throws IllegalArgumentException for a key that is not one of {@link #ENV_KEYS} or
     *                                  {@link #VERSION_KEYS}, an empty value, or a {@code tool_version}
     *                                  given for the outputs of two tools at once
     */
    public static List<RunRow> append(Path dir, List<Source> sources, Labels labels, List<String> commandLine,
                                      Map<String, String> environment) {
        checkEnvironment(environment, sources);
        ExperimentStore.Opened opened = openOrCreate(dir, commandLine);
        // Closed at the end: the store holds the folder's lock against a run or another import.
        try (ExperimentStore store = opened.store()) {
            return append(dir, opened, sources, labels, environment);
        }
    }

    private static List<RunRow> append(Path dir, ExperimentStore.Opened opened, List<Source> sources, Labels labels,
                                       Map<String, String> environment) {
        ExperimentStore store = opened.store();
        ExperimentJson json = opened.experimentJson();
        recordEnvironment(json, environment);
        recordVersions(json, environment, labels.subject(), sources);
        List<Map<String, String>> existing = readRows(dir.resolve(ExperimentStore.RUNS_FILE));
        String experiment = json.spec().name().orElse(existing.isEmpty() ? name(dir)
                : existing.get(0).get(RunColumn.EXPERIMENT.id()));
        int lastId = 0;
        int lastRound = 0;
        Map<Integer, Integer> perRound = new HashMap<>();
        for (Map<String, String> r : existing) {
            lastId = Math.max(lastId, parseInt(r.get(RunColumn.RUN_ID.id())));
            int round = parseInt(r.get(RunColumn.ROUND.id()));
            perRound.merge(round, 1, Integer::sum);
            if (labels.subject().equals(r.get(RunColumn.SUBJECT.id())) && labels.workload().equals(r.get(RunColumn.WORKLOAD.id()))
                    && labels.variant().equals(r.getOrDefault(RunColumn.VARIANT.id(), ""))) {
                lastRound = Math.max(lastRound, round);
            }
        }
        int round = labels.round().orElse(lastRound + 1);
        List<RunRow> written = new ArrayList<>();
        List<ExperimentJson.ImportedFile> imported = new ArrayList<>();
        for (Source source : sources) {
            Map<String, String> v = new HashMap<>(source.run().values());
            v.put(RunColumn.EXPERIMENT.id(), experiment);
            v.put(RunColumn.RUN_ID.id(), Integer.toString(++lastId));
            v.put(RunColumn.ROUND.id(), Integer.toString(round));
            v.put(RunColumn.POSITION.id(), Integer.toString(perRound.merge(round, 1, Integer::sum)));
            v.put(RunColumn.SUBJECT.id(), labels.subject());
            v.put(RunColumn.VARIANT.id(), labels.variant());
            v.put(RunColumn.WORKLOAD.id(), labels.workload());
            v.put(RunColumn.STATUS.id(), RunColumn.Status.OK.value());
            RunRow row = new RunRow(v);
            store.append(row, List.of(), List.of());
            written.add(row);
            imported.add(new ExperimentJson.ImportedFile(source.name(), source.run().tool().label(), lastId));
            round++;
        }
        json.importedFiles(imported);
        store.writeJson(json);
        return written;
    }

    /** The experiment in {@code dir}, or a new one marked imported (no spec to run, no plan). */
    private static ExperimentStore.Opened openOrCreate(Path dir, List<String> commandLine) {
        if (Files.exists(dir.resolve(ExperimentStore.RUNS_FILE)) || Files.exists(dir.resolve(ExperimentStore.SPEC_FILE))) {
            return ExperimentStore.open(dir);
        }
        long now = System.currentTimeMillis();
        ExperimentJson json = ExperimentJson.imported(name(dir), commandLine, now);
        return new ExperimentStore.Opened(ExperimentStore.create(dir, json, now), json, java.util.Set.of());
    }

    private static Map<String, String> orderedKeys(String... pairs) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put(pairs[i], pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    private static void checkEnvironment(Map<String, String> given, List<Source> sources) {
        for (Map.Entry<String, String> e : given.entrySet()) {
            if (!ENV_KEYS.containsKey(e.getKey()) && !VERSION_KEYS.contains(e.getKey())) {
                throw new IllegalArgumentException("unknown environment fact '" + e.getKey() + "': give "
                        + String.join(", ", ENV_KEYS.keySet()) + ", " + String.join(", ", VERSION_KEYS));
            }
            if (e.getValue() == null || e.getValue().isBlank()) {
                throw new IllegalArgumentException("environment fact '" + e.getKey() + "' has no value");
            }
        }
        List<String> tools = tools(sources);
        if (given.containsKey("tool_version") && tools.size() > 1) {
            throw new IllegalArgumentException("tool_version is one tool's version, but these outputs come from "
                    + String.join(" and ", tools) + ": import each tool's outputs on their own");
        }
    }

    /** The tools of the sources, by the engine column's name, in order of first appearance. */
    private static List<String> tools(List<Source> sources) {
        return sources.stream().map(s -> s.run().tool().label()).distinct().toList();
    }

    /**
     * The subject's and the tool's versions where given, under the keys a run records them by;
     * where neither given now nor recorded before, said to be unknown.
     */
    private static void recordVersions(ExperimentJson json, Map<String, String> given, String subject,
                                       List<Source> sources) {
        json.version(EnvironmentSection.SUBJECT_VERSIONS, subject,
                Optional.ofNullable(given.get("subject_version")).map(String::trim), NOT_GIVEN);
        for (String tool : tools(sources)) {
            json.version(EnvironmentSection.ENGINE_VERSIONS, tool,
                    Optional.ofNullable(given.get("tool_version")).map(String::trim), NOT_GIVEN);
        }
    }

    /** The given facts over the recorded ones; the others, where nothing is recorded, said to be unknown. */
    private static void recordEnvironment(ExperimentJson json, Map<String, String> given) {
        Map<String, String> facts = new java.util.LinkedHashMap<>();
        ENV_KEYS.forEach((name, key) -> {
            if (given.containsKey(name)) {
                facts.put(key, given.get(name).trim());
            }
        });
        json.machineFacts(facts, List.copyOf(ENV_KEYS.values()), NOT_GIVEN);
    }

    private static String name(Path dir) {
        Path n = dir.toAbsolutePath().normalize().getFileName();
        return n == null ? "imported" : n.toString();
    }

    private static int parseInt(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException | NullPointerException e) {
            return 0;
        }
    }

    /** The recorded rows as column-to-value maps (only ids and labels are needed). */
    private static List<Map<String, String>> readRows(Path runs) {
        List<String> lines;
        try {
            lines = Files.readAllLines(runs, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DataException("cannot read " + runs + ": " + e.getMessage(), e);
        }
        List<Map<String, String>> rows = new ArrayList<>();
        if (lines.isEmpty()) {
            return rows;
        }
        List<String> header = split(lines.get(0));
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isEmpty()) {
                continue;
            }
            List<String> cells = split(lines.get(i));
            Map<String, String> row = new HashMap<>();
            for (int c = 0; c < header.size() && c < cells.size(); c++) {
                row.put(header.get(c), cells.get(c));
            }
            rows.add(row);
        }
        return rows;
    }

    /** Splits a CSV line written by RunRow.toCsv (fields quoted when they hold , " or a line end). */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    cur.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(ch);
            }
        }
        out.add(cur.toString());
        return out;
    }
}
