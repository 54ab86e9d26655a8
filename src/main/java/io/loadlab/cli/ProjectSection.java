package io.loadlab.cli;

import io.loadlab.project.Project;
import io.loadlab.project.ProjectFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The project {@code loadlab run} runs: {@code -f FILE}, else {@code loadlab.yaml} in the current
 * folder when there is one, else none (Loadlab's bundled subjects). The file's {@code plan} gives
 * values to the options the command line leaves out: its fields are the run's long option names.
 */
final class ProjectSection {

    @Option(names = {"-f", "--file"}, paramLabel = "FILE",
            description = {"the project file to run (default: ./" + ProjectFile.NAME + " when there is one);",
                    "its subjects and workloads, and its plan for the options not given here"})
    Path file;

    /**
     * The project to run, read and checked.
     *
     * @throws CliException when {@code -f} names no file
     */
    Optional<Project> read() {
        if (file != null) {
            if (!Files.isRegularFile(file)) {
                throw new CliException("-f " + file + ": no such file; give the path of a " + ProjectFile.NAME
                        + " (loadlab init writes one)", Main.EXIT_USAGE);
            }
            return Optional.of(ProjectFile.read(file));
        }
        Path here = Path.of(ProjectFile.NAME);
        return Files.isRegularFile(here) ? Optional.of(ProjectFile.read(here)) : Optional.empty();
    }

    /**
     * Gives each option that the command line did not set the value of the plan's field of its name,
     * and {@code .*} to {@code --subjects} and {@code --workloads} when neither sets them: a project
     * runs all its subjects on the workloads each lists.
     *
     * @throws CliException for a field that is no option of the command, or a value it cannot take
     */
    static void apply(CommandSpec command, Project project) {
        Map<String, String> plan = new java.util.LinkedHashMap<>(project.plan());
        plan.putIfAbsent("subjects", ".*");
        plan.putIfAbsent("workloads", ".*");
        for (Map.Entry<String, String> e : plan.entrySet()) {
            OptionSpec o = command.findOption("--" + e.getKey());
            if (o == null || e.getKey().equals("file") || e.getKey().equals("resume") || e.getKey().equals("out")) {
                throw new CliException(project.file() + ": plan." + e.getKey() + " is not an option of loadlab "
                        + command.name() + "; the plan's fields are " + fields(command), Main.EXIT_USAGE);
            }
            if (!command.commandLine().getParseResult().hasMatchedOption(o)) {
                set(o, e.getValue(), project.file());
            }
        }
    }

    private static void set(OptionSpec o, String text, Path file) {
        Class<?> type = o.type();
        try {
            if (type == int.class || type == Integer.class) {
                o.setValue(Integer.parseInt(text.strip()));
            } else if (type == long.class || type == Long.class) {
                o.setValue(Long.parseLong(text.strip()));
            } else if (type == double.class || type == Double.class) {
                o.setValue(Double.parseDouble(text.strip()));
            } else if (type == boolean.class || type == Boolean.class) {
                o.setValue(Boolean.parseBoolean(text.strip()));
            } else if (type == Path.class) {
                // Relative to the project file, as its other paths are.
                o.setValue(file.toAbsolutePath().getParent().resolve(text.strip()));
            } else if (List.class.isAssignableFrom(type)) {
                List<Double> values = new ArrayList<>();
                for (String v : text.split(",")) {
                    values.add(Double.parseDouble(v.strip()));
                }
                o.setValue(values);
            } else {
                o.setValue(text);
            }
        } catch (IllegalArgumentException | picocli.CommandLine.PicocliException e) {
            throw new CliException(file + ": plan." + o.longestName().substring(2) + " '" + text
                    + "' is not a value of " + o.longestName() + " (" + o.paramLabel() + ")", Main.EXIT_USAGE);
        }
    }

    private static String fields(CommandSpec command) {
        TreeSet<String> names = new TreeSet<>();
        command.options().stream().map(OptionSpec::longestName).filter(n -> n.startsWith("--"))
                .map(n -> n.substring(2)).filter(n -> !List.of("file", "resume", "out", "help", "version").contains(n))
                .forEach(names::add);
        return String.join(", ", names);
    }
}
