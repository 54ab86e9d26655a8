package io.loadlab.cli;

import io.loadlab.data.DataException;
import io.loadlab.data.EnvironmentSection;
import io.loadlab.data.ExperimentJson;
import io.loadlab.data.ExperimentStore;
import io.loadlab.experiment.Experiment;
import io.loadlab.experiment.Rerun;
import io.loadlab.experiment.Runner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loadlab rerun}: the experiment recorded in a folder, run again here with the same plan. */
@Command(name = "rerun", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 100,
        description = {"Run the experiment recorded in DIR/experiment.json again, here, into a new folder.",
                "",
                "The same subjects, variants, workloads, rounds, order, seed, durations, warm-up, connections,",
                "threads, rate and engines: the plan here is held against the recorded one run by run, and the",
                "rerun refuses to start when it differs or when a recorded subject, workload or engine is missing",
                "here (naming each), or when DIR was imported (it records no spec). It says which subjects'",
                "manifest or sources differ from the hashes recorded with DIR, and which toolchain or engine",
                "versions differ. Then: loadlab compare DIR DIR2."},
        footer = {"", "Examples:",
                "  loadlab rerun data/sample",
                "  loadlab rerun data/their-experiment --out data/ours"})
final class RerunCommand implements Callable<Integer> {

    @Spec
    CommandSpec commandSpec;

    @Parameters(paramLabel = "DIR", description = "the recorded experiment, such as data/sample")
    Path from;

    @Option(names = "--out", paramLabel = "DIR2", description = "the new experiment's folder (default: data/<name>-rerun-<date-time>)")
    Path out;

    @Override
    public Integer call() {
        PrintWriter out = commandSpec.commandLine().getOut();
        PrintWriter err = commandSpec.commandLine().getErr();
        Path home = Home.path();
        Path dir = target();
        Rerun rerun = Rerun.prepare(home, from, dir.toAbsolutePath().normalize().getFileName().toString());
        ConsoleProgress progress = new ConsoleProgress(err);
        Experiment exp = rerun.create(home, dir, RunCommand.commandLine(commandSpec), progress);
        err.printf(Locale.ROOT, "Rerunning %s as %s: %d runs, the recorded plan%n", from, dir, exp.plan().runs().size());
        rerun.notes().forEach(n -> err.println("note: " + n));
        versionNotes(rerun.origin(), dir).forEach(n -> err.println("note: " + n));
        exp.warnings().forEach(w -> err.println("warning: " + w));
        Runner.Outcome outcome = RunCommand.execute(exp, progress, out, err);
        out.printf(Locale.ROOT, "Compare with the recorded experiment: loadlab compare %s %s%n", from, outcome.dir());
        return RunCommand.finish(out, outcome);
    }

    private Path target() {
        if (out != null) {
            if (out.toAbsolutePath().normalize().getFileName() == null) {
                throw new CliException("--out " + out + " has no folder name: give a folder such as data/rerun",
                        Main.EXIT_USAGE);
            }
            return out;
        }
        Path name = from.toAbsolutePath().normalize().getFileName();
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        return Path.of("data", (name == null ? "experiment" : name.toString()) + "-rerun-" + stamp);
    }

    /** Toolchain and engine versions recorded then and found here, where they differ. */
    static List<String> versionNotes(ExperimentJson origin, Path dir) {
        EnvironmentSection now;
        try {
            now = ExperimentJson.read(dir).environment();
        } catch (DataException e) {
            throw new CliException("cannot read the new " + dir.resolve(ExperimentStore.SPEC_FILE) + ": " + e.getMessage(),
                    Main.EXIT_FAILED);
        }
        EnvironmentSection then = origin.environment();
        List<String> notes = new ArrayList<>();
        notes.addAll(differences("version of ", then.subjectVersions(), now.subjectVersions()));
        notes.addAll(differences("engine ", then.engineVersions(), now.engineVersions()));
        return notes;
    }

    private static List<String> differences(String what, Map<String, String> was, Map<String, String> is) {
        List<String> notes = new ArrayList<>();
        is.forEach((name, here) -> {
            String then = was.getOrDefault(name, "(not recorded)");
            if (!then.equals(here)) {
                notes.add(what + name + " differs: '" + then + "' then, '" + here + "' here");
            }
        });
        return notes;
    }
}
