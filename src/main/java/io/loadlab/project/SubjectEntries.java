package io.loadlab.project;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadlab.subject.SubjectException;
import io.loadlab.subject.SubjectManifest;
import io.loadlab.time.DurationException;
import io.loadlab.time.Durations;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A project's {@code subjects:}, each checked into a {@link ProjectSubject}. Which kind an entry is
 * follows from its fields: {@code bundled}, {@code dir} or {@code url}, else inline.
 */
final class SubjectEntries {

    static final String REVISIONS = "revisions";
    static final Set<String> URL_FIELDS = Set.of("url", "pid", "pid-file", "ready", "workloads", "description",
            "language");
    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "localhost", "[::1]");
    private static final Duration URL_READY_TIMEOUT = Duration.ofSeconds(30);

    private SubjectEntries() {
    }

    /**
     * @param known the workloads a subject may list: the project's and the bundled ones
     */
    static List<ProjectSubject> parse(JsonNode node, Path folder, String where, Set<String> known) {
        if (node == null || node.isNull()) {
            throw new ProjectException(where + " field 'subjects' is missing; name at least one subject, such as "
                    + "subjects: {api: {start: ..., ready: {path: /}, workloads: [...]}}");
        }
        if (!node.isObject() || node.isEmpty()) {
            throw new ProjectException(where + " field 'subjects' must be a mapping of names to subjects, such as "
                    + "{nginx: {bundled: true}}");
        }
        List<ProjectSubject> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Map.Entry<String, JsonNode> e : new Fields(where, node).entries()) {
            String name = e.getKey();
            String at = where + " subject '" + name + "':";
            if (!ProjectFile.NAME_RULE.matcher(name).matches()) {
                throw new ProjectException(at + " a subject name must be lower-case letters, digits and dashes"
                        + " (a revision is added as name@revision)");
            }
            if (!e.getValue().isObject()) {
                throw new ProjectException(at + " must be a mapping: inline fields (start, ready, workloads, ...),"
                        + " {dir: PATH}, {bundled: true} or {url: http://127.0.0.1:PORT, workloads: [...]}");
            }
            Fields f = new Fields(at, e.getValue());
            ProjectSubject s;
            if (f.has("bundled")) {
                s = bundled(name, f);
            } else if (f.has("dir")) {
                s = folder(name, f, folder, known);
            } else if (f.has("url")) {
                s = attached(name, f, folder, known);
            } else {
                s = inline(name, f, folder, known);
            }
            for (String n : expandedNames(s)) {
                if (!names.add(n)) {
                    throw new ProjectException(at + " the subject name '" + n + "' comes twice; list each revision once");
                }
            }
            out.add(s);
        }
        return out;
    }

    /** The names a subject runs under: {@code api@v1} and {@code api@HEAD} for revisions, else its own. */
    static List<String> expandedNames(ProjectSubject s) {
        if (s instanceof ProjectSubject.Inline i && !i.revisions().isEmpty()) {
            return i.revisions().stream().map(r -> i.name() + "@" + r).toList();
        }
        return List.of(s.name());
    }

    private static ProjectSubject bundled(String name, Fields f) {
        f.only(Set.of("bundled"), "a bundled subject");
        JsonNode b = f.node().get("bundled");
        if (!b.isBoolean() || !b.asBoolean()) {
            throw f.error("bundled", "must be true (one of Loadlab's subjects, by its name), got " + b);
        }
        return new ProjectSubject.Bundled(name);
    }

    private static ProjectSubject folder(String name, Fields f, Path folder, Set<String> known) {
        f.only(Set.of("dir"), "a dir: subject (its other fields are in its own subject.yaml)");
        Path dir = folder.resolve(f.required("dir", "../legacy")).normalize();
        if (!Files.isRegularFile(dir.resolve("subject.yaml"))) {
            throw f.error("dir", "names " + dir + ", which has no subject.yaml; give a folder with one, relative to "
                    + folder);
        }
        SubjectManifest m = folderManifest(f.where(), dir, known);
        if (!m.name().equals(name)) {
            throw new ProjectException(f.where() + " its folder's subject.yaml names it '" + m.name()
                    + "'; use that name as the key");
        }
        return new ProjectSubject.Folder(name, dir);
    }

    /** Reads a {@code dir:} subject's own manifest, its errors as the project's. */
    static SubjectManifest folderManifest(String at, Path dir, Set<String> known) {
        try {
            return SubjectManifest.read(dir, known);
        } catch (SubjectException e) {
            throw new ProjectException(at + " " + e.getMessage(), e);
        }
    }

    private static ProjectSubject inline(String name, Fields f, Path folder, Set<String> known) {
        List<String> revisions = f.texts(REVISIONS);
        for (String r : revisions) {
            if (r.startsWith("-") || !r.chars().allMatch(c -> c > 0x20 && c < 0x7f) || r.length() > 200) {
                throw f.error(REVISIONS, "has '" + r.strip() + "', which is not a git revision; name a tag, branch"
                        + " or commit (not starting with '-', without spaces)");
            }
        }
        if (f.has(REVISIONS) && revisions.isEmpty()) {
            throw f.error(REVISIONS, "is empty; list revisions such as [v1.4.0, HEAD], or remove it");
        }
        try {
            SubjectManifest m = SubjectManifest.of(f.node(), name, folder, f.where(), Set.of(REVISIONS), known);
            return new ProjectSubject.Inline(name, m, revisions);
        } catch (SubjectException e) {
            throw new ProjectException(e.getMessage(), e);
        }
    }

    private static ProjectSubject attached(String name, Fields f, Path folder, Set<String> known) {
        f.only(URL_FIELDS, "a url: subject");
        URI url = url(f);
        OptionalLong pid = OptionalLong.empty();
        if (f.has("pid")) {
            JsonNode p = f.node().get("pid");
            if (!p.canConvertToLong() || !p.isIntegralNumber() || p.asLong() <= 0) {
                throw f.error("pid", "must be a positive process id, got " + p);
            }
            pid = OptionalLong.of(p.asLong());
        }
        Optional<Path> pidFile = f.text("pid-file").map(p -> folder.resolve(p).normalize());
        if (pid.isPresent() && pidFile.isPresent()) {
            throw f.error("pid", "and 'pid-file' are both given; keep one");
        }
        SubjectManifest.Readiness ready = new SubjectManifest.Readiness("/", URL_READY_TIMEOUT);
        Optional<Fields> r = f.mapping("ready", "{path: /healthz, timeout: 30s}");
        if (r.isPresent()) {
            Fields rf = r.get().only(Set.of("path", "timeout"), "ready");
            String path = rf.text("path").orElse("/");
            if (!path.startsWith("/")) {
                throw rf.error("path", "must start with '/', got '" + path + "'");
            }
            Duration timeout = URL_READY_TIMEOUT;
            if (rf.has("timeout")) {
                try {
                    timeout = Durations.parse(rf.node().get("timeout").asText());
                } catch (DurationException e) {
                    throw rf.error("timeout", e.getMessage());
                }
            }
            ready = new SubjectManifest.Readiness(path, timeout);
        }
        List<String> workloads = f.texts("workloads");
        if (workloads.isEmpty()) {
            throw f.error("workloads", "is missing (a list such as [list-orders])");
        }
        for (String w : workloads) {
            if (!known.contains(w)) {
                throw f.error("workloads", "names unknown workload '" + w + "'; known: "
                        + String.join(", ", new java.util.TreeSet<>(known)));
            }
        }
        SubjectManifest m = new SubjectManifest(name, f.text("description").orElse(name),
                f.text("language").orElse("unknown"), Optional.empty(), List.of(), Optional.empty(), "", ready,
                workloads, Map.of(), folder, Optional.empty(), Optional.empty(),
                Optional.of(new SubjectManifest.Attached(url, pid, pidFile)));
        return new ProjectSubject.Attached(name, m);
    }

    /** {@code http://127.0.0.1:PORT} (or localhost, [::1]), nothing after the port but an optional '/'. */
    private static URI url(Fields f) {
        String text = f.required("url", "http://127.0.0.1:8080");
        String expected = "; give http://127.0.0.1:PORT (or localhost, [::1]) with no path";
        URI u;
        try {
            u = new URI(text);
        } catch (URISyntaxException e) {
            throw f.error("url", "'" + text + "' is not a URL" + expected);
        }
        if (!"http".equals(u.getScheme()) || u.getHost() == null || !LOOPBACK.contains(u.getHost())
                || u.getRawUserInfo() != null) {
            throw f.error("url", "'" + text + "' is not an http URL of this machine's loopback" + expected);
        }
        if (u.getPort() < 1 || u.getPort() > 65535) {
            throw f.error("url", "'" + text + "' needs a port" + expected);
        }
        if (!(u.getRawPath() == null || u.getRawPath().isEmpty() || u.getRawPath().equals("/"))
                || u.getRawQuery() != null || u.getRawFragment() != null) {
            throw f.error("url", "'" + text + "' has a path; workloads give the paths" + expected);
        }
        return URI.create("http://" + u.getHost() + ":" + u.getPort());
    }
}
