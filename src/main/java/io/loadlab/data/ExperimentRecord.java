package io.loadlab.data;

import com.fasterxml.jackson.databind.JsonNode;
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
    private static final List<String[]> MACHINE = List.of(new String[] {EnvironmentSection.CPU_MODEL, "CPU model"},
            new String[] {EnvironmentSection.CORES, "cores"}, new String[] {EnvironmentSection.KERNEL, "kernel"},
            new String[] {EnvironmentSection.OS, "OS"}, new String[] {EnvironmentSection.JVM, "JVM"},
            new String[] {EnvironmentSection.PINNING, "pinning"},
            new String[] {EnvironmentSection.CPU_GOVERNOR, "CPU governor"},
            new String[] {EnvironmentSection.CPU_BOOST, "CPU boost"},
            new String[] {EnvironmentSection.LOADLAB_VERSION, "Loadlab version"},
            new String[] {EnvironmentSection.GIT_COMMIT, "Loadlab commit"});
    /** The spec's settings, as stored; each one's label is its field's name. */
    private static final List<String> SETTINGS = List.of(SpecSection.ROUNDS, SpecSection.ORDER,
            SpecSection.WORKLOAD_ORDER, SpecSection.DURATION, SpecSection.WARMUP, SpecSection.WARMUP_MIN,
            SpecSection.WARMUP_MAX, SpecSection.COOLDOWN, SpecSection.CONNECTIONS, SpecSection.THREADS, SpecSection.RATE,
            SpecSection.PACE_SLACK_US, SpecSection.SERVER_CPUS, SpecSection.LOAD_CPUS, SpecSection.ENGINES);

    public ExperimentRecord {
        facts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    }

    /**
     * Reads {@code dir/experiment.json}.
     *
     * @throws DataException when the folder has none or it cannot be read
     */
    public static ExperimentRecord read(Path dir) {
        ExperimentJson json = ExperimentJson.read(dir);
        boolean imported = json.header().imported();
        Path folder = dir.toAbsolutePath().normalize().getFileName();
        String name = json.spec().name().orElse(folder == null ? dir.toString() : folder.toString());
        return new ExperimentRecord(dir, name, json.header().started(), imported, facts(json, imported));
    }

    private static Map<String, String> facts(ExperimentJson json, boolean imported) {
        Map<String, String> out = new LinkedHashMap<>();
        EnvironmentSection env = json.environment();
        for (String[] f : MACHINE) {
            out.put(f[1], text(env.fact(f[0])));
        }
        env.subjectVersions().forEach((k, v) -> out.put("version of " + k, text(v)));
        env.subjectSources().forEach((k, v) -> out.put("sources of " + k, v.manifest() + " / " + v.sources()));
        env.engineVersions().forEach((k, v) -> out.put("engine " + k, text(v)));
        SpecSection spec = json.spec();
        for (String s : SETTINGS) {
            out.put(s, imported ? "unknown (imported: see the runs)" : setting(spec, s));
        }
        return out;
    }

    /** A stored setting as text; the values the runner reads for absent ones, said in words. */
    private static String setting(SpecSection spec, String field) {
        JsonNode v = spec.value(field);
        if (v.isArray()) {
            List<String> items = new java.util.ArrayList<>();
            v.forEach(x -> items.add(x.asText()));
            return String.join(",", items);
        }
        if (!v.isMissingNode() && !v.isNull()) {
            return v.asText();
        }
        return switch (field) {
            case SpecSection.RATE -> spec.has(SpecSection.RATE) ? "none (closed loop)" : NOT_RECORDED;
            case SpecSection.PACE_SLACK_US -> "0 (stored before the slack: paced to the ns)";
            case SpecSection.SERVER_CPUS, SpecSection.LOAD_CPUS -> spec.has(field) ? "default split" : NOT_RECORDED;
            case SpecSection.WORKLOAD_ORDER -> "fixed (listing order)";
            case SpecSection.ENGINES -> "builtin";
            case SpecSection.WARMUP_MIN, SpecSection.WARMUP_MAX -> "none (fixed warm-up)";
            default -> NOT_RECORDED;
        };
    }

    private static String text(String v) {
        return v == null || v.isBlank() ? NOT_RECORDED : v;
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
