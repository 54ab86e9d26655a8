package io.loadlab.cli;

import io.loadlab.project.ProjectFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loadlab init}: writes a commented starter project file. */
@Command(name = "init", mixinStandardHelpOptions = true, usageHelpWidth = 100,
        description = {"Write a commented starter " + ProjectFile.NAME + " into the current folder: one subject, one",
                "workload and a plan, with the other kinds of subject and workload as comments. Edit it, then",
                "run `loadlab run` in that folder. Refuses to replace an existing file."})
final class InitCommand implements Callable<Integer> {

    @Spec
    CommandSpec commandSpec;

    @Option(names = "--file", paramLabel = "PATH", description = "where to write it (default: ./" + ProjectFile.NAME + ")")
    Path file = Path.of(ProjectFile.NAME);

    @Override
    public Integer call() {
        PrintWriter w = commandSpec.commandLine().getOut();
        try {
            // CREATE_NEW: the check that the file is absent and the write are one step.
            Files.writeString(file, ProjectFile.template(), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            throw new CliException(file + " exists already; edit it, or remove it to start again", Main.EXIT_USAGE);
        } catch (IOException e) {
            throw new CliException("cannot write " + file + ": " + e.getMessage(), Main.EXIT_USAGE);
        }
        w.println("wrote " + file + "; edit its subjects and workloads, then run `loadlab run` in its folder");
        w.flush();
        return 0;
    }
}
