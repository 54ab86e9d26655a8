package io.loadlab.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code loadlab jshell}: JShell with Loadlab's classpath and start-up imports. */
@Command(name = "jshell", mixinStandardHelpOptions = true, usageHelpWidth = 100,
        description = {"Open JShell with Loadlab's classes and libraries on the class path and its imports,",
                "so that Results.load, the statistics and the charts work at once. A table a line yields prints",
                "rounded for reading, as show(table) does (50 rows at most); show(chart) opens a chart (or writes",
                "it to data/tmp/charts/). One-call answers: var results = Loadlab.load(\"data/sample\");",
                "results.compare(\"go-nethttp\"), results.summary(\"rps\"), results.latency(\"java-netty\",",
                "\"json\").p(99.9). Extra arguments go to jshell (for example a script file to run)."})
final class JshellCommand implements Callable<Integer> {

    @Parameters(paramLabel = "ARG", description = "passed on to jshell")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path home = Home.path();
        Path jshell = Path.of(System.getProperty("java.home"), "bin", "jshell");
        if (!Files.isExecutable(jshell)) {
            throw new CliException("no jshell in " + jshell.getParent() + ": Loadlab needs a JDK, not a JRE",
                    Main.EXIT_USAGE);
        }
        List<String> cp = new ArrayList<>();
        cp.add(Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().getPath()).toString());
        try (Stream<Path> jars = Files.list(home.resolve("target/lib"))) {
            jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> cp.add(p.toString()));
        }
        List<String> cmd = new ArrayList<>(List.of(jshell.toString(), "--class-path", String.join(File.pathSeparator, cp),
                "--startup", "DEFAULT", "--startup", home.resolve("src/main/jshell/loadlab.jsh").toString(),
                // Tables print rounded, as show(table) does: JshellAgent runs the snippets.
                "--execution", "jdi:remoteAgent(" + JshellAgent.class.getName() + ")"));
        for (String a : args) {
            // jshell runs in Loadlab's folder: a script named relative to the caller's folder must
            // still be found.
            Path p = Path.of(a);
            cmd.add(!a.startsWith("-") && !p.isAbsolute() && Files.exists(p) ? p.toAbsolutePath().toString() : a);
        }
        Process p = new ProcessBuilder(cmd).directory(home.toFile()).inheritIO().start();
        return p.waitFor();
    }
}
