package io.loadlab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadlab.data.ExperimentStore;
import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.Reconcile;
import io.loadlab.time.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tech.tablesaw.api.Table;

/**
 * {@code loadlab report}: executes {@code notebooks/report.ipynb} on one experiment with
 * {@code jupyter nbconvert} and writes one self-contained HTML file (charts embedded as data URIs,
 * no script or stylesheet loaded from elsewhere). Given more experiments, the report ends with
 * them reconciled with the first, as {@code loadlab compare A B} does.
 */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 100,
        description = {"Render an experiment as one self-contained HTML report (notebooks/report.ipynb).",
                "",
                "The report shows the environment, the comparison with the baseline, throughput and throughput",
                "per server CPU-second, the latency spectrum of each workload, merged latency percentiles and",
                "the warnings. An experiment with a latency sweep (loadlab run --latency-sweep, --rates) gets its",
                "latency section: the latency-throughput curves as a table and a chart of p99 against achieved",
                "throughput (the --slo objective and each knee marked), the knees, and p99 at equal rates; its",
                "throughput tables then hold the closed-loop capacity runs only, as loadlab compare's do.",
                "Given several DIRs, it reports on the first and ends with a section that",
                "reconciles the others with it, as loadlab compare A B does: the environment and set-up that",
                "differ, the order of the subjects in each, the ratio of ratios of every pair with its CI, and",
                "the facts that differ next to each pair that disagrees. Needs Jupyter with nbconvert: the jupyter",
                "on the PATH (pip, conda, a virtual environment), else Debian's /usr/bin/jupyter, or --jupyter;",
                "installs the 'loadlab' kernel for the user when Jupyter lacks it."},
        footer = {"", "Examples:",
                "  loadlab report data/sample",
                "  loadlab report data/sample data/sample-engines",
                "  loadlab report data/20261130-101500 --baseline java-netty --out /tmp/netty.html"})
final class ReportCommand implements Callable<Integer> {

    /** The notebook the report executes, relative to Loadlab's folder. */
    static final String TEMPLATE = "notebooks/report.ipynb";
    /** Cells of the template with this tag explain the template itself and stay out of reports. */
    static final String TEMPLATE_NOTES_TAG = "template-notes";

    @Spec
    CommandSpec commandSpec;

    @Parameters(paramLabel = "DIR", arity = "1..*",
            description = "the experiment folder, such as data/sample; more folders are reconciled with the first")
    List<Path> dirs;

    @Option(names = "--baseline", paramLabel = "SUBJECT", description = "baseline subject (default: first by name)")
    String baseline;

    @Option(names = "--out", paramLabel = "FILE", description = "the HTML file (default: reports/<experiment>.html, or <A>-vs-<B>.html)")
    Path out;

    @Option(names = "--with-code", description = "show the notebook's code cells too")
    boolean withCode;

    @Option(names = "--jupyter", paramLabel = "CMD",
            description = "the jupyter command (default: jupyter on the PATH, else /usr/bin/jupyter)")
    Path jupyter;

