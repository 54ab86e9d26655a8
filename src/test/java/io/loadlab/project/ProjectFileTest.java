package io.loadlab.project;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.subject.Subject;
import io.loadlab.subject.SubjectManifest;
import io.loadlab.workload.Workload;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** loadlab.yaml read into records, and every mistake in it told in one line. */
class ProjectFileTest {

    /** Every kind of subject and of workload; no revisions (those need git: ProjectRevisionsTest). */
    static final String FULL = """
            name: orders
            subjects:
              api:
                build: {command: "go build -o {build}/server ./cmd/server", sources: ["**/*.go", go.mod, go.sum]}
                start: "{build}/server --addr 127.0.0.1:{port}"
                ready: {path: /healthz, timeout: 30s}
                workloads: [create-order, list-orders, plaintext]
              legacy: {dir: ../legacy}
              nginx: {bundled: true}
              ext: {url: "http://127.0.0.1:8080", pid-file: run/ext.pid, ready: {path: /healthz}, workloads: [list-orders]}
            workloads:
              create-order:
                method: POST
                path: "/api/orders/{seq}"
                headers: {Content-Type: application/json, X-Trace: 7}
                body: '{"item": 42, "qty": 1}'
                expect: {status: [201], body-contains: '"id"'}
              list-orders: {path: "/api/orders?limit=10", expect: {status: [200]}}
              upload: {method: PUT, path: "/files/{rand:1-100}", body-file: fixtures/order.json, description: uploads}
            plan: {rounds: 5, duration: 10s, connections: 64}
            """;

    static final String LEGACY = """
            name: legacy
            description: the old server
            language: Bash
            start: "exec true {port}"
            ready: {path: /}
            workloads: [list-orders, json]
            """;

    @TempDir
    Path tmp;

