package io.loadlab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Loadlab's own folder (its <em>home</em>, holding {@code subjects/}, {@code data/} and
 * {@code notebooks/}), for notebooks and scripts that open its data: {@code
 * Results.load(Loadlab.home().resolve("data/sample"))}.
 */
public final class Loadlab {

    private Loadlab() {
    }

    /**
     * {@code $LOADLAB_HOME} when it is set, else the first folder at or above the working directory
     * that holds {@code subjects/} and {@code pom.xml} (Jupyter starts a kernel in its notebook's
     * folder, so from {@code notebooks/} that is the folder above).
     *
     * @return the folder, absolute and normalised
     * @throws IllegalStateException when neither finds one, saying where it looked
     */
    public static Path home() {
        Optional<String> given = Optional.ofNullable(System.getenv("LOADLAB_HOME")).filter(s -> !s.isBlank())
                .or(() -> Optional.ofNullable(System.getProperty("loadlab.home")));
        return home(given.or(Loadlab::fromJar), Path.of(""));
    }

    /**
     * The folder of the jar (or classes) this class came from, {@code <home>/target/...}, when it is a
     * Loadlab folder: a kernel or JShell started in a user's project folder still finds its subjects.
     */
    private static Optional<String> fromJar() {
        try {
            Path code = Path.of(Loadlab.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path p = code; p != null; p = p.getParent()) {
                if (Files.isDirectory(p.resolve("subjects")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                    return Optional.of(p.toString());
                }
            }
        } catch (java.net.URISyntaxException | SecurityException | NullPointerException e) {
            // No code source to go by: the working directory's search decides.
        }
        return Optional.empty();
    }

    /**
     * Loads experiment folders for the one-call answers of {@link Analysis}:
     * {@code var results = Loadlab.load("data/sample"); results.compare("go-nethttp")}. A relative
     * folder that is not under the working directory is looked for in {@link #home()}, so that
     * {@code data/sample} works from {@code notebooks/} too.
     *
     * @throws io.loadlab.data.DataException for a folder that is not an experiment
     */
    public static Analysis load(String... folders) {
        Path[] dirs = new Path[folders.length];
        for (int i = 0; i < folders.length; i++) {
            Path p = Path.of(folders[i]);
            dirs[i] = p.isAbsolute() || Files.isDirectory(p) ? p : home().resolve(p);
        }
        return new Analysis(io.loadlab.data.Results.load(dirs));
    }

    /**
     * Runs a project file ({@code loadlab.yaml}) as {@code loadlab run -f FILE OPTIONS} would, with live
     * progress (a bar below the cell in a notebook, lines on stderr in JShell), and returns its results:
     * {@code var r = Loadlab.run(Path.of("loadlab.yaml"), "--rounds", "5");}. Data goes to
     * {@code data/<name>-<date-time>/} under the working directory.
     *
     * @param options options of {@code loadlab run}, which override the file's plan
     */
    public static io.loadlab.data.Results run(Path projectFile, String... options) {
        io.loadlab.experiment.Runner.Progress progress;
        try {
            progress = new io.loadlab.kernel.NotebookProgress(projectFile.getFileName().toString());
        } catch (IllegalStateException notInACell) {
            progress = new io.loadlab.experiment.Runner.Progress() {
                @Override
                public void message(String text) {
                    System.err.println(text);
                }

                @Override
                public void runFinished(io.loadlab.experiment.Plan.Run run, io.loadlab.data.RunRow row, int done,
                                        int total) {
                    System.err.printf(java.util.Locale.ROOT, "[%d/%d] run %d %s %s: %s%n", done, total, run.runId(),
                            run.instance().label(), run.workload().name(),
                            row.get(io.loadlab.data.RunColumn.RPS).isEmpty() ? row.get(io.loadlab.data.RunColumn.STATUS)
                                    : row.get(io.loadlab.data.RunColumn.RPS) + " requests/s");
                }
            };
        }
        io.loadlab.experiment.Experiment e = io.loadlab.cli.ProjectRuns.prepare(home(), projectFile, progress, options);
        return io.loadlab.data.Results.load(e.execute().dir());
    }

    /** {@link #home()} for a given environment value and working directory. */
    static Path home(Optional<String> env, Path workingDirectory) {
        if (env.isPresent() && !env.get().isBlank()) {
            return Path.of(env.get()).toAbsolutePath().normalize();
        }
        Path start = workingDirectory.toAbsolutePath().normalize();
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("subjects")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find Loadlab's folder (subjects/ and pom.xml) above " + start
                + "; set LOADLAB_HOME");
    }
}
