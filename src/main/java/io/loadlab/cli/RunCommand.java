package io.loadlab.cli;

import io.loadlab.data.RunColumn;
import io.loadlab.experiment.Experiment;
import io.loadlab.experiment.ExperimentSpec;
import io.loadlab.experiment.Runner;
import io.loadlab.load.Warmup;
import io.loadlab.project.Project;
import io.loadlab.project.ProjectRef;
import io.loadlab.subject.SubjectProcess;
import io.loadlab.time.Durations;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loadlab run}: an experiment of rotated rounds, written to {@code data/<name>/}. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 100,
        description = {"Run subjects x workloads x rounds and write data/<name>/ (experiment.json, runs.csv, latency.hlog).",
                "",
                "Each round starts every subject afresh, in an order rotated by the round (or shuffled), pinned to",
                "the server CPUs while the engine runs on the load CPUs. Ctrl-C stops cleanly (twice: kills the",
                "subject at once); --resume completes.",
                "",
                "A latency sweep (--latency-sweep, --rates) compares latency at equal offered load: per subject,",
                "workload and round, a closed-loop run measures the capacity, then fixed-rate windows run at the",
                "given shares of it and at the given absolute rates, each with its warm-up and missed count;",
                "loadlab compare then shows the latency-throughput curves, the knee at --slo and p99 at equal rates.",
                "",
                "In a folder with a loadlab.yaml (or with -f FILE) it runs that project: your own subjects, revisions",
                "and workloads (docs/guide/project-file.md), its plan's values for the options not given here, and the",
                "data in data/<project name>-<date-time>/ of the current folder."},
        footer = {"", "Examples:",
                "  loadlab run --subjects 'java-.*' --workloads 'plaintext|json' --rounds 4 --duration 5s",
                "  loadlab run --subjects 'java-netty' --workloads 'put-1k' --variants 'durability=.*'",
                "  loadlab run --subjects 'java-netty|go-nethttp' --engine builtin,wrk --rounds 3",
                "  loadlab run --subjects 'java-netty|go-nethttp' --rounds auto --max-rounds 12 --budget 20m",
                "  loadlab run --subjects 'nginx|go-nethttp|java-netty' --protocols 'h1|h1-tls|h2-tls'",
                "  loadlab run --subjects 'go-nethttp' --variants 'protocol=.*' --streams 10",
                "  loadlab run --subjects 'java-netty|go-nethttp' --workloads plaintext --latency-sweep 50,90,110 \\",
                "      --rates 5000,20000 --slo 5ms",
                "  loadlab run --resume data/20261130-101500",
                "  loadlab run -f examples/orders/loadlab.yaml --rounds 3"})
final class RunCommand implements Callable<Integer> {

    /** How long Ctrl-C waits for the clean stop before it kills the subjects and lets the JVM end. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);
    /** The spec's own defaults, which the options show and start from (one definition: the builder's). */
    private static final ExperimentSpec DEFAULTS = ExperimentSpec.builder().name("defaults").build();

    @Spec
    CommandSpec commandSpec;

    @Option(names = "--subjects", paramLabel = "RE", description = "subjects to run, regular expression (default: ${DEFAULT-VALUE})")
    String subjects = DEFAULTS.selection().subjects();

    @Option(names = "--workloads", paramLabel = "RE", description = "workloads, regular expression (default: ${DEFAULT-VALUE})")
    String workloads = DEFAULTS.selection().workloads();

    @Option(names = "--variants", paramLabel = "RE",
            description = {"variants such as 'durability=fsync' (default: each subject's first variant); a pattern",
                    "naming only some variants ('protocol=.*') leaves the others at their first value"})
    String variants;

    @Option(names = "--protocols", paramLabel = "RE",
            description = {"protocol variants to run: h1, h1-tls, h2-tls, h2c, a regular expression such as",
                    "'h1|h2-tls' (TLS with a throw-away CA per experiment; default: what --variants chooses)"})
    String protocols;

    @Option(names = "--streams", paramLabel = "N",
            description = "HTTP/2 streams per connection in the h2 variants (default: ${DEFAULT-VALUE}, the concurrency of h1)")
    int streams = DEFAULTS.load().streams();

    @Mixin
    RoundsOptions rounds = new RoundsOptions();

    @Option(names = {"-d", "--duration"}, paramLabel = "D", description = "measured window per run (default: ${DEFAULT-VALUE})")
    String duration = Durations.format(DEFAULTS.load().duration());

