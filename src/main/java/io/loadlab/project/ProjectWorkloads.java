package io.loadlab.project;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadlab.load.RequestTemplate;
import io.loadlab.workload.Workload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** A project's {@code workloads:}, each checked into a {@link Workload}. */
final class ProjectWorkloads {

    static final Set<String> FIELDS = Set.of("description", "method", "path", "headers", "body", "body-file", "expect");
    static final Set<String> EXPECT_FIELDS = Set.of("status", "body-contains");

    /** The same rules as the engine's request template (load.RequestTemplate), checked here to fail on the file. */
    private static final Pattern METHOD = Pattern.compile("[A-Z]{1,20}");
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    /** Headers the engine writes itself from the body it sends. */
    private static final Set<String> ENGINE_HEADERS = Set.of("content-length", "transfer-encoding");
    private static final Set<Integer> DEFAULT_STATUS = IntStream.rangeClosed(200, 299).boxed()
            .collect(Collectors.toUnmodifiableSet());

    private ProjectWorkloads() {
    }

    /**
     * @param node   the {@code workloads} mapping, or null when absent
     * @param folder the project file's folder, against which {@code body-file} resolves
     * @param where  what errors begin with ({@code loadlab.yaml:})
     */
    static List<Workload> parse(JsonNode node, Path folder, String where) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isObject()) {
            throw new ProjectException(where + " field 'workloads' must be a mapping of names to requests, such as "
                    + "{list-orders: {path: /api/orders}}");
        }
        Set<String> builtin = Workload.builtinNames();
        List<Workload> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : new Fields(where, node).entries()) {
            String name = e.getKey();
            if (!ProjectFile.NAME_RULE.matcher(name).matches()) {
                throw new ProjectException(where + " workload '" + name
                        + "': a workload name must be lower-case letters, digits and dashes");
            }
            if (builtin.contains(name)) {
                throw new ProjectException(where + " workload '" + name + "' has the name of a bundled workload;"
                        + " rename it (the bundled ones: " + String.join(", ", new java.util.TreeSet<>(builtin)) + ")");
            }
            if (!e.getValue().isObject()) {
                throw new ProjectException(where + " workload '" + name + "' must be a mapping such as "
                        + "{method: POST, path: /api/orders, body: '{}'}");
            }
            out.add(workload(name, new Fields(where + " workload '" + name + "':", e.getValue()), folder));
        }
        return out;
    }

    private static Workload workload(String name, Fields f, Path folder) {
        f.only(FIELDS, "a workload");
        String method = f.text("method").orElse("GET");
        if (!METHOD.matcher(method).matches()) {
            throw f.error("method", "must be an HTTP method in capitals such as GET or POST, got '" + method + "'");
        }
        String path = f.required("path", "/api/orders");
        checkPath(f, path);
        List<String> headers = headers(f);
        Workload.RequestBody body = body(f, folder);
        Set<Integer> status = DEFAULT_STATUS;
        Optional<String> contains = Optional.empty();
        Optional<Fields> expect = f.mapping("expect", "{status: [200], body-contains: 'ok'}");
        if (expect.isPresent()) {
            Fields x = expect.get().only(EXPECT_FIELDS, "expect");
            if (x.has("status")) {
                status = statuses(x);
            }
            contains = x.text("body-contains");
        }
        String description = f.text("description").orElse(method + " " + path);
        return new Workload(name, description, method, path, headers, body, status, OptionalLong.empty(), contains,
                Optional.empty());
    }

    private static void checkPath(Fields f, String path) {
        if (!path.startsWith("/")) {
            throw f.error("path", "must start with '/', got '" + path + "'");
        }
        RequestTemplate.pathProblem(path).ifPresent(why -> {
            throw f.error("path", why);
        });
    }

    private static List<String> headers(Fields f) {
        Optional<Fields> h = f.mapping("headers", "{Content-Type: application/json}");
        List<String> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Map.Entry<String, JsonNode> e : h.map(Fields::entries).orElse(List.of())) {
            String name = e.getKey();
            JsonNode v = e.getValue();
            if (!HEADER_NAME.matcher(name).matches()) {
                throw f.error("headers", "has '" + name + "', which is not a header name");
            }
            if (ENGINE_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                throw f.error("headers", "sets " + name + ", which the engine writes from the body; remove it");
            }
            if (!seen.add(name.toLowerCase(java.util.Locale.ROOT))) {
                throw f.error("headers", "sets " + name + " twice");
            }
            if (v == null || !v.isValueNode() || v.isNull()
                    || !v.asText().chars().allMatch(c -> c == '\t' || (c >= 0x20 && c != 0x7f))) {
                throw f.error("headers." + name, "must be one line of text, got " + v);
            }
            out.add(name + ": " + v.asText().strip());
        }
        return out;
    }

    private static Workload.RequestBody body(Fields f, Path folder) {
        if (f.has("body") && f.has("body-file")) {
            throw f.error("body", "and 'body-file' are both given; keep one");
        }
        if (f.has("body")) {
            JsonNode b = f.node().get("body");
            if (!b.isValueNode()) {
                throw f.error("body", "must be text (quote JSON: body: '{\"qty\": 1}'), got " + b);
            }
            return new Workload.Literal(b.asText().getBytes(StandardCharsets.UTF_8));
        }
        if (f.has("body-file")) {
            String given = f.required("body-file", "fixtures/order.json");
            Path file = folder.resolve(given).normalize();
            if (!Files.isRegularFile(file)) {
                throw f.error("body-file", "names " + file + ", which is not a file; give a path relative to " + folder);
            }
            try {
                return new Workload.Literal(RequestTemplate.readBody(file));
            } catch (io.loadlab.load.LoadException e) {
                throw f.error("body-file", "names " + e.getMessage());
            }
        }
        return new Workload.Filler(0);
    }

    private static Set<Integer> statuses(Fields x) {
        JsonNode n = x.node().get("status");
        List<JsonNode> items = new ArrayList<>();
        if (n.isArray()) {
            n.forEach(items::add);
        } else {
            items.add(n);
        }
        Set<Integer> out = new LinkedHashSet<>();
        for (JsonNode i : items) {
            if (!i.isIntegralNumber() || i.asInt() < 100 || i.asInt() > 599) {
                throw x.error("status", "must be a list of HTTP statuses from 100 to 599 such as [200, 201], got " + n);
            }
            out.add(i.asInt());
        }
        if (out.isEmpty()) {
            throw x.error("status", "must name at least one status, such as [200]");
        }
        return out;
    }
}
