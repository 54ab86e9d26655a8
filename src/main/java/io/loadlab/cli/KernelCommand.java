package io.loadlab.cli;

import io.loadlab.kernel.KernelMain;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loadlab kernel install}: registers Loadlab's Jupyter kernel with Jupyter. */
@Command(name = "kernel", mixinStandardHelpOptions = true, usageHelpWidth = 100,
        description = "The Jupyter kernel (Java cells with Loadlab's classes): install its kernelspec.",
        subcommands = {KernelCommand.Install.class})
final class KernelCommand implements Runnable {

    @Spec
    CommandSpec commandSpec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(commandSpec.commandLine(), "kernel: say what to do: install");
    }

    /** Writes a kernelspec for this checkout and the running Java, and installs it with {@code jupyter kernelspec}. */
    @Command(name = "install", mixinStandardHelpOptions = true, usageHelpWidth = 100,
            description = {"Install the kernelspec 'Java (Loadlab)': the kernel runs this checkout's jar with the",
                    "current Java. Needs Jupyter: the jupyter on the PATH, else /usr/bin/jupyter. Without --user,",
                    "--sys-prefix or --prefix, Jupyter installs it for all users. The kernel listens where its",
                    "connection file says (Jupyter's default: 127.0.0.1, warned about otherwise) and runs only",
                    "messages signed with its key, each once and at most 64 MiB; it refuses to start with an empty",
                    "key unless installed with --allow-unsigned."})
    static final class Install implements Callable<Integer> {

        /** The system property in which {@code ./loadlab} passes its JVM flags, one a line. */
        static final String JVM_FLAGS = "loadlab.jvm.flags";
        /** The system property with the kernel's own flags (compiler directives), one a line, after {@link #JVM_FLAGS}. */
        static final String KERNEL_JVM_FLAGS = "loadlab.kernel.jvm.flags";
        private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

        @Spec
        CommandSpec commandSpec;

        @ArgGroup(exclusive = true)
        Where where;

        // One line: HelpText reflows multi-line descriptions by rebuilding options, which a command
        // with an ArgGroup does not allow.
        @Option(names = KernelMain.ALLOW_UNSIGNED, description = "let the kernel start when the connection file's key "
                + "is empty, so that it runs unsigned messages from anyone who reaches its ports")
        boolean allowUnsigned;

        /** Where Jupyter puts the kernelspec; at most one. */
        static final class Where {
            @Option(names = "--user", description = "install for the current user only")
            boolean user;

            @Option(names = "--sys-prefix", description = "install into the Python environment of jupyter")
            boolean sysPrefix;

            @Option(names = "--prefix", paramLabel = "P", description = "install under P/share/jupyter/kernels")
            Path prefix;
        }

        @Option(names = "--name", paramLabel = "NAME", defaultValue = "loadlab",
                description = "the kernel's name in Jupyter (default: ${DEFAULT-VALUE})")
        String name;

        @Option(names = "--jupyter", paramLabel = "CMD",
                description = "the jupyter command (default: jupyter on the PATH, else /usr/bin/jupyter)")
        Path jupyter;

        @Override
        public Integer call() throws IOException, InterruptedException {
            if (!NAME.matcher(name).matches()) {
                throw new CommandLine.ParameterException(commandSpec.commandLine(),
                        "--name: a kernel name is letters, digits, '.', '_' and '-', got '" + name + "'");
            }
            Path jupyterCommand = Jupyter.command(jupyter);
            Path home = Home.path();
            Path specDir = Files.createTempDirectory("loadlab-kernelspec");
            try {
                Path kernelDir = specDir.resolve(name);
                Files.createDirectories(kernelDir);
                Files.writeString(kernelDir.resolve("kernel.json"), kernelJson(home));
                List<String> cmd = new ArrayList<>(List.of(jupyterCommand.toString(), "kernelspec", "install", "--replace",
                        "--name", name));
                if (where != null && where.user) {
                    cmd.add("--user");
                } else if (where != null && where.sysPrefix) {
                    cmd.add("--sys-prefix");
                } else if (where != null && where.prefix != null) {
                    cmd.add("--prefix");
                    cmd.add(where.prefix.toAbsolutePath().toString());
                }
                cmd.add(kernelDir.toString());
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                p.getOutputStream().close();
                String output;
                try (InputStream in = p.getInputStream()) {
                    output = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
                }
                if (!p.waitFor(120, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new CliException("jupyter kernelspec install did not finish in 120 s", Main.EXIT_FAILED);
                }
                if (p.exitValue() != 0) {
                    throw new CliException("jupyter kernelspec install failed (exit " + p.exitValue() + "): " + output,
                            Main.EXIT_FAILED);
                }
                if (!output.isEmpty()) {
                    commandSpec.commandLine().getOut().println(output);
                }
                commandSpec.commandLine().getOut().println("Kernel '" + name + "' (Java (Loadlab)) runs "
                        + home + " with " + javaCommand() + "; pick it in Jupyter, or run notebooks with "
                        + "jupyter nbconvert --execute --ExecutePreprocessor.kernel_name=" + name);
                return 0;
            } finally {
                try (Stream<Path> files = Files.walk(specDir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
        }

        /**
         * The kernelspec: the kernel's JVM with this checkout's classes, message-mode interrupts.
         * The JVM gets the launcher's flags ({@code -Dloadlab.jvm.flags}, one a line: see
         * {@code ./loadlab}), so that a kernel starts as the CLI does; its class-data-sharing
         * archive only where the classes come from the jar, on the class path it was made with.
         * Then the kernel's own ({@code -Dloadlab.kernel.jvm.flags}: on small machines, compiler
         * directives that keep javac's code with C1).
         */
        String kernelJson(Path home) {
            Path lib = home.resolve("target/lib");
            if (!Files.isDirectory(lib)) {
                throw new CliException("no " + lib + ": build Loadlab first (./loadlab builds it, or mvn package)",
                        Main.EXIT_FAILED);
            }
            String classes = loadlabClasses();
            boolean fromJar = classes.endsWith(".jar");
            List<String> argv = new ArrayList<>();
            argv.add(javaCommand());
            for (String flag : flags(JVM_FLAGS)) {
                if (fromJar || !flag.startsWith("-XX:SharedArchiveFile=")) {
                    argv.add(flag);
                }
            }
            argv.addAll(flags(KERNEL_JVM_FLAGS));
            // The jar's manifest names the libraries, for the JVM and for JShell's compiler alike.
            argv.addAll(List.of("-cp", fromJar ? classes
                    : classes + File.pathSeparator + lib.toAbsolutePath() + File.separator + "*"));
            argv.add(KernelMain.class.getName());
            if (allowUnsigned) {
                argv.add(KernelMain.ALLOW_UNSIGNED);
            }
            argv.add("{connection_file}");
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("argv", argv);
            spec.put("display_name", "Java (Loadlab)");
            spec.put("language", "java");
            spec.put("interrupt_mode", "message");
            try {
                return io.loadlab.data.Json.mapper().writeValueAsString(spec) + "\n";
            } catch (IOException e) {
                throw new IllegalStateException("cannot write kernel.json", e);
            }
        }

        /** The flags in a system property, one a line, blank lines dropped ({@link #JVM_FLAGS}, {@link #KERNEL_JVM_FLAGS}). */
        static List<String> flags(String property) {
            return Arrays.stream(System.getProperty(property, "").split("\n")).map(String::strip)
                    .filter(f -> !f.isEmpty()).toList();
        }

        private static String javaCommand() {
            return Path.of(System.getProperty("java.home"), "bin", "java").toString();
        }

        /** The jar (or class folder, when run from the build) that holds Loadlab's classes. */
        private static String loadlabClasses() {
            try {
                return Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath()
                        .toString();
            } catch (URISyntaxException e) {
                throw new IllegalStateException("cannot locate Loadlab's classes", e);
            }
        }
    }
}
