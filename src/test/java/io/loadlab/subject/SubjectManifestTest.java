package io.loadlab.subject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.workload.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SubjectManifestTest {

    private static final String GOOD = """
            name: demo
            description: a demo
            language: Bash
            requires: [bash]
            start: "exec true {port}"
            ready: {path: /plaintext, timeout: 5s}
            workloads: [plaintext, json]
            variants: {durability: [memory, fsync]}
            """;

    private static Path write(Path root, String folder, String yaml) throws IOException {
        Path dir = Files.createDirectories(root.resolve(folder));
        Files.writeString(dir.resolve("subject.yaml"), yaml);
        return dir;
    }

    @Test
    void aGoodManifestReadsWithEveryField(@TempDir Path root) throws IOException {
        SubjectManifest m = SubjectManifest.read(write(root, "demo", GOOD), Workload.builtinNames());
        assertEquals("demo", m.name());
        assertEquals(List.of("bash"), m.requires());
        assertEquals(Duration.ofSeconds(5), m.ready().timeout());
        assertEquals(List.of("memory", "fsync"), m.variants().get("durability"));
        assertTrue(m.build().isEmpty());
    }

    @Test
    void errorsNameTheFileTheFieldAndWhatIsExpected(@TempDir Path root) throws IOException {
        String[][] cases = {
                {GOOD.replace("name: demo\n", ""), "field 'name' is missing"},
                {GOOD.replace("name: demo", "name: other"), "field 'name' must equal the folder name 'demo'"},
                {GOOD.replace("start: \"exec true {port}\"\n", ""), "field 'start' is missing"},
                {GOOD.replace("ready: {path: /plaintext, timeout: 5s}", "ready: plaintext"), "field 'ready' must be a mapping"},
                {GOOD.replace("timeout: 5s", "timeout: soon"), "field 'ready.timeout'"},
                {GOOD.replace("[plaintext, json]", "[plaintext, jsn]"), "unknown workload 'jsn'; known:"},
                {GOOD.replace("requires: [bash]", "requires: bash"), "field 'requires' must be a list"},
                {GOOD + "strat: x\n", "field 'strat' is not a manifest field"},
                {"- just\n- a list\n", "must be a YAML mapping"},
                {GOOD.replace("description: a demo", "description: [unclosed"), "cannot read the manifest"},
                {GOOD.replace("[memory, fsync]}", "[memory, fsync], protocol: [h1, h3]}"),
                        "names unknown protocol 'h3'; the protocols are h1, h1-tls, h2-tls, h2c"},
        };
        for (String[] c : cases) {
            Path dir = write(root, "demo", c[0]);
            SubjectException e = assertThrows(SubjectException.class,
                    () -> SubjectManifest.read(dir, Workload.builtinNames()), c[1]);
            assertTrue(e.getMessage().startsWith(dir.resolve("subject.yaml").toString()), e.getMessage());
            assertTrue(e.getMessage().contains(c[1]), "expected '" + c[1] + "' in: " + e.getMessage());
        }
    }

    @Test
    void aMissingCommandMakesTheSubjectUnavailableWithTheReason(@TempDir Path root) throws IOException {
        write(root, "demo", GOOD.replace("requires: [bash]", "requires: [bash, no-such-tool-xyz]"));
        Subjects s = Subjects.load(root, Workload.builtinNames());
        Subject demo = s.byName("demo").orElseThrow();
        assertEquals("needs `no-such-tool-xyz` on PATH", demo.unavailableReason().orElseThrow());
        SubjectException e = assertThrows(SubjectException.class, () -> s.matching("nginx.*"));
        assertEquals("no subject matches 'nginx.*'; subjects: demo", e.getMessage());
    }

    @Test
    void unknownPlaceholdersAreRejectedWithTheKnownOnes() {
        SubjectException e = assertThrows(SubjectException.class,
                () -> SubjectLauncher.substitute("run {prot}", java.util.Map.of("port", "1"), "demo start"));
        assertTrue(e.getMessage().contains("unknown placeholder {prot} in demo start"), e.getMessage());
    }

    @Test
    void aTlsVariantWithoutACertificateIsRefusedBeforeItStarts(@TempDir Path root) throws IOException {
        Path dir = write(root, "demo", GOOD.replace("{durability: [memory, fsync]}", "{protocol: [h1-tls]}")
                .replace("exec true {port}", "exec true {port} {cert} {key}"));
        SubjectManifest m = SubjectManifest.read(dir, Workload.builtinNames());
        SubjectException e = assertThrows(SubjectException.class, () -> new SubjectLauncher(root, root.resolve("cache"))
                .start(m, java.util.Map.of("protocol", "h1-tls"), 1, java.util.Optional.empty(), root.resolve("w"),
                        root.resolve("log")));
        assertEquals("subject 'demo' in variant protocol=h1-tls serves TLS, but no certificate was made for it"
                + " (SubjectLauncher.withCertificate)", e.getMessage());
    }

    /** A manifest inside another file (a project's loadlab.yaml): the name is given, description and language optional. */
    @Test
    void aManifestReadsFromAYamlNodeUnderAGivenName(@TempDir Path root) throws IOException {
        com.fasterxml.jackson.databind.ObjectMapper yaml = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        String inline = GOOD.replace("name: demo\n", "").replace("description: a demo\n", "")
                .replace("language: Bash\n", "") + "revisions: [v1]\n";
        SubjectManifest m = SubjectManifest.of(yaml.readTree(inline), "api", root, "loadlab.yaml: subject 'api':",
                java.util.Set.of("revisions"), Workload.builtinNames());
        assertEquals("api", m.name());
        assertEquals("api", m.description());
        assertEquals("unknown", m.language());
        assertEquals(root.toAbsolutePath(), m.dir());
        assertEquals(List.of("plaintext", "json"), m.workloads());
        assertEquals(SubjectManifest.read(write(root, "demo", GOOD), Workload.builtinNames()).start(), m.start());

        SubjectException e = assertThrows(SubjectException.class, () -> SubjectManifest.of(yaml.readTree(GOOD), "api",
                root, "loadlab.yaml: subject 'api':", java.util.Set.of("revisions"), Workload.builtinNames()));
        assertEquals("loadlab.yaml: subject 'api': field 'name' is not a manifest field; the fields are build, "
                + "description, language, ready, requires, revisions, start, variants, version, warmup, workloads", e.getMessage());
    }

    @Test
    void aSubjectNameBecomesOneSafePathSegment() {
        assertEquals("api@feature_x", Subject.pathSegment("api@feature/x"));
        assertEquals("api@HEAD_1", Subject.pathSegment("api@HEAD~1"));
        assertEquals("go-nethttp", Subject.pathSegment("go-nethttp"));
        assertEquals("api@.._.._etc", Subject.pathSegment("api@../../etc"));
        assertEquals("_..", Subject.pathSegment(".."));
    }
}
