package io.loadlab.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an experiment's {@code experiment.json} says about where and how its runs were made, as
 * facts people compare side by side: the machine (CPU, cores, kernel, OS, JVM, pinning,
 * governor, boost), Loadlab's version and commit, each subject's version and source hashes, each
 * engine's version, and the spec's settings. A fact the file does not hold is
 * {@link #NOT_RECORDED}; an imported experiment's facts that nobody gave are recorded as unknown
 * ({@code loadlab import --env}); {@link #isUnknown} tells both apart from values, so that two
 * unknowns never read as "the same". Immutable.
 *
 * @param dir      the experiment folder
 * @param name     the experiment's name (the spec's, else the folder's)
 * @param started  when it started (ISO-8601), or ""
 * @param imported whether it was imported from tool outputs (its settings are then unknown)
 * @param facts    label to value, in the order people read them: machine, Loadlab, subjects,
 *                 engines, settings
 */
public record ExperimentRecord(Path dir, String name, String started, boolean imported, Map<String, String> facts) {

    /** The value of a fact the experiment did not record. */
    public static final String NOT_RECORDED = "unknown (not recorded)";
    /** The version of an engine the experiment did not run. */
    public static final String NOT_USED = "not used";
    /** The version or sources of a subject the experiment did not measure. */
    public static final String NOT_MEASURED = "not in this experiment";

    /** The machine's facts: key in experiment.json's environment, label. */
    private static final List<String[]> MACHINE = List.of(new String[] {"cpu_model", "CPU model"},
            new String[] {"cores", "cores"}, new String[] {"kernel", "kernel"}, new String[] {"os", "OS"},
            new String[] {"jvm", "JVM"}, new String[] {"pinning", "pinning"},
            new String[] {"cpu_governor", "CPU governor"}, new String[] {"cpu_boost", "CPU boost"},
            new String[] {"loadlab_version", "Loadlab version"}, new String[] {"git_commit", "Loadlab commit"});
    /** The spec's settings, as stored. */
    private static final List<String> SETTINGS = List.of("rounds", "order", "workload_order", "duration", "warmup",
            "warmup_min", "warmup_max", "cooldown", "connections", "threads", "rate", "pace_slack_us", "server_cpus",
            "load_cpus", "engines");

    public ExperimentRecord {
        facts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    }

    /**
     * Reads {@code dir/experiment.json}.
     *
     * @throws DataException when the folder has none or it cannot be read
     */
    public static ExperimentRecord read(Path dir) {
        Path file = dir.resolve(ExperimentStore.SPEC_FILE);
        if (!Files.isRegularFile(file)) {
            throw new DataException(dir + " is not an experiment folder: it has no " + ExperimentStore.SPEC_FILE
                    + " (experiments are the folders under data/, such as data/sample)");
        }
        JsonNode json;
        try {
            json = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new DataException("cannot read " + file + ": " + e.getMessage(), e);
        }
        boolean imported = json.path("imported").asBoolean(false);
        Path folder = dir.toAbsolutePath().normalize().getFileName();
        String name = json.path("spec").path("name").asText(folder == null ? dir.toString() : folder.toString());
        return new ExperimentRecord(dir, name, json.path("started").asText(""), imported, facts(json, imported));
    }

    private static Map<String, String> facts(JsonNode json, boolean imported) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode env = json.path("environment");
        for (String[] f : MACHINE) {
            out.put(f[1], text(env.path(f[0])));
        }
        env.path("subject_versions").fields().forEachRemaining(e -> out.put("version of " + e.getKey(), text(e.getValue())));
        env.path("subject_sources").fields().forEachRemaining(e -> out.put("sources of " + e.getKey(),
                e.getValue().path("manifest").asText("?") + " / " + e.getValue().path("sources").asText("?")));
        env.path("engine_versions").fields().forEachRemaining(e -> out.put("engine " + e.getKey(), text(e.getValue())));
        JsonNode spec = json.path("spec");
        for (String s : SETTINGS) {
            out.put(s, imported ? "unknown (imported: see the runs)" : setting(spec, s));
        }
        return out;
    }

    /** A stored setting as text; the values the runner reads for absent ones, said in words. */
    private static String setting(JsonNode spec, String field) {
        JsonNode v = spec.path(field);
        if (v.isArray()) {
            List<String> items = new java.util.ArrayList<>();
            v.forEach(x -> items.add(x.asText()));
            return String.join(",", items);
        }
        if (!v.isMissingNode() && !v.isNull()) {
            return v.asText();
        }
        return switch (field) {
            case "rate" -> spec.has("rate") ? "none (closed loop)" : NOT_RECORDED;
            case "pace_slack_us" -> "0 (stored before the slack: paced to the ns)";
            case "server_cpus", "load_cpus" -> spec.has(field) ? "default split" : NOT_RECORDED;
            case "workload_order" -> "fixed (listing order)";
            case "engines" -> "builtin";
            case "warmup_min", "warmup_max" -> "none (fixed warm-up)";
            default -> NOT_RECORDED;
        };
    }

    private static String text(JsonNode v) {
        return v.isMissingNode() || v.isNull() || v.asText().isBlank() ? NOT_RECORDED : v.asText();
    }

    /**
     * The value of a fact, or what its absence means: {@code not used} for the version of an
     * engine this experiment did not run, {@code not in this experiment} for a subject it did not
     * measure (when it records other subjects' versions or sources), else {@link #NOT_RECORDED}.
     */
    public String fact(String name) {
        String v = facts.get(name);
        if (v != null) {
            return v;
        }
        String engines = facts.getOrDefault("engines", NOT_RECORDED);
        if (name.startsWith("engine ") && !isUnknown(engines)
                && !java.util.Arrays.asList(engines.split(",")).contains(name.substring("engine ".length()))) {
            return NOT_USED;
        }
        for (String prefix : List.of("version of ", "sources of ")) {
            if (name.startsWith(prefix) && facts.keySet().stream().anyMatch(k -> k.startsWith(prefix))) {
                return NOT_MEASURED;
            }
        }
        return NOT_RECORDED;
    }

    /** Whether a fact's value says it is not known (not recorded, or not given to an import). */
    public static boolean isUnknown(String value) {
        return value == null || value.isBlank() || value.toLowerCase(Locale.ROOT).startsWith("unknown");
    }

    /** {@code ExperimentRecord[sample (data/sample): 27 facts]}. */
    @Override
    public String toString() {
        return "ExperimentRecord[" + name + " (" + dir + "): " + facts.size() + " facts" + (imported ? ", imported" : "")
                + "]";
    }
}
