package io.loadlab.cli;

import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import io.loadlab.experiment.Experiment;
import io.loadlab.experiment.ExperimentSpec;
import io.loadlab.experiment.Runner;
import io.loadlab.format.TextTable;
import io.loadlab.format.Units;
import io.loadlab.load.Warmup;
import io.loadlab.stats.Stats;
import io.loadlab.stats.StatsColumn;
import io.loadlab.time.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import tech.tablesaw.api.Table;

/**
 * {@code loadlab demo}, the project's main job: a short experiment on seven of the bundled subjects
 * (those of them that can run here), then its HTML report. Everything it does is what {@code loadlab run} and
 * {@code loadlab report} do, with settings chosen to finish in a few minutes on two cores.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 100,
        description = {"Run a short experiment on seven bundled subjects and render its HTML report.",
                "",
                "Installs the Jupyter kernel for the user when Jupyter lacks it (with no Jupyter at all, the",
                "demo runs without its HTML report), runs plaintext and json on cpp-beast, drogon, go-nethttp,",
                "java-httpserver, java-netty, nginx and rust-axum (those that",
                "can run here): 3 rounds of 2 s windows, each after a warm-up that lasts until the throughput",
                "is steady: about 6 minutes on a 2-core machine. Writes data/demo-<date-time>/, renders reports/demo-<date-time>.html and",
                "prints a summary table. Short windows: loadlab run takes longer settings for figures to publish."},
        footer = {"", "Same settings by hand:",
                "  loadlab run --subjects '" + DemoCommand.SUBJECTS + "' \\",
                "      --workloads 'plaintext|json' --rounds 3 -d 2s --warmup auto --cooldown 0s",
                "  loadlab report data/<name>"})
final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec commandSpec;

    /**
     * The demo's subjects: the kinds the field compares (native C++ and Rust with the drogon-axum
     * pair, the JVM fast and slow, Go, nginx), enough to show every analysis in about six minutes on
     * two cores. node-http, in the demo until the warm-up rule gained its noise test, is left out for
     * time: its half-second throughput is the noisiest here, so its warm-ups ran longest (47 s of a
     * demo's 314 s). All twelve: {@code --subjects '.*'}.
     */
    static final String SUBJECTS = "cpp-beast|drogon|go-nethttp|java-httpserver|java-netty|nginx|rust-axum";

    @Option(names = "--subjects", paramLabel = "RE",
            description = "subjects, regular expression (default: ${DEFAULT-VALUE}; '.*' for all twelve)")
    String subjects = SUBJECTS;

    @Option(names = "--workloads", paramLabel = "RE", description = "workloads, regular expression (default: ${DEFAULT-VALUE})")
    String workloads = "plaintext|json";

    @Option(names = "--rounds", paramLabel = "N", description = "rounds (default: ${DEFAULT-VALUE})")
    int rounds = 3;

    @Option(names = {"-d", "--duration"}, paramLabel = "D", description = "measured window per run (default: ${DEFAULT-VALUE})")
    String duration = "2s";

    @Option(names = "--warmup", paramLabel = "D|auto",
            description = "warm-up per run: auto (until steady) or a duration (default: ${DEFAULT-VALUE})")
    String warmup = Warmup.AUTO;

    @Option(names = "--warmup-max", paramLabel = "D", description = "longest steady-state warm-up (default: ${DEFAULT-VALUE})")
    String warmupMax = Durations.format(ExperimentSpec.DEFAULT_WARMUP_MAX);

    @Option(names = "--jupyter", paramLabel = "CMD",
            description = "the jupyter command for the report (default: jupyter on the PATH, else /usr/bin/jupyter)")
    Path jupyter;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = commandSpec.commandLine().getOut();
        PrintWriter err = commandSpec.commandLine().getErr();
        Path home = Home.path();
        // Jupyter first: better to say it is missing now than after minutes of runs. Without one (a user
        // who may not install it) the runs go on and only the HTML report is left out.
        Optional<Path> jupyterCommand = Jupyter.ifAny(jupyter);
        if (jupyterCommand.isPresent()) {
            ReportCommand.ensureKernel(jupyterCommand.get(), home, err);
        } else {
            err.println("No Jupyter: the demo runs without its HTML report (" + Jupyter.INSTALL_HINT + ")");
        }

        String name = "demo-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        ExperimentSpec spec = ExperimentSpec.builder().name(name).subjects(subjects).workloads(workloads)
                .rounds(rounds).duration(Durations.parse(duration))
                .warmup(Warmup.parse(warmup, Durations.parse(warmupMax)))
                .cooldown(Duration.ZERO).build();
        Path dir = home.resolve("data").resolve(name);
        ConsoleProgress progress = new ConsoleProgress(err);
        Experiment exp = Experiment.create(home, spec, dir, commandLine(), progress);
        exp.plan().skipped().forEach(s -> err.println("skipped " + s));
        err.printf(Locale.ROOT, "Demo: %d runs (%d subject instances x %s x %d rounds of %s, each after a %s) into %s%n",
                exp.plan().runs().size(), exp.plan().instances().size(), workloads, rounds, duration,
                spec.load().warmup().describe(), ReportCommand.shown(dir));
        err.flush();
        progress.begin(exp.plan(), 0);
        Runner.Outcome outcome = RunCommand.executeStoppable(exp, err);
        progress.end();
        if (!outcome.status().equals("completed")) {
            out.printf(Locale.ROOT, "The experiment ended %s; data so far in %s%n", outcome.status(), ReportCommand.shown(dir));
            out.flush();
            return Main.EXIT_FAILED;
        }
        summary(out, Results.load(dir));
        RunCommand.printWarnings(out, dir);
        out.flush();

        String report = "none (no Jupyter: " + Jupyter.INSTALL_HINT + ")";
        if (jupyterCommand.isPresent()) {
            report = ReportCommand.shown(ReportCommand.render(jupyterCommand.get(), home, List.of(dir), Optional.empty(),
                    home.resolve("reports").resolve(name + ".html"), false, Duration.ofMinutes(10), err));
        }
        out.printf(Locale.ROOT, "%nData:   %s (experiment.json, runs.csv, latency.hlog)%nReport: %s%n", ReportCommand.shown(dir),
                report);
        out.printf(Locale.ROOT, "In a terminal: ./loadlab compare %s [--baseline SUBJECT]%n", ReportCommand.shown(dir));
        out.flush();
        return 0;
    }

    /** A free TCP port on the loopback interface (SubjectsCommand uses it). */
    static int freePort() throws IOException {
        return io.loadlab.subject.SubjectProcess.freePort();
    }

    private List<String> commandLine() {
        List<String> cl = new ArrayList<>(List.of("loadlab"));
        cl.addAll(commandSpec.commandLine().getParseResult().originalArgs());
        return cl;
    }

    /** One row per subject, variant and workload: runs, mean rps and its CV, merged p99, rps per server CPU-s. */
    private static void summary(PrintWriter out, Results results) {
        Table runs = results.runs();
        Table rps = Stats.summarize(runs, RunColumn.RPS.id());
        Table perCpu = Stats.summarize(runs, RunColumn.RPS_PER_SERVER_CPU_S.id());
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < rps.rowCount(); i++) {
            String subject = rps.stringColumn(RunColumn.SUBJECT.id()).get(i);
            String variant = rps.stringColumn(RunColumn.VARIANT.id()).get(i);
            String workload = rps.stringColumn(RunColumn.WORKLOAD.id()).get(i);
            Table group = runs.where(runs.stringColumn(RunColumn.SUBJECT.id()).isEqualTo(subject)
                    .and(runs.stringColumn(RunColumn.VARIANT.id()).isEqualTo(variant))
                    .and(runs.stringColumn(RunColumn.WORKLOAD.id()).isEqualTo(workload)));
            Table ok = group.where(group.stringColumn(RunColumn.STATUS.id()).isEqualTo(RunColumn.Status.OK.value()));
            double cpu = Double.NaN;
            for (int j = 0; j < perCpu.rowCount(); j++) {
                if (perCpu.stringColumn(RunColumn.SUBJECT.id()).get(j).equals(subject) && perCpu.stringColumn(RunColumn.VARIANT.id()).get(j).equals(variant)
                        && perCpu.stringColumn(RunColumn.WORKLOAD.id()).get(j).equals(workload)) {
                    cpu = perCpu.doubleColumn(StatsColumn.MEAN.id()).get(j);
                }
            }
            Histogram h = results.latency(subject, variant, workload);
            double cv = rps.doubleColumn(StatsColumn.CV.id()).get(i);
            rows.add(new String[] {variant.isEmpty() ? subject : subject + " [" + variant + "]", workload,
                    ok.rowCount() + "/" + group.rowCount(),
                    Units.integer(rps.doubleColumn(StatsColumn.MEAN.id()).get(i)), Units.percent(cv),
                    h.getTotalCount() == 0 ? "" : Units.count(h.getValueAtPercentile(99)), Units.integer(cpu),
                    Integer.toString(ok.booleanColumn(RunColumn.LOAD_BOUND.id()).isTrue().size())});
        }
        int failed = runs.where(runs.stringColumn(RunColumn.STATUS.id()).isNotEqualTo(RunColumn.Status.OK.value())).rowCount();
        out.println();
        TextTable.print(out, new String[] {"subject", "workload", "ok_runs", "rps_mean", "rps_cv", "p99_us_merged",
                "rps_per_server_cpu_s", "load_bound_runs"}, rows, 2);
        if (failed > 0) {
            out.printf(Locale.ROOT, "%n%d runs failed; their errors are in runs.csv (column error) and in the report's warnings%n",
                    failed);
        }
    }
}
