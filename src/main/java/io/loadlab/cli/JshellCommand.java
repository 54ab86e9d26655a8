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
                "rounded for reading, as show(table) does (50 rows at most), up to Java 20 (later, JShell runs",
                "snippets only in its own agent, which prints it in full: show(table) still rounds it);",
                "show(chart) opens a chart (or writes it to data/tmp/charts/). One-call answers:",
                "var results = Loadlab.load(\"data/sample\");",
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
                "--startup", "DEFAULT", "--startup", home.resolve("src/main/jshell/loadlab.jsh").toString()));
        boolean ownAgent = customAgentAllowed();
        cmd.addAll(List.of("--execution", execution(ownAgent)));
        remoteFlags(KernelCommand.Install.flags(KernelCommand.Install.JVM_FLAGS)).forEach(f -> cmd.add("-R" + f));
        if (!ownAgent) {
            System.err.println("loadlab: this Java's JShell runs snippets only in its own agent: a table a line"
                    + " yields prints in full; show(table) rounds it");
        }
        for (String a : args) {
            // jshell runs in Loadlab's folder: a script named relative to the caller's folder must
            // still be found.
            Path p = Path.of(a);
            cmd.add(!a.startsWith("-") && !p.isAbsolute() && Files.exists(p) ? p.toAbsolutePath().toString() : a);
        }
        Process p = new ProcessBuilder(cmd).directory(home.toFile()).inheritIO().start();
        return p.waitFor();
    }

    /**
     * Whether this Java's JShell lets a snippet run in an agent of ours. Since Java 21 JShell gives the
     * snippets a console ({@code jdk.jshell.JShellConsole}), and Java 25's, with one, refuses every agent
     * but its own ("JShellConsole is only supported for the default remote agent!"): {@code loadlab
     * jshell} did not start there. Where that class exists, JShell's own agent runs the snippets.
     */
    static boolean customAgentAllowed() {
        try {
            Class.forName("jdk.jshell.JShellConsole", false, JshellCommand.class.getClassLoader());
            return false;
        } catch (ClassNotFoundException | LinkageError e) {
            return true;
        }
    }

    /** JShell's {@code --execution}: {@link JshellAgent}, which prints tables rounded, where JShell allows it. */
    static String execution(boolean ownAgent) {
        return ownAgent ? "jdi:remoteAgent(" + JshellAgent.class.getName() + ")" : "jdi";
    }

    /**
     * The launcher's JVM flags that the snippets' JVM gets too (each after {@code -R}): Netty's settings,
     * the collector and native access (without which Java 24 and later print four lines of warning at
     * a snippet's first load). Not the class-data-sharing archive, made for another class path, nor the
     * logging that goes with it.
     */
    static List<String> remoteFlags(List<String> launcherFlags) {
        return launcherFlags.stream().filter(f -> !f.startsWith("-XX:SharedArchiveFile=") && !f.startsWith("-Xlog"))
                .toList();
    }
}
