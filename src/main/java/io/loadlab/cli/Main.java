package io.loadlab.cli;

import io.loadlab.load.LoadException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code loadlab} command line. Exit codes: 0 success, 1 failed run, 2 usage error. */
@Command(name = "loadlab", mixinStandardHelpOptions = true, usageHelpWidth = 100, versionProvider = Main.Version.class,
        description = "Compare HTTP servers honestly: load runs with HdrHistogram latencies and CPU accounting.")
public final class Main implements Runnable {

    /**
     * The subcommands, in the order the help lists them. {@link #execute} builds picocli's model of
     * only the one named when it is one of them: the model of all of them took about a fifth of a
     * CPU-second at each start, which a load run's whole-process CPU pays.
     */
    private static final List<Class<?>> SUBCOMMANDS = List.of(LoadCommand.class, RunCommand.class, RerunCommand.class,
            AgentCommand.class, ImportCommand.class, SubjectsCommand.class, CompareCommand.class, JshellCommand.class,
            KernelCommand.class, ReportCommand.class, DemoCommand.class, InitCommand.class, CommandLine.HelpCommand.class);

    @Spec
    private CommandSpec spec;

    /** Exit code of a run that failed. */
    public static final int EXIT_FAILED = 1;
    /** Exit code of a usage error (bad flag or argument). */
    public static final int EXIT_USAGE = 2;

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line with the given output streams; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        Optional<Class<?>> named = args.length == 0 ? Optional.empty()
                : SUBCOMMANDS.stream().filter(c -> c.getAnnotation(Command.class).name().equals(args[0])).findFirst();
        // "help" itself needs them all, and so do the usage and an unknown name's message.
        CommandLine cl;
        if (named.isPresent() && named.get() != CommandLine.HelpCommand.class) {
            cl = new CommandLine(new Main());
            cl.addSubcommand(named.get());
            HelpText.reflow(cl);
        } else {
            cl = full();
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            // One line that says what is wrong, then where to look: no wall of usage text.
            ex.getCommandLine().getErr().println("loadlab: " + ex.getMessage());
            ex.getCommandLine().getErr().println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help' for the options.");
            return EXIT_USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            if (ex instanceof LoadException le) {
                c.getErr().println("loadlab: " + le.getMessage());
                return le.isUsageError() ? EXIT_USAGE : EXIT_FAILED;
            }
            if (ex instanceof io.loadlab.subject.SubjectException || ex instanceof io.loadlab.host.HostException
                    || ex instanceof io.loadlab.experiment.ExperimentException
                    || ex instanceof io.loadlab.data.DataException || ex instanceof io.loadlab.stats.StatsException
                    || ex instanceof io.loadlab.time.DurationException || ex instanceof io.loadlab.engine.EngineException
                    || ex instanceof io.loadlab.agent.AgentException || ex instanceof io.loadlab.project.ProjectException) {
                c.getErr().println("loadlab: " + ex.getMessage());
                return EXIT_USAGE;
            }
            if (ex instanceof CliException ce) {
                c.getErr().println("loadlab: " + ce.getMessage());
                return ce.exitCode();
            }
            throw ex;
        });
        return cl.execute(args);
    }

    /** The whole command line, every subcommand in the help's order, its texts reflowed as {@code --help} shows them. */
    static CommandLine full() {
        CommandLine cl = new CommandLine(new Main());
        SUBCOMMANDS.forEach(cl::addSubcommand);
        HelpText.reflow(cl);
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Reads the version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"loadlab " + (v == null ? "(development build)" : v)};
        }
    }
}
