package io.loadlab.cli;

import io.loadlab.experiment.Experiment;
import io.loadlab.experiment.Runner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * A project's experiment for notebooks and JShell ({@code io.loadlab.Loadlab#run}): planned exactly as
 * {@code loadlab run -f FILE OPTIONS} plans it, with the same options and the project's plan.
 */
public final class ProjectRuns {

    private ProjectRuns() {
    }

    /**
     * Creates the experiment of {@code file}, in {@code data/<name>-<date-time>/} under the current
     * folder unless {@code options} hold {@code --out}.
     *
     * @param home     Loadlab's folder (its bundled subjects)
     * @param options  options of {@code loadlab run}, such as {@code "--rounds", "5"}
     * @param progress where the runs' progress goes
     * @throws CliException for an option that {@code loadlab run} would refuse, in one line
     */
    public static Experiment prepare(Path home, Path file, Runner.Progress progress, String... options) {
        RunCommand command = new RunCommand();
        CommandLine cl = new CommandLine(command);
        List<String> args = new ArrayList<>(List.of("-f", file.toString()));
        args.addAll(List.of(options));
        try {
            cl.parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new CliException(e.getMessage(), Main.EXIT_USAGE);
        }
        return command.experiment(home, progress, new PrintWriter(System.err, true));
    }
}
