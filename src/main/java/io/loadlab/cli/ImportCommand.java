package io.loadlab.cli;

import io.loadlab.data.RunColumn;
import io.loadlab.data.RunRow;
import io.loadlab.format.Units;
import io.loadlab.importer.ExperimentImport;
import io.loadlab.importer.ImportException;
import io.loadlab.importer.Importers;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loadlab import}: adds the outputs of wrk, wrk2, oha, hey, h2load or ab to an experiment. */
@Command(name = "import", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 100,
        description = {"Import the text output of wrk, wrk2, oha (text or --json), hey, h2load or ab as runs of an experiment.",
                "",
                "The tool is recognised from the content. Each file becomes one run with status ok, in its own round",
                "(from --round, or the round after the last one of that subject and workload). The experiment is",
                "created when --out does not hold one; run ids continue after the recorded ones. Then:",
                "loadlab compare DIR, or loadlab compare OURS DIR to reconcile it with an experiment made here.",
                "",
                "--env records the machine where the outputs were made and the versions, as far as they are",
                "known; every fact not given is recorded as unknown (never as blank, which would read as 'the same').",
                "Facts: cpu, cores, kernel, os, jvm, pinning, governor, boost; subject_version (the --subject's",
                "version) and tool_version (the load tool's, for the outputs of one tool)."})
final class ImportCommand implements Callable<Integer> {

    @Spec
    CommandSpec commandSpec;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "tool outputs, one run each (at most 64 MiB a file)")
    List<Path> files;

    @Option(names = "--subject", required = true, paramLabel = "S", description = "the server that was measured")
    String subject;

    @Option(names = "--workload", required = true, paramLabel = "W", description = "what was requested, such as plaintext")
    String workload;

    @Option(names = "--variant", paramLabel = "V", description = "variant label of the subject (default: none)")
    String variant = "";

    @Option(names = "--round", paramLabel = "N", description = "round of the first file (default: the next round)")
    Integer round;

    @Option(names = "--env", split = ",", paramLabel = "FACT=VALUE",
            description = "the machine and versions of the outputs, e.g. cpu='Xeon E5-2690',cores=8,"
                    + "subject_version='Kitura 2.9' (default: all unknown)")
    java.util.Map<String, String> env = new java.util.LinkedHashMap<>();

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "experiment folder, such as data/imported")
    Path out;

    @Override
    public Integer call() {
        if (round != null && round < 1) {
            throw new CliException("--round must be 1 or more, got " + round, Main.EXIT_USAGE);
        }
        if (out.toAbsolutePath().normalize().getFileName() == null) {
            throw new CliException("--out " + out + " has no folder name: give a folder such as data/imported",
                    Main.EXIT_USAGE);
        }
        List<ExperimentImport.Source> sources = new ArrayList<>();
        for (Path f : files) {
            try {
                sources.add(new ExperimentImport.Source(f.toString(), Importers.parse(f)));
            } catch (ImportException e) {
                // Nothing is written when one file is unreadable: a partial import would be easy to miss.
                throw new CliException(e.getMessage(), Main.EXIT_USAGE);
            }
        }
        List<String> commandLine = new ArrayList<>(List.of("loadlab", "import"));
        commandLine.addAll(commandSpec.commandLine().getParseResult().originalArgs());
        ExperimentImport.Labels labels = new ExperimentImport.Labels(subject, workload, variant,
                round == null ? OptionalInt.empty() : OptionalInt.of(round));
        List<RunRow> rows;
        try {
            rows = ExperimentImport.append(out, sources, labels, commandLine, env);
        } catch (IllegalArgumentException e) {
            throw new CliException("--env: " + e.getMessage(), Main.EXIT_USAGE);
        }
        PrintWriter w = commandSpec.commandLine().getOut();
        for (int i = 0; i < rows.size(); i++) {
            RunRow r = rows.get(i);
            w.printf(Locale.ROOT, "run %s (round %s): %s, %s, %s requests, %s req/s%n", r.get(RunColumn.RUN_ID),
                    r.get(RunColumn.ROUND), sources.get(i).name(), r.get(RunColumn.ENGINE), shown(r.get(RunColumn.REQUESTS)),
                    shown(r.get(RunColumn.RPS)));
        }
        w.printf(Locale.ROOT, "Imported %d run(s) into %s; compare with: loadlab compare %s%n", rows.size(), out, out);
        w.flush();
        return 0;
    }

    /** A count or rate of the row as a whole number with separators; "?" when the tool did not report it. */
    private static String shown(String value) {
        return value.isEmpty() ? "?" : Units.integer(Double.parseDouble(value));
    }
}
