package io.loadlab.kernel;

import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The kernel's main class, started by Jupyter as {@code java -cp ... io.loadlab.kernel.KernelMain
 * [--allow-unsigned] CONNECTION_FILE} (see {@code loadlab kernel install}). Exit codes: 0 after a
 * shutdown request or when the parent process or connection file is gone, 2 for a bad command line
 * or connection file, including one with an empty key without {@code --allow-unsigned}
 * ({@link ConnectionChecks}).
 * Cells cannot end it with {@code System.exit} ({@link ExitGuard}).
 */
public final class KernelMain {

    /**
     * The flag, before the connection file, that lets the kernel start with an empty key and so
     * accept unsigned messages; {@code loadlab kernel install --allow-unsigned} puts it in the
     * kernelspec.
     */
    public static final String ALLOW_UNSIGNED = "--allow-unsigned";

    /** How often the kernel checks that its parent process is still there. */
    static final Duration WATCH_PERIOD = Duration.ofMillis(500);

    private KernelMain() {
    }

    public static void main(String[] args) {
        boolean allowUnsigned = args.length == 2 && args[0].equals(ALLOW_UNSIGNED);
        if (args.length != 1 && !allowUnsigned) {
            System.err.println("usage: java -cp ... io.loadlab.kernel.KernelMain [" + ALLOW_UNSIGNED
                    + "] CONNECTION_FILE");
            System.exit(2);
        }
        // The base kernel logs every message at INFO on stderr, which Jupyter shows to the user.
        Logger.getLogger("").setLevel(Level.WARNING);
        // The root handler takes System.err when it is first used; made now, it keeps the kernel's
        // own stderr (the Jupyter server's log) rather than the stream of a cell that is running.
        Logger.getLogger("").getHandlers();
        Path file = Path.of(args[args.length - 1]);
        KernelConnectionProperties properties;
        try {
            properties = KernelConnectionProperties.parse(Files.readString(file));
        } catch (IOException | RuntimeException e) {
            System.err.println("loadlab kernel: cannot read the connection file " + file + ": " + e);
            System.exit(2);
            return;
        }
        Optional<String> refusal = ConnectionChecks.refusal(properties, file, allowUnsigned);
        if (refusal.isPresent()) {
            System.err.println(refusal.get());
            System.exit(2);
            return;
        }
        ConnectionChecks.warning(properties, file).ifPresent(System.err::println);
        ParentWatch.start(file, WATCH_PERIOD, reason -> exit("loadlab kernel: " + reason + "; exiting"));
        LoadlabKernel kernel = LoadlabKernel.forThisJvm();
        KernelConnection connection;
        try {
            // The kernel's own stderr (the Jupyter server's log), not a running cell's.
            PrintStream err = System.err;
            connection = new KernelConnection(properties, kernel, err::println);
        } catch (GeneralSecurityException e) {
            System.err.println("loadlab kernel: bad signature scheme in " + file + ": " + e);
            System.exit(2);
            return;
        }
        kernel.becomeHandlerForConnection(connection);
        connection.connect();
        // Now that Jupyter can reach the kernel: JShell's start is most of a kernel's start.
        kernel.startSession();
        connection.waitUntilClose();
        kernel.close();
        // JShell and ZeroMQ may leave non-daemon threads behind.
        System.exit(0);
    }

    /**
     * The kernel's part of the class-data-sharing training run ({@code io.loadlab.cli.Training}):
     * starts a kernel's JShell, with its start-up snippets, and runs a few cells, so that the
     * compiler's classes are in the archive. Nothing is shown.
     *
     * @return whether every cell succeeded
     */
    public static boolean train() {
        LoadlabKernel.Displays none = new LoadlabKernel.Displays() {
            @Override
            public void display(DisplayData data) {
                // training: nothing is shown
            }

            @Override
            public void update(DisplayData data) {
                // training: nothing is shown
            }
        };
        List<String> classpath = Arrays.stream(System.getProperty("java.class.path", "").split(File.pathSeparator))
                .filter(s -> !s.isBlank()).collect(Collectors.toList());
        try (LoadlabKernel kernel = new LoadlabKernel(classpath, Startup.home(), Path.of("").toAbsolutePath(), none)) {
            for (String cell : TRAINING_CELLS) {
                kernel.eval(cell);
            }
            return true;
        } catch (RuntimeException | CellError e) {
            System.err.println("loadlab kernel training: " + e);
            return false;
        }
    }

    /** Cells of the training run: an expression, a declaration, a display, a table. */
    private static final List<String> TRAINING_CELLS = List.of("1+1", "int x = 41;\nx + 1",
            "String s = \"a\" + 1;\ndisplay(s);", "var t = tech.tablesaw.api.Table.create(\"t\");\nt");

    private static void exit(String message) {
        System.err.println(message);
        // A shutdown hook that hangs (a cell's) must not keep the JVM alive.
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(5000);
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(1);
        }, "loadlab-kernel-halt");
        halt.setDaemon(true);
        halt.start();
        System.exit(0);
    }
}