    @Option(names = "--warmup", paramLabel = "D|auto",
            description = {"warm-up per run: 'auto' loads until the throughput is steady (at most --warmup-max,",
                    "widened by a subject's own bounds), a duration such as 3s exactly that (default: ${DEFAULT-VALUE})"})
    String warmup = Warmup.AUTO;

    @Option(names = "--warmup-max", paramLabel = "D",
            description = "longest steady-state warm-up; a run not steady by then is measured and flagged not_steady (default: ${DEFAULT-VALUE})")
    String warmupMax = Durations.format(ExperimentSpec.DEFAULT_WARMUP_MAX);

    @Option(names = "--cooldown", paramLabel = "D", description = "pause between runs (default: ${DEFAULT-VALUE})")
    String cooldown = Durations.format(DEFAULTS.load().cooldown());

    @Option(names = {"-c", "--connections"}, paramLabel = "N", description = "connections (default: ${DEFAULT-VALUE})")
    int connections = DEFAULTS.load().connections();

    @Option(names = {"-t", "--threads"}, paramLabel = "N", description = "engine threads (default: one per load CPU)")
    int threads;

    @Option(names = {"-R", "--rate"}, paramLabel = "RPS", description = {"fixed rate per run in requests/s (default: closed",
            "loop); for oha its -q with --latency-correction"})
    Double rate;

    @Option(names = "--pace-slack", paramLabel = "D", description = "built-in engine at a fixed rate: send on a grid of D, the"
            + " requests due in the same D together at its end (less CPU); latency can only rise, by at most D (default: 0)")
    String paceSlack;

    @Option(names = "--latency-sweep", paramLabel = "PCTS", split = ",",
            description = {"a latency sweep: per subject, workload and round a closed-loop run measures the capacity,",
                    "then fixed-rate windows run at these percentages of it, e.g. 25,50,75,90,100,110"})
    List<Double> sweepPercents;

    @Option(names = "--rates", paramLabel = "RPS", split = ",",
            description = {"a latency sweep's absolute rates in requests/s, the same for every subject (with or",
                    "without --latency-sweep), e.g. 1000,5000,20000"})
    List<Double> sweepRates;

    @Option(names = "--capacity-from", paramLabel = "DIR",
            description = {"take the sweep's capacities from the closed-loop runs of this experiment (their mean",
                    "rps) instead of measuring them each round"})
    Path capacityFrom;

    @Option(names = "--slo", paramLabel = "D",
            description = "the sweep's p99 objective, whose knee loadlab compare finds (default there: "
                    + io.loadlab.stats.SweepRuns.DEFAULT_SLO_MS + "ms)")
    String slo;

    @Option(names = "--engine", paramLabel = "LIST",
            description = {"load generators, comma-separated: builtin, wrk, h2load,",
                    "oha (default: ${DEFAULT-VALUE}); each runs every subject and",
                    "workload in every round. wrk, h2load: closed loop only;",
                    "wrk: whole-second --duration/--warmup; oha (scripts/setup",
                    "installs it): closed loop or --rate. Protocols: wrk h1, h1-tls;",
                    "h2load and oha all four (--streams as -m, -p); only oha",
                    "checks certificates (trusting the experiment's CA)"})
    String engine = "builtin";

    @Mixin
    AgentOptions agentOptions = new AgentOptions();

    @Mixin
    SubjectHostOption subjectHost = new SubjectHostOption();

    @Mixin
    ProjectSection projectSection = new ProjectSection();

    @Option(names = "--order", paramLabel = "ORDER", description = "rotate or shuffle (default: ${DEFAULT-VALUE})")
    String order = DEFAULTS.order().name().toLowerCase(Locale.ROOT);

    @Option(names = "--seed", paramLabel = "N", description = "seed of the shuffled order (default: ${DEFAULT-VALUE})")
    long seed = DEFAULTS.seed();

    @Option(names = "--server-cpus", paramLabel = "LIST", description = "CPUs of the subjects, e.g. 0 (default: CPU 0)")
    String serverCpus;

    @Option(names = "--load-cpus", paramLabel = "LIST", description = "CPUs of the engine, e.g. 1-3 (default: the others)")
    String loadCpus;

    @Option(names = "--out", paramLabel = "DIR", description = "experiment folder (default: data/<date-time>)")
    Path out;

    @Option(names = "--resume", paramLabel = "DIR", description = "complete the experiment in DIR (other options are ignored)")
    Path resume;

