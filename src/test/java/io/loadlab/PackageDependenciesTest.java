package io.loadlab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dependency rule of {@code docs/architecture.md}, checked over the code: which of Loadlab's packages
 * each package may use (in imports and fully qualified names, comments left out). A new edge fails here
 * until the rule, and the page, say it is meant.
 */
class PackageDependenciesTest {

    private static final Path MAIN = Path.of("src/main/java/io/loadlab");
    private static final Pattern USE = Pattern.compile("\\bio\\.loadlab\\.([a-z]+(?:\\.summary)?)\\b");
    /** A class of {@code io.loadlab} itself (the notebooks' one-call answers: {@code Loadlab}, {@code Analysis}). */
    private static final Pattern ROOT_USE = Pattern.compile("\\bio\\.loadlab\\.[A-Z]");
    /** The key of package {@code io.loadlab} itself in {@link #ALLOWED}. */
    static final String ROOT = "(io.loadlab)";

    /** What each package may use; a package not listed uses none of Loadlab's. */
    static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry(ROOT, Set.of("cli", "data", "experiment", "kernel", "stats")),
            Map.entry("load", Set.of("bytes", "format", "time")),
            Map.entry("load.summary", Set.of("load", "format", "time")),
            Map.entry("subject", Set.of("host", "load", "time")),
            Map.entry("data", Set.of("bytes", "load")),
            Map.entry("importer", Set.of("data", "load")),
            Map.entry("engine", Set.of("data", "host", "importer", "load", "subject")),
            Map.entry("agent", Set.of("data", "engine", "host", "load", "load.summary", "subject", "workload")),
            Map.entry("project", Set.of("host", "load", "subject", "time", "workload")),
            Map.entry("experiment", Set.of("agent", "data", "engine", "format", "host", "load", "project", "stats", "subject", "time",
                    "workload")),
            Map.entry("stats", Set.of("data", "format")),
            Map.entry("plot", Set.of("data", "format", "stats")),
            Map.entry("kernel", Set.of("data", "engine", "experiment", "format", "importer", "load", "plot", "stats",
                    "workload")),
            Map.entry("cli", Set.of("agent", "data", "engine", "experiment", "format", "host", "importer", "kernel", "project",
                    "load", "load.summary", "stats", "subject", "time", "workload")));

    @Test
    void everyPackageUsesOnlyWhatTheRuleAllows() {
        Map<String, Set<String>> uses = uses(MAIN);
        List<String> breaks = new ArrayList<>();
        uses.forEach((from, tos) -> tos.stream().filter(to -> !ALLOWED.getOrDefault(from, Set.of()).contains(to))
                .forEach(to -> breaks.add(from + " -> " + to)));
        assertEquals(List.of(), breaks, "package dependencies outside the rule (docs/architecture.md)");
    }

    @Test
    void theRuleHasNoCycle() {
        for (String start : ALLOWED.keySet()) {
            assertTrue(!reaches(start, start, new TreeSet<>()), "the rule has a cycle through " + start);
        }
    }

    /** Uses the rule does not allow are found: planted back-edges from load to data and from kernel to io.loadlab itself. */
    @Test
    void aPlantedBackEdgeIsFound() throws IOException {
        Path tree = Files.createTempDirectory("deps");
        try {
            Path load = Files.createDirectories(tree.resolve("load"));
            Files.writeString(load.resolve("Planted.java"), "package io.loadlab.load;\n// io.loadlab.stats in a comment\n"
                    + "import io.loadlab.data.RunRow;\nclass Planted { RunRow row; String s = \"io.loadlab.Analysis\"; }\n");
            Path kernel = Files.createDirectories(tree.resolve("kernel"));
            Files.writeString(kernel.resolve("Planted.java"), "package io.loadlab.kernel;\n"
                    + "class Planted { Object o = io.loadlab.Loadlab.home(); }\n");
            Files.writeString(tree.resolve("Top.java"), "package io.loadlab;\nimport io.loadlab.stats.Comparison;\nclass Top { }\n");
            Map<String, Set<String>> uses = uses(tree);
            assertEquals(Set.of("data"), uses.get("load"), "a class name in a string is no use");
            assertTrue(!ALLOWED.get("load").contains("data"));
            assertEquals(Set.of(ROOT), uses.get("kernel"), "the one-call answers used from below them");
            assertTrue(!ALLOWED.get("kernel").contains(ROOT));
            assertEquals(Set.of("stats"), uses.get(ROOT), "io.loadlab's own uses are checked too");
        } finally {
            try (Stream<Path> files = Files.walk(tree)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static boolean reaches(String from, String target, Set<String> seen) {
        for (String next : ALLOWED.getOrDefault(from, Set.of())) {
            if (next.equals(target) || (seen.add(next) && reaches(next, target, seen))) {
                return true;
            }
        }
        return false;
    }

    /** Package (relative to io.loadlab) to the other Loadlab packages its code names. */
    static Map<String, Set<String>> uses(Path root) {
        Map<String, Set<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Path dir = root.relativize(f.getParent());
                String pkg = dir.toString().isEmpty() ? ROOT : dir.toString().replace('/', '.');
                String code = code(Files.readString(f));
                Matcher m = USE.matcher(code);
                Set<String> tos = out.computeIfAbsent(pkg, k -> new TreeSet<>());
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        tos.add(m.group(1));
                    }
                }
                // A class of io.loadlab named in code; in a string (JShell's start-up imports) it is no use.
                if (!pkg.equals(ROOT) && ROOT_USE.matcher(code.replaceAll("\"(?:\\\\.|[^\"\\\\\n])*\"", "\"\"")).find()) {
                    tos.add(ROOT);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The source without comments, so that a javadoc link is no dependency. */
    private static String code(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
    }
}
