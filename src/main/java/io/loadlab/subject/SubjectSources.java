package io.loadlab.subject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a subject was made of, as hashes that two machines can compare: the manifest
 * ({@code subject.yaml}) and every other file of the subject's folder. Recorded in
 * {@code experiment.json} when an experiment is created, so that {@code loadlab rerun} can say
 * whose sources differ from the recorded ones.
 *
 * <p>Unlike the build cache's hash ({@link SubjectLauncher}), which fills in this clone's
 * placeholders and covers only the build's source globs, these hashes depend on the files alone:
 * the same subject folder gives the same hashes in any clone on any machine, and a change to a
 * file the build does not list (a Python server started from its folder) still shows.
 *
 * @param manifest SHA-256 of {@code subject.yaml}, first 16 hex digits
 * @param sources  SHA-256 over the other files (relative path, a NUL, the bytes; in path order),
 *                 first 16 hex digits
 * @param files    the files hashed into {@code sources}, relative to the subject's folder
 *
 * <p>A project's subjects: a revision's sources are its commit ({@code git:<id>}); an inline one's are
 * the files its build's {@code sources} name (none without a build), since its folder is the project's.
 */
public record SubjectSources(String manifest, String sources, List<String> files) {

    /** Hex digits kept: 64 bits tell a changed file from an unchanged one well enough. */
    private static final int DIGITS = 16;

    public SubjectSources {
        files = List.copyOf(files);
    }

    /**
     * Hashes a subject's folder. Hidden files and folders and {@code __pycache__} are left out:
     * they are made by tools, not written by the subject's author.
     *
     * @throws SubjectException when a file cannot be read
     */
    public static SubjectSources of(SubjectManifest m) {
        Path dir = m.dir();
        if (m.commit().isPresent()) {
            // A revision's checkout is its commit: the id says all a rerun needs to tell.
            return new SubjectSources("", "git:" + m.commit().get(), List.of());
        }
        // A subject written inline in a project file shares the project's folder (data/ and all): only
        // the files its build names are its own.
        boolean inline = !Files.isRegularFile(dir.resolve("subject.yaml"));
        List<java.nio.file.PathMatcher> globs = m.build().map(SubjectManifest.Build::sources).orElse(List.of()).stream()
                .map(g -> java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + g)).toList();
        try {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(dir)) {
                files = walk.filter(Files::isRegularFile).filter(f -> authored(dir.relativize(f)))
                        .filter(f -> !inline || globs.stream().anyMatch(g -> g.matches(dir.relativize(f))))
                        .sorted().toList();
            }
            MessageDigest sources = sha256();
            String manifest = "";
            for (Path f : files) {
                String rel = dir.relativize(f).toString();
                byte[] bytes = Files.readAllBytes(f);
                if (rel.equals("subject.yaml")) {
                    manifest = hex(sha256().digest(bytes));
                    continue;
                }
                sources.update(rel.getBytes(StandardCharsets.UTF_8));
                sources.update((byte) 0);
                sources.update(bytes);
            }
            List<String> names = files.stream().map(f -> dir.relativize(f).toString())
                    .filter(n -> !n.equals("subject.yaml")).toList();
            return new SubjectSources(manifest, hex(sources.digest()), names);
        } catch (IOException e) {
            throw new SubjectException("cannot read the sources of subject '" + m.name() + "' in " + dir + ": "
                    + e.getMessage(), e);
        }
    }

    private static boolean authored(Path relative) {
        for (Path part : relative) {
            String name = part.toString();
            if (name.startsWith(".") || name.equals("__pycache__")) {
                return false;
            }
        }
        return true;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest).substring(0, DIGITS);
    }
}
