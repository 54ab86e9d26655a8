package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadlab.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loadlab kernel install}, with a stand-in for jupyter that records what it was asked. */
class KernelCommandTest {

    @TempDir
    Path tmp;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    /** A "jupyter" that writes its arguments and copies the kernelspec folder (the last argument). */
    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    private Path fakeJupyter() throws Exception {
        Path script = tmp.resolve("jupyter");
        Files.writeString(script, "#!/bin/bash\nprintf '%s\\n' \"$@\" > \"" + tmp.resolve("args") + "\"\n"
                + "for last; do :; done\ncp -r \"$last\" \"" + tmp.resolve("copied") + "\"\necho installed\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    @Test
    void installWritesAKernelspecForThisCheckoutAndPassesTheLocation() throws Exception {
        Path jupyter = fakeJupyter();
        CliRun o = run("kernel", "install", "--user", "--name", "loadlab-test", "--jupyter", jupyter.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().startsWith("installed\n"), o.out());
        List<String> args = Files.readAllLines(tmp.resolve("args"));
        assertEquals(List.of("kernelspec", "install", "--replace", "--name", "loadlab-test", "--user"), args.subList(0, 6));
        assertEquals(7, args.size(), args.toString());

        JsonNode spec = new ObjectMapper().readTree(tmp.resolve("copied/kernel.json").toFile());
        List<String> argv = new ArrayList<>();
        spec.path("argv").forEach(a -> argv.add(a.asText()));
        assertEquals(Path.of(System.getProperty("java.home"), "bin", "java").toString(), argv.get(0));
        assertEquals("-cp", argv.get(1));
        assertEquals(KernelFixture.HOME.resolve("target/classes") + ":" + KernelFixture.HOME.resolve("target/lib") + "/*",
                argv.get(2));
        assertEquals(List.of("io.loadlab.kernel.KernelMain", "{connection_file}"), argv.subList(3, 5));
        assertEquals("Java (Loadlab)", spec.path("display_name").asText());
        assertEquals("java", spec.path("language").asText());
        assertEquals("message", spec.path("interrupt_mode").asText());
        assertTrue(Files.notExists(Path.of(args.get(6))), "the temporary kernelspec folder is removed");
    }

    @Test
    void theLaunchersJvmFlagsGoIntoTheKernelspecAndTheArchiveOnlyWithTheJar() throws Exception {
        // ./loadlab passes its flags one a line; from target/classes (as here) the archive, made for
        // the jar's class path, would not match, so it is left out.
        // The kernel's own flags come after them, blank lines dropped.
        String before = System.getProperty("loadlab.jvm.flags");
        String kernelBefore = System.getProperty("loadlab.kernel.jvm.flags");
        System.setProperty("loadlab.jvm.flags", "-XX:+UseSerialGC\n-XX:SharedArchiveFile=/x/loadlab.jsa\n-XX:-UsePerfData\n");
        System.setProperty("loadlab.kernel.jvm.flags", "-XX:+UnlockDiagnosticVMOptions\n\n-XX:CompilerDirectivesFile=/x/d.json\n");
        try {
            Path jupyter = fakeJupyter();
            assertEquals(0, run("kernel", "install", "--user", "--jupyter", jupyter.toString()).code());
            List<String> argv = new ArrayList<>();
            new ObjectMapper().readTree(tmp.resolve("copied/kernel.json").toFile()).path("argv").forEach(a -> argv.add(a.asText()));
            assertEquals(List.of("-XX:+UseSerialGC", "-XX:-UsePerfData", "-XX:+UnlockDiagnosticVMOptions",
                    "-XX:CompilerDirectivesFile=/x/d.json", "-cp"), argv.subList(1, 6));
        } finally {
            restore("loadlab.jvm.flags", before);
            restore("loadlab.kernel.jvm.flags", kernelBefore);
        }
    }

    @Test
    void allowUnsignedGoesBeforeTheConnectionFileAndIsInTheHelp() throws Exception {
        Path jupyter = fakeJupyter();
        assertEquals(0, run("kernel", "install", "--user", "--allow-unsigned", "--jupyter", jupyter.toString()).code());
        List<String> argv = new ArrayList<>();
        new ObjectMapper().readTree(tmp.resolve("copied/kernel.json").toFile()).path("argv").forEach(a -> argv.add(a.asText()));
        assertEquals(List.of("io.loadlab.kernel.KernelMain", "--allow-unsigned", "{connection_file}"),
                argv.subList(argv.size() - 3, argv.size()));
        String help = run("kernel", "install", "--help").out();
        assertTrue(help.contains("--allow-unsigned") && help.contains("refuses to start with an empty"), help);
    }

    @Test
    void prefixAndSysPrefixArePassedOn() throws Exception {
        Path jupyter = fakeJupyter();
        assertEquals(0, run("kernel", "install", "--prefix", "some/prefix", "--jupyter", jupyter.toString()).code());
        List<String> args = Files.readAllLines(tmp.resolve("args"));
        assertEquals(List.of("--prefix", Path.of("some/prefix").toAbsolutePath().toString()), args.subList(5, 7));
        assertEquals(0, run("kernel", "install", "--sys-prefix", "--jupyter", jupyter.toString()).code());
        assertEquals("--sys-prefix", Files.readAllLines(tmp.resolve("args")).get(5));
    }

    @Test
    void aMissingJupyterSaysWhatToInstall() {
        CliRun o = run("kernel", "install", "--user", "--jupyter", tmp.resolve("none").toString());
        assertEquals(1, o.code());
        assertEquals("loadlab: --jupyter " + tmp.resolve("none") + " is not an executable file: put a Jupyter with"
                + " nbconvert on the PATH (pip install -r scripts/jupyter-requirements.txt in a virtual environment, or"
                + " apt-get install jupyter-client jupyter-core jupyter-nbconvert), or give --jupyter PATH\n", o.err());
    }

    @Test
    void badOptionsAreUsageErrors() {
        CliRun both = run("kernel", "install", "--user", "--sys-prefix");
        assertEquals(2, both.code());
        assertTrue(both.err().contains("mutually exclusive"), both.err());
        CliRun name = run("kernel", "install", "--name", "bad name");
        assertEquals(2, name.code());
        assertTrue(name.err().contains("--name: a kernel name is letters"), name.err());
        assertEquals(2, run("kernel").code());
    }

    @Test
    void aFailingJupyterIsReportedWithItsOutput() throws Exception {
        Path script = tmp.resolve("broken-jupyter");
        Files.writeString(script, "#!/bin/bash\necho 'Permission denied: /usr/local/share/jupyter' >&2\nexit 1\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        CliRun o = run("kernel", "install", "--jupyter", script.toString());
        assertEquals(1, o.code());
        assertTrue(o.err().contains("jupyter kernelspec install failed (exit 1): Permission denied"), o.err());
    }
}