    @Override
    public Integer call() {
        PrintWriter out = commandSpec.commandLine().getOut();
        PrintWriter err = commandSpec.commandLine().getErr();
        Path home = Home.path();
        ConsoleProgress progress = new ConsoleProgress(err);
        Experiment exp = experiment(home, progress, err);
        exp.plan().skipped().forEach(s -> err.println("skipped " + s));
        exp.warnings().forEach(w -> err.println("warning: " + w));
        return finish(out, execute(exp, progress, out, err));
    }

    /**
     * The experiment these options describe, ready to execute: the one in {@code --resume}, else a new
     * one of the project ({@code -f}, {@code ./loadlab.yaml}) or of Loadlab's bundled subjects.
     */
    Experiment experiment(Path home, io.loadlab.experiment.Runner.Progress progress, PrintWriter err) {
        if (resume != null) {
            Experiment exp = Experiment.resume(home, resume, progress);
            err.printf(Locale.ROOT, "Resuming %s: %d of %d runs recorded%n", resume, exp.done().size(),
                    exp.plan().runs().size());
            return exp;
        }
        Optional<Project> project = projectSection.read();
        project.ifPresent(p -> ProjectSection.apply(commandSpec, p));
        ExperimentSpec spec = spec(project.map(p -> p.ref(p.catalog(home, Map.of()).commits())),
                project.map(Project::name));
        Path dir = this.out != null ? this.out : Path.of("data", spec.name());
        return Experiment.create(home, spec, dir, commandLine(commandSpec), progress);
    }

    /**
     * Runs what is left of the experiment with progress on {@code err} and Ctrl-C handling, then
     * prints the summary table, the warnings and where the data is (run and rerun alike).
     */
    static Runner.Outcome execute(Experiment exp, ConsoleProgress progress, PrintWriter out, PrintWriter err) {
        progress.begin(exp.plan(), exp.done().size());
        Runner.Outcome outcome = executeStoppable(exp, err);
        progress.end();
        RunSummary.print(out, outcome);
        printWarnings(out, outcome.dir());
        out.printf(Locale.ROOT, "%nData: %s (experiment.json, runs.csv, latency.hlog); status %s%n",
                outcome.dir(), outcome.status());
        return outcome;
    }

    /** Says how to complete an interrupted experiment; the exit code: 0 only when it completed. */
    static int finish(PrintWriter out, Runner.Outcome outcome) {
        if (outcome.status().equals("interrupted")) {
            out.printf(Locale.ROOT, "Complete it with: loadlab run --resume %s%n", outcome.dir());
        }
        out.flush();
        return outcome.status().equals("completed") ? 0 : Main.EXIT_FAILED;
    }