    /** A project folder {@code tmp/repo} with a sibling {@code tmp/legacy} subject and a body fixture. */
    Path project(String text) throws IOException {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(repo.resolve("fixtures"));
        Files.writeString(repo.resolve("fixtures/order.json"), "{\"item\": 7}\n", StandardCharsets.UTF_8);
        Path legacy = Files.createDirectories(tmp.resolve("legacy"));
        Files.writeString(legacy.resolve("subject.yaml"), LEGACY);
        Path file = repo.resolve(ProjectFile.NAME);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void aFullProjectReadsIntoItsRecords() throws IOException {
        Path file = project(FULL);
        Project p = ProjectFile.read(file);
        Path folder = file.getParent().toAbsolutePath();
        assertEquals("orders", p.name());
        assertEquals(file.toAbsolutePath(), p.file());
        assertEquals(FULL, p.text());
        assertEquals(Map.of("rounds", "5", "duration", "10s", "connections", "64"), p.plan());
        assertEquals(List.of("rounds", "duration", "connections"), List.copyOf(p.plan().keySet()), "in file order");

        assertEquals(List.of("api", "legacy", "nginx", "ext"), p.subjects().stream().map(ProjectSubject::name).toList());
        ProjectSubject.Inline api = (ProjectSubject.Inline) p.subjects().get(0);
        SubjectManifest m = api.manifest();
        assertEquals("api", m.name());
        assertEquals("api", m.description(), "description defaults to the name");
        assertEquals("unknown", m.language());
        assertEquals(folder, m.dir(), "{dir} is the project file's folder");
        assertEquals("{build}/server --addr 127.0.0.1:{port}", m.start());
        assertEquals(new SubjectManifest.Build("go build -o {build}/server ./cmd/server", List.of("**/*.go", "go.mod", "go.sum")),
                m.build().orElseThrow());
        assertEquals(new SubjectManifest.Readiness("/healthz", Duration.ofSeconds(30)), m.ready());
        assertEquals(List.of("create-order", "list-orders", "plaintext"), m.workloads());
        assertEquals(List.of(), api.revisions());
        assertTrue(m.commit().isEmpty() && m.attached().isEmpty());

        assertEquals(new ProjectSubject.Folder("legacy", tmp.resolve("legacy").toAbsolutePath()), p.subjects().get(1));
        assertEquals(new ProjectSubject.Bundled("nginx"), p.subjects().get(2));
        ProjectSubject.Attached ext = (ProjectSubject.Attached) p.subjects().get(3);
        SubjectManifest.Attached at = ext.manifest().attached().orElseThrow();
        assertEquals(URI.create("http://127.0.0.1:8080"), at.url());
        assertEquals(OptionalLong.empty(), at.pid());
        assertEquals(Optional.of(folder.resolve("run/ext.pid")), at.pidFile());
        assertEquals(new SubjectManifest.Readiness("/healthz", Duration.ofSeconds(30)), ext.manifest().ready());
        assertEquals(List.of("list-orders"), ext.manifest().workloads());
        assertTrue(ext.manifest().build().isEmpty());
        assertEquals("", ext.manifest().start());

        assertEquals(List.of("create-order", "list-orders", "upload"), p.workloads().stream().map(Workload::name).toList());
        Workload create = p.workloads().get(0);
        assertEquals(new Workload("create-order", "POST /api/orders/{seq}", "POST", "/api/orders/{seq}",
                List.of("Content-Type: application/json", "X-Trace: 7"),
                new Workload.Literal("{\"item\": 42, \"qty\": 1}".getBytes(StandardCharsets.UTF_8)), Set.of(201),
                OptionalLong.empty(), Optional.of("\"id\""), Optional.empty()), create);
        Workload list = p.workloads().get(1);
        assertEquals("GET", list.method());
        assertEquals(Set.of(200), list.expectedStatus());
        assertEquals(new Workload.Filler(0), list.body());
        assertEquals(List.of(), list.headers());
        assertTrue(list.bodyContains().isEmpty());
        Workload upload = p.workloads().get(2);
        assertEquals("uploads", upload.description());
        assertEquals(new Workload.Literal("{\"item\": 7}\n".getBytes(StandardCharsets.UTF_8)), upload.body());
        assertEquals(IntStream.rangeClosed(200, 299).boxed().collect(Collectors.toSet()), upload.expectedStatus(),
                "without expect.status any 2xx is correct");
    }

    @Test
    void theCatalogHoldsTheSubjectsInFileOrderAndTheProjectsWorkloadsFirst() throws IOException {
        Path home = Files.createDirectories(tmp.resolve("home/subjects/nginx"));
        Files.writeString(home.resolve("subject.yaml"), LEGACY.replace("legacy", "nginx").replace("list-orders, ", ""));
        Project p = ProjectFile.read(project(FULL));
        Catalog c = p.catalog(tmp.resolve("home"), Map.of(), tmp.resolve("cache"));
        assertEquals(List.of("api", "legacy", "nginx", "ext"), c.subjects().all().stream().map(Subject::name).toList());
        assertEquals("the old server", c.subjects().byName("legacy").orElseThrow().manifest().description());
        assertTrue(c.subjects().byName("ext").orElseThrow().available());
        List<String> names = c.workloads().stream().map(Workload::name).toList();
        assertEquals(List.of("create-order", "list-orders", "upload"), names.subList(0, 3));
        assertEquals(Workload.builtin(), c.workloads().subList(3, names.size()));
        assertEquals(Map.of(), c.commits());
        assertEquals(Optional.of(p.ref(Map.of())), c.project());
        assertFalse(Files.exists(tmp.resolve("cache")), "nothing checked out without revisions");
        // The recorded project plans the same catalog (what run --resume and rerun use).
        assertEquals(c.subjects().all().stream().map(Subject::name).toList(),
                Catalog.of(tmp.resolve("home"), c.project()).subjects().all().stream().map(Subject::name).toList());
    }

    @Test
    void aBundledSubjectThatDoesNotExistIsOneLine() throws IOException {
        Files.createDirectories(tmp.resolve("home/subjects"));
        Project p = ProjectFile.read(project(FULL));
        ProjectException e = assertThrows(ProjectException.class,
                () -> p.catalog(tmp.resolve("home"), Map.of(), tmp.resolve("cache")));
        assertOneLine(e.getMessage(), "subject 'nginx': Loadlab has no bundled subject 'nginx'");
    }

    @Test
    void eachMistakeIsOneLineNamingTheFileTheFieldAndWhatToDo() throws IOException {
        String[][] cases = {
                {FULL.replace("name: orders\n", ""), "field 'name' is missing"},
                {FULL.replace("name: orders", "name: Orders"), "field 'name' must be lower-case letters"},
                {FULL + "plans: {}\n", "field 'plans' is not a field of a project file; the fields are name, plan, subjects, workloads"},
                {FULL.replace("    start:", "    strat: x\n    start:"),
                        "subject 'api': field 'strat' is not a manifest field; the fields are build, description"},
                {FULL.replace("    method: POST", "    method: POST\n    methd: GET"),
                        "workload 'create-order': field 'methd' is not a field of a workload; the fields are body, body-file"},
                {FULL.replace("expect: {status: [201],", "expect: {statuses: [201],"),
                        "field 'expect.statuses' is not a field of expect; the fields are body-contains, status"},
                {FULL.replace("ready: {path: /healthz}, workloads", "ready: {path: /healthz}, wl: [], workloads"),
                        "subject 'ext': field 'wl' is not a field of a url: subject"},
                {FULL.replace("legacy: {dir: ../legacy}", "legacy: {dir: ../legacy, start: x}"),
                        "subject 'legacy': field 'start' is not a field of a dir: subject"},
                {FULL.replace("  list-orders: {path", "  plaintext: {path"), "workload 'plaintext' has the name of a bundled workload"},
                {FULL.replace("  list-orders: {path", "  create-order: {path"), "line 18: Duplicate field 'create-order'; each name may appear once"},
                {FULL.replace("  nginx: {bundled: true}", "  api: {bundled: true}"), "Duplicate field 'api'"},
                {FULL.replace("[create-order, list-orders, plaintext]", "[create-order, list-ordres]"),
                        "subject 'api': field 'workloads' names unknown workload 'list-ordres'; known: bytes-1m"},
                {FULL.replace("pid-file: run/ext.pid, ready: {path: /healthz}, workloads: [list-orders]",
                        "workloads: [nope]"), "subject 'ext': field 'workloads' names unknown workload 'nope'"},
                {FULL.replace("{dir: ../legacy}", "{dir: ../nowhere}"), "subject 'legacy': field 'dir' names "},
                {FULL.replace("{dir: ../legacy}", "{dir: ../repo}"), "which has no subject.yaml"},
                {FULL.replace("  legacy:", "  old:"), "its folder's subject.yaml names it 'legacy'; use that name as the key"},
                {FULL.replace("  api:\n", "  API:\n"), "subject 'API': a subject name must be lower-case letters"},
                {FULL.replace("plan: {rounds: 5,", "plan: {rounds: [5],"), "field 'plan.rounds' must be one value"},
                {FULL.replace("plan: {rounds: 5, duration: 10s, connections: 64}", "plan: [rounds]"), "field 'plan' must be a mapping"},
                {FULL.replace("http://127.0.0.1:8080", "http://example.com:8080"), "is not an http URL of this machine's loopback"},
                {FULL.replace("http://127.0.0.1:8080", "https://127.0.0.1:8080"), "is not an http URL"},
                {FULL.replace("http://127.0.0.1:8080", "http://localhost:8080/api"), "has a path"},
                {FULL.replace("http://127.0.0.1:8080", "http://[::1]"), "needs a port"},
                {FULL.replace("pid-file: run/ext.pid", "pid: -3"), "field 'pid' must be a positive process id"},
                {FULL.replace("pid-file: run/ext.pid", "pid: 12, pid-file: x"), "field 'pid' and 'pid-file' are both given"},
                {FULL.replace("body-file: fixtures/order.json", "body-file: fixtures/none.json"),
                        "workload 'upload': field 'body-file' names "},
                {FULL.replace("body-file: fixtures/order.json", "body-file: fixtures/order.json, body: x"),
                        "field 'body' and 'body-file' are both given; keep one"},
                {FULL.replace("path: \"/api/orders/{seq}\"", "path: \"api/orders\""), "field 'path' must start with '/'"},
                {FULL.replace("path: \"/api/orders/{seq}\"", "path: \"/api/{id}\""), "has an unknown placeholder; use {seq} or {rand:LO-HI}"},
                {FULL.replace("path: \"/api/orders/{seq}\"", "path: \"/a b\""), "holds a space"},
                {FULL.replace("method: POST", "method: post"), "field 'method' must be an HTTP method in capitals"},
                {FULL.replace("status: [201]", "status: [2010]"), "field 'expect.status' must be a list of HTTP statuses"},
                {FULL.replace("X-Trace: 7", "Content-Length: 7"), "sets Content-Length, which the engine writes from the body"},
                {FULL.replace("revisions", "x").replace("    workloads: [create-order, list-orders, plaintext]",
                        "    workloads: [create-order]\n    revisions: [v1, v1]"), "the subject name 'api@v1' comes twice"},
                {FULL.replace("    workloads: [create-order, list-orders, plaintext]",
                        "    workloads: [create-order]\n    revisions: [--upload-pack=x]"), "field 'revisions' has '--upload-pack=x', which is not a git revision"},
                {FULL.replace("nginx: {bundled: true}", "nginx: {bundled: yes-please}"), "field 'bundled' must be true"},
                {"- a\n- list\n", "must be a YAML mapping"},
                {FULL.replace("subjects:", "subjects: {}\nx-subjects:"), "field 'x-subjects' is not a field"},
                {FULL.replace("name: orders", "name: [orders"), "the file must be YAML"},
        };
        for (String[] c : cases) {
            Path file = project(c[0]);
            ProjectException e = assertThrows(ProjectException.class, () -> ProjectFile.read(file), c[1]);
            assertOneLine(e.getMessage(), c[1]);
            assertTrue(e.getMessage().startsWith(file.toAbsolutePath().toString() + ":"), e.getMessage());
        }
    }

    @Test
    void aMissingSubjectsFieldIsOneLine() throws IOException {
        Path file = project("name: x\n");
        assertOneLine(assertThrows(ProjectException.class, () -> ProjectFile.read(file)).getMessage(),
                "field 'subjects' is missing");
        Path none = tmp.resolve("none/loadlab.yaml");
        assertOneLine(assertThrows(ProjectException.class, () -> ProjectFile.read(none)).getMessage(),
                "no such file; `loadlab init` writes a starter one");
    }

    @Test
    void theInitTemplateParses() throws IOException {
        Project p = ProjectFile.read(project(ProjectFile.template()));
        assertEquals("my-service", p.name());
        assertEquals(List.of("app"), p.subjects().stream().map(ProjectSubject::name).toList());
        assertEquals(List.of("home"), p.workloads().stream().map(Workload::name).toList());
        assertEquals("5", p.plan().get("rounds"));
    }

    static void assertOneLine(String message, String expected) {
        assertTrue(message.contains(expected), () -> "expected '" + expected + "' in: " + message);
        assertFalse(message.contains("\n") || message.contains("\r"), () -> "more than one line: " + message);
    }
}
