package io.loadlab.subject;

import io.loadlab.host.Cpus;
import io.loadlab.host.Executables;
import io.loadlab.host.LoadlabCache;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Builds subjects (once per hash of their sources) and starts them with their placeholders
 * filled in. Build outputs live in Loadlab's cache, shared by every clone:
 * {@code <cache>/subjects/<name>/<hash>/} ({@link LoadlabCache#root()}, {@code ~/.cache/loadlab}
 * by default). Build and version commands run with the cache's tools folder after the PATH.
 */
public final class SubjectLauncher {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z][a-z0-9_-]*)}");
    private static final long BUILD_TIMEOUT_MINUTES = 10;

    private final Path home;
    private final Path cache;
    /** The server certificate TLS variants get as {@code {cert}} and {@code {key}}; empty when none was made. */
    private final Optional<ThrowawayCa.ServerFiles> certificate;

    /** @param home Loadlab's folder (with {@code target/lib} for the Java subjects); builds go to {@link LoadlabCache#root()} */
    public SubjectLauncher(Path home) {
        this(home, LoadlabCache.root());
    }

    /**
     * @param home  Loadlab's folder (with {@code target/lib} for the Java subjects)
     * @param cache the cache folder that holds the builds (its {@code subjects/} folder) and is the
     *              value of {@code {cache}}
     */
    public SubjectLauncher(Path home, Path cache) {
        this(home, cache, Optional.empty());
    }

    private SubjectLauncher(Path home, Path cache, Optional<ThrowawayCa.ServerFiles> certificate) {
        this.home = home.toAbsolutePath().normalize();
        this.cache = cache.toAbsolutePath().normalize();
        this.certificate = certificate;
    }

    /** This launcher, passing {@code files} as {@code {cert}} and {@code {key}} to the start commands. */
    public SubjectLauncher withCertificate(ThrowawayCa.ServerFiles files) {
        return new SubjectLauncher(home, cache, Optional.of(files));
    }

    /** The server certificate given with {@link #withCertificate}, or empty. */
    public Optional<ThrowawayCa.ServerFiles> certificate() {
        return certificate;
    }

    /**
     * The subject's build folder, building it first when its sources changed or it was never built
     * (a subject without a build step gets an empty folder, {@code <cache>/subjects/<name>/unbuilt}).
     * A revision subject's build (its manifest has a {@code commit}) is keyed by the commit and the
     * build command instead of by a hash of its sources.
     * Two clones (or two threads) that need the same build wait for each other: the build runs
     * under a lock on {@code <hash>.lock}, and a folder is used only once its {@code .built}
     * marker, written last, exists; a folder a killed build left without one is built anew.
     *
     * @throws SubjectException when the build fails, with the tail of the build log
     */
    public Path ensureBuilt(SubjectManifest m) {
        Path folder = cache.resolve("subjects").resolve(Subject.pathSegment(m.name()));
        if (m.build().isEmpty()) {
            // Nothing to build, nothing to share: an empty {build} folder, in the cache so that a
            // run from a user's own folder never writes into Loadlab's checkout.
            Path none = folder.resolve("unbuilt");
            try {
                return Files.createDirectories(none);
            } catch (IOException e) {
                throw new SubjectException("cannot create " + none + ": " + e.getMessage(), e);
            }
        }
        String hash = buildKey(m);
        Path dir = folder.resolve(hash);
        Path ok = dir.resolve(".built");
        if (Files.exists(ok)) {
            return dir;
        }
        try (BuildLock lock = BuildLock.acquire(dir.resolveSibling(hash + ".lock"))) {
            if (!Files.exists(ok)) {
                build(m, dir, ok);
            }
            return dir;
        } catch (IOException e) {
            throw new SubjectException("subject '" + m.name() + "' could not be built in " + dir + ": "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SubjectException("interrupted while building subject '" + m.name() + "'", e);
        }
    }

    /** Runs the build into a fresh {@code dir} (the lock is held) and writes {@code ok} last. */
    private void build(SubjectManifest m, Path dir, Path ok) throws IOException, InterruptedException {
        BuildLock.deleteTree(dir);
        Files.createDirectories(dir);
        Path log = dir.resolve("build.log");
        String command = substitute(m.build().get().command(), baseValues(m, dir), m.name() + " build.command");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command)
                .directory(m.dir().toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("PATH", Executables.path());
        Process p = pb.start();
        boolean done;
        try {
            done = p.waitFor(BUILD_TIMEOUT_MINUTES, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            killTree(p);
            throw e;
        }
        if (!done) {
            killTree(p);
            p.waitFor();
            throw new SubjectException("subject '" + m.name() + "' build took longer than "
                    + BUILD_TIMEOUT_MINUTES + " minutes; its log ends with:\n" + io.loadlab.subject.LogTail.of(log, 20));
        }
        if (p.exitValue() != 0) {
            throw new SubjectException("subject '" + m.name() + "' failed to build (exit " + p.exitValue()
                    + ", `" + command + "`); its log ends with:\n" + io.loadlab.subject.LogTail.of(log, 20));
        }
        Files.writeString(ok, command + "\n");
    }

    /** Kills a build (or version) command and everything it started. */
    private static void killTree(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    /**
     * Builds if needed, then starts one process of the subject.
     *
     * @param variant values for the manifest's variants (missing ones take their first value)
     * @param cpus    CPUs to pin the server to; empty for no pinning
     * @param workdir a fresh folder the subject may write to (its {@code {workdir}})
     * @param log     where its output goes
     */
    public SubjectProcess start(SubjectManifest m, Map<String, String> variant, int port, Optional<String> cpus,
                                Path workdir, Path log) {
        Path build = ensureBuilt(m);
        Map<String, String> values = baseValues(m, build);
        values.put("port", Integer.toString(port));
        // Unpinned, the subject may use what this JVM was given, which need not start at CPU 0.
        values.put("cpus", cpus.orElse(Cpus.allowedList()));
        values.put("ncpus", Integer.toString(cpus.map(c -> new Cpus.Split(c, c).serverCount())
                .orElse(Cpus.allowed().size())));
        values.put("workdir", workdir.toAbsolutePath().toString());
        m.variants().forEach((k, vals) -> values.put(k, variant.getOrDefault(k, vals.get(0))));
        values.putIfAbsent("durability", "memory");
        values.put("cert", certificate.map(c -> c.cert().toAbsolutePath().toString()).orElse("-"));
        values.put("key", certificate.map(c -> c.key().toAbsolutePath().toString()).orElse("-"));
        values.putIfAbsent(ServedProtocol.VARIANT, ServedProtocol.H1.label());
        if (ServedProtocol.of(Map.of(ServedProtocol.VARIANT, values.get(ServedProtocol.VARIANT))).tls()
                && certificate.isEmpty()) {
            throw new SubjectException("subject '" + m.name() + "' in variant " + Subject.label(variant)
                    + " serves TLS, but no certificate was made for it (SubjectLauncher.withCertificate)");
        }
        String command = substitute(m.start(), values, m.name() + " start");
        try {
            Files.createDirectories(workdir);
        } catch (IOException e) {
            throw new SubjectException("cannot create the work folder " + workdir + ": " + e.getMessage(), e);
        }
        return SubjectProcess.start(m.name(), List.of("bash", "-c", "exec " + command), m.dir(), log, cpus);
    }

    /** The output of the manifest's version command (first line), or empty; at most 30 s. */
    public Optional<String> version(SubjectManifest m) {
        if (m.versionCommand().isEmpty()) {
            return Optional.empty();
        }
        Path out = null;
        try {
            out = Files.createTempFile("loadlab-version-", ".txt");
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", substitute(m.versionCommand().get(),
                    baseValues(m, home), m.name() + " version"))
                    .directory(m.dir().toFile()).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("PATH", Executables.path());
            Process p = pb.start();
            // Output goes to a file, so a command that hangs with its output open cannot block us.
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                killTree(p);
                return Optional.of("unknown (the version command took over 30 s)");
            }
            return Files.readAllLines(out, StandardCharsets.UTF_8).stream().map(String::strip)
                    .filter(l -> !l.isEmpty()).findFirst();
        } catch (IOException e) {
            return Optional.of("unknown (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException e) {
                    // A leftover temporary file is harmless.
                }
            }
        }
    }

    private Map<String, String> baseValues(SubjectManifest m, Path build) {
        Map<String, String> v = new LinkedHashMap<>();
        Path javaHome = Path.of(System.getProperty("java.home"));
        v.put("home", home.toString());
        v.put("dir", m.dir().toString());
        v.put("build", build.toString());
        v.put("cache", cache.toString());
        v.put("java", javaHome.resolve("bin/java").toString());
        v.put("javac", javaHome.resolve("bin/javac").toString());
        v.put("classpath", home.resolve("target/lib").toString() + "/*");
        return v;
    }

    /**
     * Replaces {@code {name}} placeholders, each value quoted for the shell ({@link #shellQuote}): the
     * commands run with {@code bash -c}, and a value may come from a peer (an agent's launch) or hold a
     * path with spaces or {@code $}. A placeholder inside a word ({@code {build}/server},
     * {@code 127.0.0.1:{port}}) still makes one word; inside quotes of the manifest's own it would not.
     *
     * @throws SubjectException for an unknown placeholder, naming the manifest field
     */
    static String substitute(String template, Map<String, String> values, String where) {
        return fill(template, values, where, SubjectLauncher::shellQuote);
    }

    /**
     * {@code value} as one bash word that stands for exactly its characters: in single quotes, each
     * {@code '} written as {@code '\''}. Nothing inside single quotes is expanded ({@code $}, backquotes,
     * {@code ;}, newlines).
     */
    static String shellQuote(String value) {
        return "'" + value.replace("'", "'\\''") + "'";
    }

    private static String fill(String template, Map<String, String> values, String where,
                               java.util.function.UnaryOperator<String> quote) {
        Matcher mt = PLACEHOLDER.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (mt.find()) {
            String v = values.get(mt.group(1));
            if (v == null) {
                throw new SubjectException("unknown placeholder {" + mt.group(1) + "} in " + where
                        + "; known: " + String.join(", ", values.keySet().stream().map(k -> "{" + k + "}").toList())
                        + ", {port}, {cpus}, {ncpus}, {workdir}, {cert}, {key} and the variant names");
            }
            mt.appendReplacement(sb, Matcher.quoteReplacement(quote.apply(v)));
        }
        mt.appendTail(sb);
        return sb.toString();
    }

    /** The build's cache key: by commit for a revision subject, else by a hash of the sources. */
    private String buildKey(SubjectManifest m) {
        return m.commit().map(c -> commitHash(m, c)).orElseGet(() -> sourceHash(m));
    }

    /**
     * SHA-256 over the commit id and the build command: a commit's files are fixed, so hashing them
     * again would only cost time. The command is filled in as for {@link #sourceHash}.
     */
    private String commitHash(SubjectManifest m, String commit) {
        MessageDigest md = sha256();
        md.update(("commit " + commit + "\n" + keyCommand(m) + "\n").getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(md.digest()).substring(0, 16);
    }

    /**
     * The build command as hashed: its placeholders filled in, except {@code {build}}, {@code {cache}} and
     * {@code {dir}} (whose files are hashed themselves), so that a build against one clone's jars
     * ({@code {classpath}}, {@code {home}}) is never reused by another clone.
     */
    private String keyCommand(SubjectManifest m) {
        Map<String, String> values = baseValues(m, Path.of("{build}"));
        values.put("cache", "{cache}");
        values.put("dir", "{dir}");
        // Unquoted, so that the keys of builds made before values were quoted stay valid: the quotes
        // change no word of a command whose values hold no blank or shell character.
        return m.build().map(b -> fill(b.command(), values, m.name() + " build.command", v -> v)).orElse("");
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** SHA-256 over the build command ({@link #keyCommand}) and the files matching the source globs, in path order. */
    private String sourceHash(SubjectManifest m) {
        try {
            MessageDigest md = sha256();
            md.update((keyCommand(m) + "\n").getBytes(StandardCharsets.UTF_8));
            List<PathMatcher> globs = new ArrayList<>();
            for (String g : m.build().map(SubjectManifest.Build::sources).orElse(List.of())) {
                globs.add(FileSystems.getDefault().getPathMatcher("glob:" + g));
            }
            List<Path> files;
            try (Stream<Path> walk = Files.walk(m.dir())) {
                files = walk.filter(Files::isRegularFile)
                        .filter(f -> globs.stream().anyMatch(g -> g.matches(m.dir().relativize(f))))
                        .sorted().toList();
            }
            for (Path f : files) {
                md.update(m.dir().relativize(f).toString().getBytes(StandardCharsets.UTF_8));
                md.update(Files.readAllBytes(f));
            }
            return HexFormat.of().formatHex(md.digest()).substring(0, 16);
        } catch (IOException e) {
            throw new SubjectException("cannot read the sources of subject '" + m.name() + "': " + e.getMessage(), e);
        }
    }
}
