package io.loadlab.project;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.loadlab.workload.Workload;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads and checks a project file, {@code loadlab.yaml}; {@code docs/guide/project-file.md} describes
 * every field. Every error is one line that names the file, the entry and field, and what to change.
 * Stateless and thread-safe.
 */
public final class ProjectFile {

    /** The file {@code loadlab run} looks for in the current folder. */
    public static final String NAME = "loadlab.yaml";

    /** The top-level fields. */
    static final Set<String> FIELDS = Set.of("name", "subjects", "workloads", "plan");
    /** Names of projects, subjects and workloads: those of a {@code subject.yaml}. */
    static final Pattern NAME_RULE = Pattern.compile("[a-z0-9][a-z0-9-]*");
    /** A project file is a page of YAML; this bounds what is read before anything is parsed. */
    static final long MAX_SIZE = 1 << 20;
    private static final String TEMPLATE = "loadlab.yaml.template";
    // Two entries of one name would silently keep the last: refused instead.
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private ProjectFile() {
    }

    /** @throws ProjectException naming the file, the field and what to change */
    public static Project read(Path file) {
        String where = shown(file) + ":";
        try {
            if (!Files.isRegularFile(file)) {
                throw new ProjectException(where + " no such file; `loadlab init` writes a starter one");
            }
            long size = Files.size(file);
            if (size > MAX_SIZE) {
                throw new ProjectException(where + " " + size + " bytes; a project file may have at most " + MAX_SIZE);
            }
            return parse(file, Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ProjectException(where + " cannot read it: " + e.getMessage(), e);
        }
    }

    /** The same from a recorded text; {@code file} gives the folder relative paths resolve against. */
    public static Project parse(Path file, String text) {
        Path abs = file.toAbsolutePath().normalize();
        Path folder = abs.getParent();
        String where = shown(file) + ":";
        JsonNode root;
        try {
            root = YAML.readTree(text);
        } catch (JsonProcessingException e) {
            String line = e.getLocation() == null ? "" : " line " + e.getLocation().getLineNr() + ":";
            String what = firstLine(e.getOriginalMessage());
            throw new ProjectException(where + line + " " + what + (what.startsWith("Duplicate field")
                    ? "; each name may appear once in a mapping" : "; the file must be YAML"), e);
        }
        if (root == null || !root.isObject()) {
            throw new ProjectException(where + " must be a YAML mapping with name, subjects, workloads and plan");
        }
        Fields f = new Fields(where, root).only(FIELDS, "a project file");
        String name = f.required("name", "name: orders");
        if (!NAME_RULE.matcher(name).matches()) {
            throw f.error("name", "must be lower-case letters, digits and dashes (it names data/<name>-<date-time>/), got '"
                    + name + "'");
        }
        List<Workload> workloads = ProjectWorkloads.parse(root.get("workloads"), folder, where);
        Set<String> known = new TreeSet<>(Workload.builtinNames());
        workloads.forEach(w -> known.add(w.name()));
        List<ProjectSubject> subjects = SubjectEntries.parse(root.get("subjects"), folder, where, known);
        return new Project(name, abs, text, subjects, workloads, plan(f));
    }

    /** {@code plan}'s fields, values as text; {@code loadlab run} checks the names against its options. */
    private static Map<String, String> plan(Fields f) {
        Map<String, String> plan = new LinkedHashMap<>();
        if (!f.has("plan")) {
            return plan;
        }
        JsonNode p = f.node().get("plan");
        if (!p.isObject()) {
            throw f.error("plan", "must be a mapping of run options, such as {rounds: 5, duration: 10s}, got " + p);
        }
        for (Map.Entry<String, JsonNode> e : f.mapping("plan", "{rounds: 5}").orElseThrow().entries()) {
            JsonNode v = e.getValue();
            if (!v.isValueNode() || v.isNull()) {
                throw f.error("plan." + e.getKey(), "must be one value such as 5 or 10s, got " + v);
            }
            plan.put(e.getKey(), v.asText());
        }
        return plan;
    }

    /**
     * A commented starter project file, as {@code loadlab init} writes it: it parses as it is.
     *
     * @throws IllegalStateException when the resource is missing from the build (a packaging fault)
     */
    public static String template() {
        try (InputStream in = ProjectFile.class.getResourceAsStream(TEMPLATE)) {
            if (in == null) {
                throw new IllegalStateException("resource io/loadlab/project/" + TEMPLATE + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read io/loadlab/project/" + TEMPLATE, e);
        }
    }

    /** The file as errors name it: relative to the current folder when inside it, else absolute. */
    static String shown(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        Path cwd = Path.of("").toAbsolutePath();
        return abs.startsWith(cwd) && !abs.equals(cwd) ? cwd.relativize(abs).toString() : abs.toString();
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("").strip();
    }
}
