package io.loadlab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every link in the project's Markdown files resolves: a relative link names a file or folder inside
 * the repository, and an anchor names a heading of its page (as GitHub makes anchors from headings).
 * Links to the web are not fetched: the tests reach nothing outside this machine.
 */
class MarkdownLinksTest {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    /** {@code [text](target)} and {@code ![alt](target)}, the target without a title. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    /** Folders that hold no project page: build outputs, caches, other projects' sources. */
    private static final Set<String> SKIPPED = Set.of(".git", "target", "node_modules", ".cache", "reports", ".venv");

    @Test
    void everyRelativeLinkAndAnchorResolves() {
        List<Path> pages = pages(ROOT);
        assertTrue(pages.contains(ROOT.resolve("README.md")), "README.md was not found from " + ROOT);
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            broken.addAll(brokenLinks(ROOT, page));
        }
        assertEquals(List.of(), broken, "broken links in the Markdown files");
    }

    /** The checker finds what it is for: a missing file, a missing anchor, a link out of the repository. */
    @Test
    void brokenLinksAreFound(@TempDir Path repo) throws IOException {
        Files.createDirectories(repo.resolve("docs"));
        Files.writeString(repo.resolve("docs/guide.md"), "# The `run` guide\n\n## Rounds, warm-up & pinning\n");
        Files.writeString(repo.resolve("README.md"), String.join("\n",
                "[ok](docs/guide.md#rounds-warm-up--pinning) [ok too](docs/guide.md#the-run-guide) [self](#readme)",
                "[web](https://example.org/x) [gone](docs/none.md) [no anchor](docs/guide.md#pinning)",
                "[outside](../shared/DESIGN.md)",
                "```", "[in code](nowhere.md)", "```", "# README"));
        assertEquals(List.of(
                "README.md:2: docs/none.md: no such file",
                "README.md:2: docs/guide.md#pinning: no heading makes that anchor",
                "README.md:3: ../shared/DESIGN.md: outside the repository"), brokenLinks(repo, repo.resolve("README.md")));
    }

    /** The project's Markdown files, outside build outputs and caches (not descended into). */
    private static List<Path> pages(Path root) {
        List<Path> pages = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return SKIPPED.contains(String.valueOf(dir.getFileName())) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (file.toString().endsWith(".md")) {
                        pages.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pages.sort(null);
        return pages;
    }

    /** One line per link of {@code page} that does not resolve: {@code path:line: target: why}. */
    static List<String> brokenLinks(Path root, Path page) {
        List<String> lines = read(page);
        List<String> broken = new ArrayList<>();
        boolean[] prose = prose(lines);
        for (int i = 0; i < lines.size(); i++) {
            if (!prose[i]) {
                continue;
            }
            Matcher m = LINK.matcher(withoutCodeSpans(lines.get(i)));
            while (m.find()) {
                String problem = problem(root, page, m.group(1));
                if (problem != null) {
                    broken.add(root.relativize(page) + ":" + (i + 1) + ": " + m.group(1) + ": " + problem);
                }
            }
        }
        return broken;
    }

    /** Why {@code target}, linked from {@code page}, does not resolve; null when it does. */
    private static String problem(Path root, Path page, String target) {
        if (target.matches("(?i)^(https?|mailto):.*")) {
            return null;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!resolved.startsWith(root)) {
            return "outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (hash >= 0 && resolved.toString().endsWith(".md") && !anchors(resolved).contains(target.substring(hash + 1))) {
            return "no heading makes that anchor";
        }
        return null;
    }

    /** The anchors GitHub makes for a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
    static Set<String> anchors(Path page) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        List<String> lines = read(page);
        boolean[] prose = prose(lines);
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = HEADING.matcher(lines.get(i));
            if (!prose[i] || !m.matches()) {
                continue;
            }
            String slug = m.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        return anchors;
    }

    /** Which lines are prose: not a code fence's line, nor inside a fenced block. */
    private static boolean[] prose(List<String> lines) {
        boolean[] prose = new boolean[lines.size()];
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            boolean fence = lines.get(i).strip().startsWith("```");
            fenced ^= fence;
            prose[i] = !fence && !fenced;
        }
        return prose;
    }

    /** The line with its {@code `code`} spans blanked, so that a link written as code is not checked. */
    private static String withoutCodeSpans(String line) {
        return line.replaceAll("`[^`]*`", "``");
    }

    private static List<String> read(Path page) {
        try {
            return Files.readAllLines(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
