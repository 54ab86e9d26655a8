package io.loadlab.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code environment} section of {@code experiment.json}: where the numbers were measured.
 * The machine's facts by their field names ({@link #MACHINE}, as text; an imported experiment's
 * facts nobody gave say {@code unknown (...)}), each subject's toolchain version and source
 * hashes, and each external engine's version. Immutable.
 *
 * @param machine         field name to value, in {@link #MACHINE}'s order, only those recorded
 * @param subjectVersions subject to the version of its toolchain
 * @param subjectSources  subject to the hashes of what it was made of
 * @param engineVersions  engine label to its version (external engines and imported tools)
 */
public record EnvironmentSection(Map<String, String> machine, Map<String, String> subjectVersions,
                                 Map<String, Sources> subjectSources, Map<String, String> engineVersions) {

    public static final String CPU_MODEL = "cpu_model";
    /** A count, stored as a number by a run (as the text given by an import). */
    public static final String CORES = "cores";
    public static final String KERNEL = "kernel";
    public static final String OS = "os";
    public static final String JVM = "jvm";
    public static final String LOADLAB_VERSION = "loadlab_version";
    public static final String GIT_COMMIT = "git_commit";
    public static final String PINNING = "pinning";
    public static final String CPU_GOVERNOR = "cpu_governor";
    public static final String CPU_BOOST = "cpu_boost";
    public static final String SUBJECT_VERSIONS = "subject_versions";
    public static final String ENGINE_VERSIONS = "engine_versions";
    public static final String SUBJECT_SOURCES = "subject_sources";

    /** The machine's facts, in the order a run writes them (the subjects' versions come after git_commit). */
    public static final List<String> MACHINE = List.of(CPU_MODEL, CORES, KERNEL, OS, JVM, LOADLAB_VERSION, GIT_COMMIT,
            PINNING, CPU_GOVERNOR, CPU_BOOST);

    /**
     * What one subject was made of: hashes of its manifest and of its source files, and those files.
     *
     * @param manifest hash of {@code subject.yaml}
     * @param sources  hash of the source files
     * @param files    the source files, relative to the subject's folder
     */
    public record Sources(String manifest, String sources, List<String> files) {
        public static final String MANIFEST = "manifest";
        public static final String SOURCES = "sources";
        public static final String FILES = "files";

        public Sources {
            files = List.copyOf(files);
        }
    }

    public EnvironmentSection {
        for (String k : machine.keySet()) {
            if (!MACHINE.contains(k)) {
                throw new IllegalArgumentException("'" + k + "' is not a machine fact of experiment.json: one of " + MACHINE);
            }
        }
        machine = Collections.unmodifiableMap(new LinkedHashMap<>(machine));
        subjectVersions = Collections.unmodifiableMap(new LinkedHashMap<>(subjectVersions));
        subjectSources = Collections.unmodifiableMap(new LinkedHashMap<>(subjectSources));
        engineVersions = Collections.unmodifiableMap(new LinkedHashMap<>(engineVersions));
    }

    /** A machine fact's value, empty when not recorded. */
    public String fact(String field) {
        return machine.getOrDefault(field, "");
    }

    /** Reads a stored section; what it lacks is empty. */
    static EnvironmentSection of(JsonNode env) {
        Map<String, String> machine = new LinkedHashMap<>();
        for (String f : MACHINE) {
            if (env.hasNonNull(f)) {
                machine.put(f, env.get(f).asText());
            }
        }
        Map<String, Sources> sources = new LinkedHashMap<>();
        env.path(SUBJECT_SOURCES).fields().forEachRemaining(e -> {
            List<String> files = new java.util.ArrayList<>();
            e.getValue().path(Sources.FILES).forEach(f -> files.add(f.asText()));
            sources.put(e.getKey(), new Sources(e.getValue().path(Sources.MANIFEST).asText("?"),
                    e.getValue().path(Sources.SOURCES).asText("?"), files));
        });
        return new EnvironmentSection(machine, texts(env.path(SUBJECT_VERSIONS)), sources,
                texts(env.path(ENGINE_VERSIONS)));
    }

    /** The section as a run writes it: machine facts, the subjects' versions after git_commit, engines, sources. */
    ObjectNode toJson() {
        ObjectNode o = Json.mapper().createObjectNode();
        for (String f : MACHINE) {
            if (f.equals(PINNING)) {
                ObjectNode v = o.putObject(SUBJECT_VERSIONS);
                subjectVersions.forEach(v::put);
            }
            if (machine.containsKey(f)) {
                String value = machine.get(f);
                if (f.equals(CORES) && value.matches("[0-9]{1,9}")) {
                    o.put(f, Integer.parseInt(value));
                } else {
                    o.put(f, value);
                }
            }
        }
        ObjectNode engines = o.putObject(ENGINE_VERSIONS);
        engineVersions.forEach(engines::put);
        ObjectNode sources = o.putObject(SUBJECT_SOURCES);
        subjectSources.forEach((subject, s) -> {
            ObjectNode n = sources.putObject(subject);
            n.put(Sources.MANIFEST, s.manifest());
            n.put(Sources.SOURCES, s.sources());
            ArrayNode files = n.putArray(Sources.FILES);
            s.files().forEach(files::add);
        });
        return o;
    }

    private static Map<String, String> texts(JsonNode o) {
        Map<String, String> out = new LinkedHashMap<>();
        o.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().isNull() ? "" : e.getValue().asText()));
        return out;
    }
}
