package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/setup} as a user without root: it runs with a PATH of links to this machine's
 * commands less the ones a test hides (so their packages read as missing), {@code apt-get} and
 * {@code sudo} replaced by scripts that only record their calls, and {@code LOADLAB_SETUP_UID}
 * (the script's stand-in for {@code id -u}) set to a user's. Run after a full set-up, as the
 * suite is, nothing else is left to install.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SetupScriptTest {

    private static final Path SETUP = Path.of(System.getProperty("user.dir"), "scripts/setup");

    @TempDir
    Path tmp;

    @Test
    void aUserWithoutSudoInstallsNothingListsWhatIsMissingAndGoesOn() throws Exception {
        Path bin = pathWithout(Set.of("go", "node", "sudo", "apt-get"));
        Result r = setup(bin);
        assertEquals(0, r.code, r.stderr);
        assertTrue(r.stderr.contains("installing nothing"), r.stderr);
        assertTrue(r.stderr.contains("missing golang-go: go-nethttp skipped"), r.stderr);
        assertTrue(r.stderr.contains("missing nodejs: node-http skipped"), r.stderr);
        assertTrue(r.stderr.contains("to add them: sudo apt-get install -y --no-install-recommends golang-go nodejs\n"),
                r.stderr);
        assertFalse(Files.exists(tmp.resolve("calls.log")), "apt-get ran although the user may not install");
    }

    @Test
    void aUserWithoutTheJdkStopsWithExit2() throws Exception {
        Path bin = pathWithout(Set.of("javac", "sudo", "apt-get"));
        Result r = setup(bin);
        assertEquals(2, r.code, r.stderr);
        assertTrue(r.stderr.contains("cannot be built without openjdk-17-jdk-headless"), r.stderr);
    }

    @Test
    void aUserWithSudoAllowedInstallsThroughIt() throws Exception {
        Path bin = pathWithout(Set.of("go", "sudo", "apt-get"));
        // sudo -n true succeeds: this user may use sudo without a password. Other commands run as given.
        script(bin.resolve("sudo"), "[ \"$1\" = -n ] && shift\necho \"sudo $*\" >> " + tmp.resolve("calls.log")
                + "\n[ \"$1\" = true ] && exit 0\nexec \"$@\"");
        Result r = setup(bin);
        assertEquals(0, r.code, r.stderr);
        List<String> calls = Files.readAllLines(tmp.resolve("calls.log"));
        assertTrue(calls.contains("sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends golang-go"),
                String.join("\n", calls));
        assertTrue(calls.contains("apt-get install -y -qq --no-install-recommends golang-go"), String.join("\n", calls));
    }

    private record Result(int code, String stderr) {}

    private Result setup(Path bin) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", SETUP.toString(), "demo")
                .redirectOutput(tmp.resolve("out.log").toFile()).redirectError(tmp.resolve("err.log").toFile());
        pb.environment().put("PATH", bin.toString());
        pb.environment().put("LOADLAB_SETUP_UID", "1000");
        Process p = pb.start();
        try {
            assertTrue(p.waitFor(100, TimeUnit.SECONDS), "scripts/setup did not finish");
        } finally {
            if (p.isAlive()) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
        return new Result(p.exitValue(), Files.readString(tmp.resolve("err.log"), StandardCharsets.UTF_8));
    }

    /**
     * A folder of links to every command on this PATH but {@code hidden}; an {@code apt-get} that
     * records its calls, and a {@code sudo} that is not allowed ({@code sudo -n true} fails).
     */
    private Path pathWithout(Set<String> hidden) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Set<String> seen = new HashSet<>(hidden);
        for (String dir : System.getenv("PATH").split(":")) {
            Path d = Path.of(dir);
            if (dir.isEmpty() || !Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> files = Files.list(d)) {
                for (Path f : files.toList()) {
                    String name = f.getFileName().toString();
                    if (Files.isExecutable(f) && !Files.isDirectory(f) && seen.add(name)) {
                        Files.createSymbolicLink(bin.resolve(name), f.toAbsolutePath());
                    }
                }
            }
        }
        script(bin.resolve("apt-get"), "echo \"apt-get $*\" >> " + tmp.resolve("calls.log"));
        script(bin.resolve("sudo"), "exit 1");
        return bin;
    }

    private static void script(Path file, String body) throws IOException {
        Files.deleteIfExists(file);
        Files.writeString(file, "#!/bin/bash\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