    @Option(names = "--timeout", paramLabel = "D", description = "limit for executing the notebook (default: ${DEFAULT-VALUE})")
    String timeout = "10m";

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path home = Home.path();
        Duration limit = Durations.parse(timeout);
        List<Path> experiments = dirs.stream().map(ReportCommand::checkExperiment).toList();
        Path experiment = experiments.get(0);
        checkBaseline(Results.load(experiment).okRuns(), baseline);
        if (experiments.size() > 1) {
            // What the notebook's reconcile section would fail on, as one line here: folders with no pair
            // of subjects in common, a baseline missing from one of them.
            Reconcile.load(experiments, RunColumn.RPS.id(), baseline, CompareOptions.defaults());
        }
        String name = String.join("-vs-", experiments.stream().map(p -> p.getFileName().toString()).toList());
        // Under the current folder, as the data: a user project keeps its reports beside its experiments.
        Path target = out != null ? out : Path.of("reports").resolve(name + ".html");
        PrintWriter err = commandSpec.commandLine().getErr();
        Path written = render(Jupyter.command(jupyter), home, experiments, Optional.ofNullable(baseline), target,
                withCode, limit, err);
        commandSpec.commandLine().getOut().println(shown(written));
        commandSpec.commandLine().getOut().flush();
        return 0;
    }

    /**
     * The experiment folder, absolute, when it holds an experiment (experiment.json and runs.csv).
     *
     * @throws CliException (usage) naming what is missing
     */
    static Path checkExperiment(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        if (!Files.isDirectory(abs)) {
            throw new CliException(dir + " is not a folder: give an experiment folder such as data/sample",
                    Main.EXIT_USAGE);
        }
        for (String file : List.of(ExperimentStore.SPEC_FILE, ExperimentStore.RUNS_FILE)) {
            if (!Files.isRegularFile(abs.resolve(file))) {
                throw new CliException(dir + " is not an experiment folder: it has no " + file
                        + " (experiments are the folders under data/, such as data/sample)", Main.EXIT_USAGE);
            }
        }
        return abs;
    }

    /**
     * Fails fast, in one line, where the notebook would fail after its start-up with a traceback:
     * no successful run, or a baseline that is not a subject with one.
     */
    private static void checkBaseline(Table okRuns, String baseline) {
        if (okRuns.rowCount() == 0) {
            throw new CliException("the experiment has no successful run (status ok): nothing to report",
                    Main.EXIT_USAGE);
        }
        if (baseline == null) {
            return;
        }
        List<String> subjects = okRuns.stringColumn(RunColumn.SUBJECT.id()).unique().asList().stream().sorted().toList();
        String subject = baseline.replaceFirst("\\[[^\\]]*\\]$", "");
        if (!subjects.contains(subject)) {
            throw new CliException("--baseline '" + baseline + "' is not a subject with a successful run here; subjects: "
                    + String.join(", ", subjects), Main.EXIT_USAGE);
        }
    }

    /**
     * Renders the report of one experiment.
     *
     * @param jupyter    the jupyter command ({@link Jupyter#command})
     * @param home       Loadlab's folder (holds the template)
     * @param experiments experiment folders checked by {@link #checkExperiment}: the one reported on,
     *                    then any to reconcile with it (passed as {@code LOADLAB_RECONCILE_WITH})
     * @param baseline   the baseline subject, or empty for the default
     * @param target     the HTML file to write (replaced when it exists)
     * @param withCode   whether the code cells are shown
     * @param limit      how long executing the notebook may take
     * @param log        where to say what is being done (the kernel installation, nbconvert)
     * @return the file written, absolute
     * @throws CliException when the notebook fails (exit 1, with
     *                      the tail of nbconvert's output)
     */
    static Path render(Path jupyter, Path home, List<Path> experiments, Optional<String> baseline, Path target, boolean withCode,
                       Duration limit, PrintWriter log) throws IOException, InterruptedException {
        Path experiment = experiments.get(0);
        Path notebook = home.resolve(TEMPLATE);
        if (!Files.isRegularFile(notebook)) {
            throw new CliException("cannot find the report template " + notebook, Main.EXIT_FAILED);
        }
        ensureKernel(jupyter, home, log);
        Path file = target.toAbsolutePath().normalize();
        Path parent = file.getParent();
        Files.createDirectories(parent);
        Path work = Files.createTempDirectory("loadlab-report");
        try {
            Path nbLog = work.resolve("nbconvert.log");
            List<String> cmd = new ArrayList<>(List.of(jupyter.toString(), "nbconvert", "--to", "html", "--execute",
                    notebook.toString(), "--ExecutePreprocessor.kernel_name=loadlab",
                    "--ExecutePreprocessor.timeout=" + Math.max(1, limit.toSeconds()),
                    "--TagRemovePreprocessor.enabled=True",
                    "--TagRemovePreprocessor.remove_cell_tags=" + TEMPLATE_NOTES_TAG,
                    "--output-dir", work.toString(), "--output", "report"));
            if (!withCode) {
                cmd.add("--no-input");
            }
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(notebook.getParent().toFile())
                    .redirectErrorStream(true).redirectOutput(nbLog.toFile());
            parameters(pb.environment(), home, experiments, baseline);
            log.println("Rendering the report of " + experiment.getFileName() + " (jupyter nbconvert --execute "
                    + TEMPLATE + ")...");
            log.flush();
            int code = runToEnd(pb, limit.plusSeconds(60), nbLog, "jupyter nbconvert");
            Path html = work.resolve("report.html");
            if (code != 0 || !Files.isRegularFile(html)) {
                throw new CliException("the report notebook failed (jupyter nbconvert exit " + code + "):\n"
                        + io.loadlab.subject.LogTail.of(nbLog, 30), Main.EXIT_FAILED);
            }
            String page = SelfContained.strip(Files.readString(html, StandardCharsets.UTF_8));
            Path tmp = parent.resolve("." + file.getFileName() + ".tmp");
            Files.writeString(tmp, page, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return file;
        } finally {
            try (Stream<Path> files = Files.walk(work)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** The template's parameters (its first cell reads them), in the environment of nbconvert. */
    private static void parameters(Map<String, String> env, Path home, List<Path> experiments, Optional<String> baseline) {
        env.put("LOADLAB_HOME", home.toString());
        env.put("LOADLAB_EXPERIMENT", experiments.get(0).toString());
        List<String> others = experiments.subList(1, experiments.size()).stream().map(Path::toString).toList();
        if (others.isEmpty()) {
            env.remove("LOADLAB_RECONCILE_WITH");
        } else {
            env.put("LOADLAB_RECONCILE_WITH", String.join(java.io.File.pathSeparator, others));
        }
        baseline.ifPresentOrElse(b -> env.put("LOADLAB_BASELINE", b), () -> env.remove("LOADLAB_BASELINE"));
        env.put("PYTHONDONTWRITEBYTECODE", "1");
    }

    /**
     * Installs the kernel for the user (as {@code loadlab kernel install --user}) when Jupyter has
     * no kernel named loadlab, or when its kernel runs another checkout.
     */
    static void ensureKernel(Path jupyter, Path home, PrintWriter log) throws IOException, InterruptedException {
        Optional<String> installed = installedKernel(jupyter);
        if (installed.isPresent() && installed.get().contains(home.resolve("target").toString())) {
            return;
        }
        log.println(installed.isEmpty() ? "Jupyter has no 'loadlab' kernel: installing it for this user..."
                : "Jupyter's 'loadlab' kernel runs another checkout: installing this one for this user...");
        log.flush();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"kernel", "install", "--user", "--jupyter", jupyter.toString()},
                new PrintWriter(out, true), new PrintWriter(err, true));
        if (code != 0) {
            throw new CliException("cannot install the Jupyter kernel: " + (err + " " + out).strip(), Main.EXIT_FAILED);
        }
    }

    /** The kernel.json of Jupyter's kernel named loadlab, if it has one. */
    private static Optional<String> installedKernel(Path jupyter) throws IOException, InterruptedException {
        Path listing = Files.createTempFile("loadlab-kernelspecs", ".json");
        try {
            ProcessBuilder pb = new ProcessBuilder(jupyter.toString(), "kernelspec", "list", "--json")
                    .redirectOutput(listing.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
            int code = runToEnd(pb, Duration.ofSeconds(60), listing, "jupyter kernelspec list");
            if (code != 0) {
                throw new CliException("jupyter kernelspec list failed (exit " + code + "): " + io.loadlab.subject.LogTail.of(listing, 5),
                        Main.EXIT_FAILED);
            }
            JsonNode spec = io.loadlab.data.Json.mapper().readTree(listing.toFile()).path("kernelspecs").path("loadlab");
            if (spec.isMissingNode()) {
                return Optional.empty();
            }
            Path kernelJson = Path.of(spec.path("resource_dir").asText()).resolve("kernel.json");
            return Optional.of(Files.isRegularFile(kernelJson) ? Files.readString(kernelJson) : "");
        } finally {
            Files.deleteIfExists(listing);
        }
    }

    /**
     * Runs a process to its end with its standard input closed; past {@code limit} it is stopped
     * with its whole tree (by PID) and that is an error.
     */
    private static int runToEnd(ProcessBuilder pb, Duration limit, Path output, String what)
            throws IOException, InterruptedException {
        Process p = pb.start();
        p.getOutputStream().close();
        try {
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new CliException(what + " did not finish in " + Durations.format(limit) + ":\n" + io.loadlab.subject.LogTail.of(output, 20),
                        Main.EXIT_FAILED);
            }
            return p.exitValue();
        } finally {
            if (p.isAlive()) {
                // Its children first (nbconvert's kernel), while they can still be found through it.
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** A path relative to the current folder when it lies below it, else absolute. */
    static String shown(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path cwd = Path.of("").toAbsolutePath();
        return abs.startsWith(cwd) ? cwd.relativize(abs).toString() : abs.toString();
    }


    /**
     * Makes nbconvert's page independent of other files: drops the scripts it loads from elsewhere
     * (RequireJS and MathJax, which Debian points at file:///usr/share/javascript and which only
     * widgets and LaTeX need) and external stylesheets (the lab template inlines its own CSS).
     */
    static final class SelfContained {
        private static final Pattern EXTERNAL_SCRIPT = Pattern.compile(
                "<script\\b[^>]*\\bsrc\\s*=[^>]*>\\s*</script>\\s*", Pattern.CASE_INSENSITIVE);
        private static final Pattern MATHJAX_CONFIG = Pattern.compile(
                "<script\\b[^>]*type=\"text/x-mathjax-config\"[^>]*>.*?</script>\\s*",
                Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
        private static final Pattern EXTERNAL_LINK = Pattern.compile(
                "<link\\b[^>]*\\bhref\\s*=\\s*[\"']?(?:https?:|file:|//)[^>]*>\\s*", Pattern.CASE_INSENSITIVE);

        private SelfContained() {
        }

        static String strip(String html) {
            String s = EXTERNAL_SCRIPT.matcher(html).replaceAll("");
            s = MATHJAX_CONFIG.matcher(s).replaceAll("");
            return EXTERNAL_LINK.matcher(s).replaceAll("");
        }
    }
}
