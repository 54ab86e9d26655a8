package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher ({@code ./loadlab}) started twice at once after a build: one makes the class-data
 * sharing archive, the other waits for it and uses it. Side by side, each made it over the other's
 * files and one ended with "mv: cannot stat". The launcher runs here in a folder of its own with a
 * stand-in {@code java} ({@code $JAVA_HOME/bin/java}) whose archive dump takes a second, so that the
 * two surely overlap, and whose run prints the archive it was given (and whether it inherited the
 * lock's file descriptor, which would hold the lock for as long as the JVM runs).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LauncherLockTest {

    private static final String JAVA = """
            #!/usr/bin/env bash
            archive=; dump=0
            for a in "$@"; do
              case "$a" in
                -XX:DumpLoadedClassList=*) echo "java.lang.Object" >"${a#*=}"; exit 0 ;;
                -Xshare:dump) dump=1 ;;
                -XX:SharedArchiveFile=*) archive="${a#*=}" ;;
              esac
            done
            if [ "$dump" = 1 ]; then sleep 1; echo archive >"$archive"; exit 0; fi
            if ls -l /proc/$$/fd 2>/dev/null | grep -q launcher.lock; then echo "the lock's descriptor leaked"; fi
            echo "ran with archive ${archive:-none}"
            """;

    @Test
    void twoLaunchersAtOnceMakeOneArchiveAndBothUseIt(@TempDir Path home) throws IOException, InterruptedException {
        Files.copy(Path.of("loadlab"), home.resolve("loadlab"));
        Files.createDirectories(home.resolve("src/main"));
        Files.createDirectories(home.resolve("target/lib"));
        Files.writeString(home.resolve("pom.xml"), "<project/>");
        Path jar = Files.writeString(home.resolve("target/loadlab-0.1.0-SNAPSHOT.jar"), "not a build's jar");
        Path bin = Files.createDirectories(home.resolve("jdk/bin"));
        Files.writeString(bin.resolve("java"), JAVA, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(bin.resolve("java"), PosixFilePermissions.fromString("rwxr-xr-x"));
        // Built a minute ago, after its sources: no build, but no archive yet.
        Instant now = Instant.now();
        for (Path p : List.of(home.resolve("src/main"), home.resolve("pom.xml"))) {
            Files.setLastModifiedTime(p, FileTime.from(now.minusSeconds(120)));
        }
        Files.setLastModifiedTime(jar, FileTime.from(now.minusSeconds(60)));

        List<Process> launchers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ProcessBuilder pb = new ProcessBuilder("bash", home.resolve("loadlab").toString(), "--version")
                    .redirectErrorStream(true).redirectOutput(home.resolve("out-" + i).toFile());
            pb.environment().put("JAVA_HOME", home.resolve("jdk").toString());
            launchers.add(pb.start());
        }
        List<String> outputs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Process p = launchers.get(i);
            assertTrue(p.waitFor(50, TimeUnit.SECONDS), "launcher " + i + " ends");
            outputs.add(Files.readString(home.resolve("out-" + i)));
            assertEquals(0, p.exitValue(), outputs.get(i));
        }
        String both = String.join("\n", outputs);
        assertEquals(1, both.split("making the class-data-sharing archive", -1).length - 1, "one made it: " + both);
        Path cds = home.resolve("target/cds");
        List<String> made;
        try (Stream<Path> files = Files.list(cds)) {
            made = files.map(f -> f.getFileName().toString()).toList();
        }
        assertEquals(1, made.size(), "the archive alone, no half-made or failed file: " + made);
        assertTrue(made.get(0).endsWith(".jsa"), made.toString());
        for (String out : outputs) {
            assertTrue(out.contains("ran with archive " + cds.resolve(made.get(0))), "both use it: " + both);
        }
        assertTrue(!both.contains("leaked"), both);
    }
}