    /**
     * Executes the experiment with a shutdown hook: Ctrl-C (or SIGTERM, SIGHUP) stops the run in
     * flight and the subject, keeps the rows and marks the experiment interrupted, saying how to
     * resume. A second Ctrl-C kills the subject at once instead of waiting out its grace period.
     */
    static Runner.Outcome executeStoppable(Experiment exp, PrintWriter err) {
        Thread hook = new Thread(() -> stopOnSignal(exp, err), "loadlab-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return exp.execute();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running (Ctrl-C): it waits for the clean-up that just ended.
            }
        }
    }

    /** The shutdown hook's work: the JVM halts when it returns. */
    private static void stopOnSignal(Experiment exp, PrintWriter err) {
        err.println();
        err.println("Stopping: the run in flight is dropped, the subject stopped, the rows so far kept"
                + " (Ctrl-C again kills the subject at once)...");
        err.flush();
        long deadline = System.nanoTime() + STOP_WAIT.toNanos();
        boolean clean = false;
        boolean killed = false;
        while (!clean && System.nanoTime() < deadline) {
            clean = exp.stop(Duration.ofMillis(50));
            if (!clean && !killed && anotherSignal()) {
                killed = true;
                err.printf(Locale.ROOT, "Killing %d subject(s) at once...%n", SubjectProcess.killAll());
                err.flush();
            }
        }
        if (!clean) {
            // Nothing the harness started may outlive it (a watchdog would kill it a moment later).
            SubjectProcess.killAll();
        }
        err.printf(Locale.ROOT, "%s. Complete it with: loadlab run --resume %s%n",
                clean ? "Interrupted" : "Interrupted (clean-up did not finish in " + STOP_WAIT.toSeconds()
                        + " s; subjects killed)", exp.dir());
        err.flush();
    }

    /**
     * Whether a second signal arrived while this shutdown runs. The JVM handles each signal on a
     * new thread named "SIGINT handler" (or "SIGTERM handler"...), which calls System.exit; the
     * first one runs the shutdown hooks, a later one blocks in System.exit until they end and so
     * is still there to be seen. Under a JDK that names these threads otherwise, a second Ctrl-C
     * only has no effect, which is the JVM's own behaviour: it can neither cut the clean-up short
     * nor damage files.
     */
    static boolean anotherSignal() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("SIG") && t.getName().endsWith(" handler")).count() >= 2;
    }

    private ExperimentSpec spec(Optional<ProjectRef> project, Optional<String> prefix) {
        ExperimentSpec.Order o;
        try {
            o = ExperimentSpec.Order.valueOf(order.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CliException("--order must be rotate or shuffle, got '" + order + "'", Main.EXIT_USAGE);
        }
        if (out != null && out.toAbsolutePath().normalize().getFileName() == null) {
            throw new CliException("--out " + out + " has no folder name: give a folder such as data/my-experiment",
                    Main.EXIT_USAGE);
        }
        String name = out != null ? out.toAbsolutePath().normalize().getFileName().toString()
                : prefix.map(p -> p + "-").orElse("")
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        return rounds.apply(ExperimentSpec.builder()).name(name).subjects(subjects).workloads(workloads).variants(variants)
                .order(o).seed(seed).duration(Durations.parse(duration))
                .warmup(Warmup.parse(warmup, Durations.parse(warmupMax))).cooldown(Durations.parse(cooldown))
                .connections(connections).threads(threads).rate(rate).paceSlack(paceSlack == null ? null : Durations.parse(paceSlack))
                .serverCpus(serverCpus).loadCpus(loadCpus).engines(engines()).sweep(sweep()).protocols(protocols).streams(streams)
                .project(project.orElse(null)).agents(agentOptions.agentSet(subjectHost.given()).orElse(null))
                .subjectHost(subjectHost.of(agentOptions.secretFile).orElse(null)).build();
    }

    /** The latency sweep the options ask for; {@code null} for none. */
    private io.loadlab.experiment.Sweep sweep() {
        if (sweepPercents == null && sweepRates == null) {
            if (capacityFrom != null || slo != null) {
                throw new CliException("--capacity-from and --slo belong to a latency sweep: add --latency-sweep"
                        + " or --rates", Main.EXIT_USAGE);
            }
            return null;
        }
        if (capacityFrom != null && sweepPercents == null) {
            throw new CliException("--capacity-from gives the capacity that --latency-sweep's shares are taken of:"
                    + " add --latency-sweep", Main.EXIT_USAGE);
        }
        io.loadlab.experiment.Sweep.CapacitySource source = capacityFrom == null
                ? new io.loadlab.experiment.Sweep.Measured() : io.loadlab.experiment.Sweep.Given.from(capacityFrom);
        return new io.loadlab.experiment.Sweep(sweepPercents == null ? List.of() : sweepPercents,
                sweepRates == null ? List.of() : sweepRates, source,
                java.util.Optional.ofNullable(slo).map(Durations::parse));
    }

    private List<io.loadlab.engine.Engine> engines() {
        try {
            return io.loadlab.engine.Engine.list(engine);
        } catch (io.loadlab.engine.EngineException e) {
            throw new CliException("--engine: " + e.getMessage(), Main.EXIT_USAGE);
        }
    }

    /** {@code loadlab} and the arguments as given, for experiment.json. */
    static List<String> commandLine(CommandSpec spec) {
        List<String> cl = new ArrayList<>(List.of("loadlab"));
        cl.addAll(spec.commandLine().getParseResult().originalArgs());
        return cl;
    }

    /**
     * One line counting the experiment's warnings by kind (all its rows, resumed ones included), and
     * where to read them; nothing when there are none.
     */
    static void printWarnings(PrintWriter out, Path dir) {
        java.util.List<io.loadlab.stats.Warning> warnings;
        try {
            warnings = io.loadlab.stats.Warnings.find(io.loadlab.data.Results.load(dir).runs(), RunColumn.RPS.id(),
                    io.loadlab.stats.WarningOptions.defaults());
        } catch (RuntimeException e) {
            return; // nothing measured (every run failed): the table above says so
        }
        if (warnings.isEmpty()) {
            return;
        }
        Map<String, Integer> byKind = new LinkedHashMap<>();
        warnings.forEach(w -> byKind.merge(w.kind(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        byKind.forEach((k, n) -> parts.add(n + " " + k));
        out.printf(Locale.ROOT, "%nWarnings: %s (each in: loadlab compare %s)%n", String.join(", ", parts), dir);
    }
}
