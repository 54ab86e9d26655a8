package io.loadlab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadlab.data.ExperimentStore;
import io.loadlab.experiment.Experiment;
import io.loadlab.experiment.Rerun;
import io.loadlab.experiment.Runner;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
        progress.begin(exp.plan(), 0);
        Runner.Outcome outcome = RunCommand.executeStoppable(exp, err);
        progress.end();
        RunCommand.summary(out, outcome);
        RunCommand.printWarnings(out, outcome.dir());
        out.printf(Locale.ROOT, "%nData: %s (experiment.json, runs.csv, latency.hlog); status %s%n", outcome.dir(),
                outcome.status());
        out.printf(Locale.ROOT, "Compare with the recorded experiment: loadlab compare %s %s%n", from, outcome.dir());
        if (outcome.status().equals("interrupted")) {
            out.printf(Locale.ROOT, "Complete it with: loadlab run --resume %s%n", outcome.dir());
        }
        out.flush();
        return outcome.status().equals("completed") ? 0 : Main.EXIT_FAILED;
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
    static List<String> versionNotes(JsonNode origin, Path dir) {
        JsonNode now;
        try {
            now = new ObjectMapper().readTree(dir.resolve(ExperimentStore.SPEC_FILE).toFile());
        } catch (IOException e) {
            throw new CliException("cannot read the new " + dir.resolve(ExperimentStore.SPEC_FILE) + ": " + e.getMessage(),
                    Main.EXIT_FAILED);
        }
        List<String> notes = new ArrayList<>();
        for (String group : List.of("subject_versions", "engine_versions")) {
            JsonNode was = origin.path("environment").path(group);
            JsonNode is = now.path("environment").path(group);
            is.fieldNames().forEachRemaining(name -> {
                String then = was.path(name).asText("(not recorded)");
                if (!then.equals(is.path(name).asText())) {
                    notes.add((group.startsWith("subject") ? "version of " : "engine ") + name + " differs: '" + then
                            + "' then, '" + is.path(name).asText() + "' here");
                }
            });
        }
        return notes;
    }
}
