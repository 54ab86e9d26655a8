package io.loadlab.subject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.loadlab.time.Durations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A subject's manifest, {@code subjects/<name>/subject.yaml}. The format, with every field:
 *
 * <pre>
 * name: go-nethttp                     # must equal the folder name
 * description: Go standard library net/http
 * language: Go (net/http)
 * version: go version                  # optional: prints the toolchain version
 * requires: [go]                       # commands that must be on PATH
 * build:                               # optional: run once, cached by a hash of the sources
 *   command: go build -o {build}/server main.go
 *   sources: [main.go, "*.go"]         # globs relative to the subject folder
 * start: "{build}/server --port {port} --durability {durability} --dir {workdir}"
 * ready: {path: /plaintext, timeout: 60s}
 * workloads: [plaintext, json, bytes-64k, bytes-1m, put-1k, get-kv, delay-10ms]
 * variants: {durability: [memory, fsync], protocol: [h1, h1-tls, h2-tls, h2c]}   # optional; the first
 *                                      # value is the default; protocol's values are those of ServedProtocol
 * warmup: {min: 3s, max: 30s}          # optional: bounds of a steady-state warm-up (JIT servers)
 * </pre>
 *
 * Placeholders in {@code build.command} and {@code start}: {@code {port}}, {@code {cpus}} (taskset
 * list of the server's CPUs), {@code {ncpus}}, {@code {durability}} (and every other variant
 * name), {@code {workdir}} (a fresh scratch folder per process), {@code {build}} (the cached build
 * folder), {@code {cache}} (Loadlab's cache shared by clones, {@code ~/.cache/loadlab}), {@code {dir}}
 * (the subject folder), {@code {home}} (Loadlab's folder), {@code {java}} and {@code {classpath}}
 * (Loadlab's runtime jars), and in {@code start} {@code {protocol}} ({@code h1} without that variant),
 * {@code {cert}} and {@code {key}}: the PEM files of the server certificate (for {@code localhost} and
 * {@code 127.0.0.1}) and its key, signed by the experiment's throw-away CA, for the TLS protocols;
 * {@code -} when the experiment made none. Commands run with {@code bash -c}, every value quoted for the
 * shell (so a manifest never puts a placeholder inside quotes of its own); build and version
 * commands find the tools of {@code <cache>/tools/bin} after the PATH.
 *
 * <p>A project's subjects ({@code loadlab.yaml}, see {@code io.loadlab.project}) are manifests too:
 * {@code commit} is the git commit a revision subject ({@code api@v1.4.0}) was checked out at, and
 * its build is cached by it; {@code attached} marks a server someone else started ({@code url:}).
 */
public record SubjectManifest(String name, String description, String language, Optional<String> versionCommand,
                              List<String> requires, Optional<Build> build, String start, Readiness ready,
                              List<String> workloads, Map<String, List<String>> variants, Path dir,
                              Optional<WarmupBounds> warmup, Optional<String> commit, Optional<Attached> attached) {

    /**
     * A subject that someone else started, which Loadlab only loads: neither built, started, pinned
     * nor stopped by it. Its CPU and RSS are sampled only when a pid is given.
     *
     * @param url     where it answers, {@code http://host:port} (loopback only)
     * @param pid     its process id, when given ({@code pid:})
     * @param pidFile a file holding its process id, read at each start of a round ({@code pid-file:})
     */
    public record Attached(java.net.URI url, java.util.OptionalLong pid, Optional<Path> pidFile) {}

    /** A manifest of a subject that Loadlab builds and starts from its folder (a bundled one's kind). */
    public SubjectManifest(String name, String description, String language, Optional<String> versionCommand,
                           List<String> requires, Optional<Build> build, String start, Readiness ready,
                           List<String> workloads, Map<String, List<String>> variants, Path dir,
                           Optional<WarmupBounds> warmup) {
        this(name, description, language, versionCommand, requires, build, start, ready, workloads, variants, dir,
                warmup, Optional.empty(), Optional.empty());
    }

    /** How to build the subject once; cached by the hash of {@code sources}. */
    public record Build(String command, List<String> sources) {}

    /**
     * The subject's own bounds for a steady-state warm-up: a JIT server may need longer than the
     * experiment's default before its throughput settles. A fixed {@code --warmup} ignores them.
     */
    public record WarmupBounds(Duration min, Duration max) {}

    /** The readiness probe: {@code GET path} must answer 2xx within {@code timeout}. */
    public record Readiness(String path, Duration timeout) {}

    private static final Set<String> FIELDS = Set.of("name", "description", "language", "version", "requires",
            "build", "start", "ready", "workloads", "variants", "warmup");
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");
    // YAML, another format than data.Json's.
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public SubjectManifest {
        requires = List.copyOf(requires);
        workloads = List.copyOf(workloads);
        Map<String, List<String>> v = new LinkedHashMap<>();
        variants.forEach((k, vals) -> v.put(k, List.copyOf(vals)));
        variants = java.util.Collections.unmodifiableMap(v);
    }

    /**
     * Reads and checks {@code dir/subject.yaml}.
     *
     * @param knownWorkloads names a manifest may list under {@code workloads}
     * @throws SubjectException naming the file, the field and what is expected
     */
    public static SubjectManifest read(Path dir, Set<String> knownWorkloads) {
        Path file = dir.resolve("subject.yaml");
        JsonNode root;
        try {
            root = YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new SubjectException(file + ": cannot read the manifest: " + firstLine(e.getMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new SubjectException(file + ": the manifest must be a YAML mapping of fields such as name, start, ready");
        }
        Reader r = new Reader(file + ":", root);
        checkFields(r, FIELDS, Set.of());
        String name = name(r, dir);
        return fields(r, name, () -> r.string("description", true).orElseThrow(),
                () -> r.string("language", true).orElseThrow(), dir, knownWorkloads);
    }

    /**
     * A manifest written inside another file (a project's {@code loadlab.yaml}), under the name it
     * is given there: the fields of a {@code subject.yaml} without {@code name}, with
     * {@code description} (default: the name) and {@code language} (default: {@code unknown})
     * optional.
     *
     * @param node           the subject's YAML mapping
     * @param name           its name (checked by the caller)
     * @param dir            its folder, the value of {@code {dir}}
     * @param where          what errors begin with, such as {@code loadlab.yaml: subject 'api':}
     * @param otherFields    fields the caller reads itself (such as {@code revisions}), left alone here
     * @param knownWorkloads names it may list under {@code workloads}
     * @throws SubjectException one line beginning with {@code where}, naming the field and what is expected
     */
    public static SubjectManifest of(JsonNode node, String name, Path dir, String where, Set<String> otherFields,
                                     Set<String> knownWorkloads) {
        Reader r = new Reader(where, node);
        if (node == null || !node.isObject()) {
            throw new SubjectException(where + " must be a mapping of fields such as start, ready, workloads");
        }
        Set<String> allowed = new java.util.HashSet<>(FIELDS);
        allowed.remove("name");
        checkFields(r, allowed, otherFields);
        return fields(r, name, () -> r.string("description", false).orElse(name),
                () -> r.string("language", false).orElse("unknown"), dir, knownWorkloads);
    }

    /** The fields of a {@code subject.yaml}. */
    public static Set<String> fields() {
        return FIELDS;
    }

    private static void checkFields(Reader r, Set<String> allowed, Set<String> others) {
        for (Iterator<String> it = r.node().fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f) && !others.contains(f)) {
                java.util.TreeSet<String> all = new java.util.TreeSet<>(allowed);
                all.addAll(others);
                throw r.error(f, "is not a manifest field; the fields are " + String.join(", ", all));
            }
        }
    }

    /** The fields after the name, checked in the order of the file format's listing (workloads first). */
    private static SubjectManifest fields(Reader r, String name, java.util.function.Supplier<String> description,
                                          java.util.function.Supplier<String> language, Path dir,
                                          Set<String> knownWorkloads) {
        JsonNode root = r.node();
        List<String> workloads = r.strings("workloads", true);
        for (String w : workloads) {
            if (!knownWorkloads.contains(w)) {
                throw r.error("workloads", "names unknown workload '" + w + "'; known: "
                        + String.join(", ", new java.util.TreeSet<>(knownWorkloads)));
            }
        }
        return new SubjectManifest(name, description.get(), language.get(), r.string("version", false), r.strings("requires", false),
                build(r, root.get("build")), r.string("start", true).orElseThrow(), readiness(r, root.get("ready")),
                workloads, variants(r, root.get("variants")), dir.toAbsolutePath(), warmupBounds(r, root.get("warmup")));
    }

    private static String name(Reader r, Path dir) {
        String name = r.string("name", true).orElseThrow();
        if (!NAME.matcher(name).matches()) {
            throw r.error("name", "must be lower-case letters, digits and dashes, got '" + name + "'");
        }
        String folder = dir.getFileName().toString();
        if (!name.equals(folder)) {
            throw r.error("name", "must equal the folder name '" + folder + "', got '" + name + "'");
        }
        return name;
    }

    private static Optional<Build> build(Reader r, JsonNode b) {
        if (b == null) {
            return Optional.empty();
        }
        if (!b.isObject() || !b.has("command") || !b.get("command").isTextual()) {
            throw r.error("build", "must be a mapping with 'command' (text) and 'sources' (list of globs)");
        }
        List<String> sources = new Reader(r.where(), b).strings("sources", true);
        return Optional.of(new Build(b.get("command").asText(), sources));
    }

    private static Readiness readiness(Reader r, JsonNode ready) {
        if (ready == null || !ready.isObject() || !ready.has("path") || !ready.get("path").asText().startsWith("/")) {
            throw r.error("ready", "must be a mapping with 'path' (starting with /) and optional 'timeout' (such as 60s)");
        }
        try {
            Duration timeout = ready.has("timeout") ? Durations.parse(ready.get("timeout").asText()) : Duration.ofSeconds(60);
            return new Readiness(ready.get("path").asText(), timeout);
        } catch (io.loadlab.time.DurationException e) {
            throw r.error("ready.timeout", e.getMessage());
        }
    }

    private static Map<String, List<String>> variants(Reader r, JsonNode v) {
        Map<String, List<String>> variants = new LinkedHashMap<>();
        if (v == null) {
            return variants;
        }
        if (!v.isObject()) {
            throw r.error("variants", "must be a mapping such as {durability: [memory, fsync]}");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            List<String> values = new Reader(r.where(), v).strings(e.getKey(), true);
            if (values.isEmpty() || !NAME.matcher(e.getKey()).matches()) {
                throw r.error("variants." + e.getKey(), "must be a non-empty list of values under a lower-case name");
            }
            if (e.getKey().equals(ServedProtocol.VARIANT)) {
                for (String p : values) {
                    if (ServedProtocol.parse(p).isEmpty()) {
                        throw r.error("variants.protocol", "names unknown protocol '" + p + "'; the protocols are "
                                + ServedProtocol.labels());
                    }
                }
            }
            variants.put(e.getKey(), values);
        }
        return variants;
    }

    private static Optional<WarmupBounds> warmupBounds(Reader r, JsonNode w) {
        if (w == null) {
            return Optional.empty();
        }
        if (!w.isObject() || !w.has("min") || !w.has("max")) {
            throw r.error("warmup", "must be a mapping with 'min' and 'max' durations, such as {min: 3s, max: 30s}");
        }
        Duration min;
        Duration max;
        try {
            min = Durations.parse(w.get("min").asText());
            max = Durations.parse(w.get("max").asText());
        } catch (io.loadlab.time.DurationException e) {
            throw r.error("warmup", e.getMessage());
        }
        if (max.compareTo(min) < 0) {
            throw r.error("warmup", "max (" + Durations.format(max) + ") must be at least min (" + Durations.format(min) + ")");
        }
        return Optional.of(new WarmupBounds(min, max));
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }

    /** Typed access to one mapping's fields with errors that name the file and field. */
    private record Reader(String where, JsonNode node) {
        SubjectException error(String field, String what) {
            return new SubjectException(where + " field '" + field + "' " + what);
        }

        Optional<String> string(String field, boolean required) {
            JsonNode n = node.get(field);
            if (n == null || n.isNull()) {
                if (required) {
                    throw error(field, "is missing");
                }
                return Optional.empty();
            }
            if (!n.isTextual() || n.asText().isBlank()) {
                throw error(field, "must be non-empty text, got " + n);
            }
            return Optional.of(n.asText());
        }

        List<String> strings(String field, boolean required) {
            JsonNode n = node.get(field);
            if (n == null || n.isNull()) {
                if (required) {
                    throw error(field, "is missing (a list such as [a, b])");
                }
                return List.of();
            }
            if (!n.isArray()) {
                throw error(field, "must be a list such as [a, b], got " + n);
            }
            List<String> out = new ArrayList<>();
            for (JsonNode e : n) {
                if (!e.isTextual()) {
                    throw error(field, "must hold text values, got " + e);
                }
                out.add(e.asText());
            }
            return out;
        }
    }
}
