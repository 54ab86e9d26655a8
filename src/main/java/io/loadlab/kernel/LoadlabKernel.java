package io.loadlab.kernel;

import io.github.spencerpark.jupyter.kernel.BaseKernel;
import io.github.spencerpark.jupyter.kernel.history.HistoryManager;
import io.github.spencerpark.jupyter.kernel.LanguageInfo;
import io.github.spencerpark.jupyter.kernel.ReplacementOptions;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The Loadlab Jupyter kernel: Java cells run by JShell in this JVM, with Loadlab's classes on the
 * class path and imported, and Loadlab's values (tables, charts, histograms, comparisons) shown
 * as HTML and images. Cells may start with the line magics {@code %classpath} and {@code %jars}.
 * A cell's result is the value of its last snippet when that is an expression; {@code display(x)}
 * shows a value at once and {@code render(x)} returns its display. Cells run one at a time;
 * {@link #interrupt()} may come from another thread.
 */
public final class LoadlabKernel extends BaseKernel implements AutoCloseable {

    /** Where the kernel's displays go: to the notebook, or to a test. */
    interface Displays {
        void display(DisplayData data);

        void update(DisplayData data);
    }

    /** A failure of the last cell, with the execution count it had. */
    record Failure(CellError error, int executionCount) {}

    /** How often text a running cell printed is sent, at most (see {@link CellOutput}). */
    static final long OUTPUT_PERIOD_MS = 50;

    private final int id;
    private final SessionStart session;
    private final Displays displays;
    private final Path workingDir;
    private final LanguageInfo languageInfo;
    private volatile Failure lastFailure;
    private final CellHistory history = new CellHistory();
    /** Progress bars with an update not sent yet; sent when the cell ends. */
    private final Set<Progress> heldBars = ConcurrentHashMap.newKeySet();
    /** Sends what the running cell printed; null for a kernel whose displays go to a test. */
    private final Thread outputSender;
    private volatile CellOutput output;

    /**
     * A kernel whose cells see the given class path, connected to Jupyter. Its JShell starts when
     * {@link #startSession()} is called; cells wait for it.
     *
     * @param classpath  jars and class folders for the cells (normally this JVM's class path)
     * @param home       Loadlab's folder, for the imports of {@code src/main/jshell/loadlab.jsh}
     * @param workingDir the folder that relative paths in magics start from
     */
    public LoadlabKernel(List<String> classpath, Optional<Path> home, Path workingDir) {
        this(classpath, home, workingDir, null);
    }

    /**
     * A kernel whose displays go to {@code displays} (tests, the archive's training run), or to
     * Jupyter when it is null; with displays, JShell starts at once.
     *
     * @throws IllegalStateException when JShell cannot be started with Loadlab's imports
     */
    LoadlabKernel(List<String> classpath, Optional<Path> home, Path workingDir, Displays displays) {
        this.id = Cells.register(this);
        // Connected to Jupyter, the kernel sends what cells print itself, in batches (CellOutput).
        setShouldReplaceStdStreams(displays != null);
        this.outputSender = displays != null ? null : new Thread(this::sendOutputWhileOpen, "loadlab-kernel-output");
        if (outputSender != null) {
            outputSender.setDaemon(true);
            outputSender.start();
        }
        this.displays = displays != null ? displays : new Displays() {
            @Override
            public void display(DisplayData data) {
                getIO().display.display(data);
            }

            @Override
            public void update(DisplayData data) {
                getIO().display.updateDisplay(data);
            }
        };
        this.workingDir = workingDir.toAbsolutePath().normalize();
        Renderers.registerAll(getRenderer());
        this.session = new SessionStart(id, classpath, home);
        if (displays != null) {
            try {
                session.run();
            } catch (RuntimeException e) {
                Cells.unregister(id);
                throw e;
            }
        }
        String version = System.getProperty("java.version");
        this.languageInfo = new LanguageInfo.Builder("java").version(version).mimetype("text/x-java-source")
                .fileExtension(".java").pygments("java").codemirror("text/x-java").build();
    }

    /**
     * Starts JShell with Loadlab's imports and warms its compiler, on the calling thread (a
     * second or so): {@code KernelMain} calls it once connected, so that Jupyter sees the kernel
     * ready meanwhile. A failure is reported to every cell.
     */
    public void startSession() {
        try {
            session.run();
        } catch (IllegalStateException e) {
            System.err.println("loadlab kernel: " + e.getMessage());
        }
    }

    /** A kernel for this JVM: its class path, Loadlab's folder, the current folder. */
    public static LoadlabKernel forThisJvm() {
        List<String> classpath = Arrays.stream(System.getProperty("java.class.path", "").split(File.pathSeparator))
                .filter(s -> !s.isBlank()).collect(Collectors.toList());
        return new LoadlabKernel(classpath, Startup.home(), Path.of("").toAbsolutePath());
    }

    @Override
    public DisplayData eval(String code) throws CellError {
        int count = executionCount.get() - 1;
        lastFailure = null;
        history.add(count, code);
        PrintStream kernelOut = System.out;
        PrintStream kernelErr = System.err;
        InputStream kernelIn = System.in;
        CellOutput printed = outputSender == null ? null
                : new CellOutput(getIO().out, getIO().err, kernelOut, kernelErr);
        if (printed != null) {
            System.setOut(printed.stdout);
            System.setErr(printed.stderr);
            System.setIn(getIO().in);
            output = printed;
        }
        Cells.started(this);
        try {
            Magics.Parsed parsed = Magics.parse(code);
            Session shell = session.await();
            for (Magics.Line magic : parsed.magics()) {
                Magics.apply(magic, shell, workingDir);
            }
            Optional<Session.Value> value = shell.evaluate(parsed.code());
            return value.isPresent() ? renderValue(value.get().object()) : null;
        } catch (CellError e) {
            lastFailure = new Failure(e, count);
            throw e;
        } catch (RuntimeException | Error e) {
            // A failure of the kernel itself (e.g. a renderer, or an error JShell let through):
            // still report it by its class name; escaping, it would leave the cell without a reply.
            CellError error = new CellError(e.getClass().getName(), e.getMessage() == null ? "" : e.getMessage(),
                    List.of(e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage())));
            lastFailure = new Failure(error, count);
            throw error;
        } finally {
            Cells.finished(this);
            // While the cell's reply is pending, its outputs still reach the notebook.
            for (Progress bar : heldBars) {
                heldBars.remove(bar);
                bar.flush();
            }
            // Text printed without a line end is still in the stream buffers.
            System.out.flush();
            System.err.flush();
            if (printed != null) {
                output = null;
                printed.close();
                System.setOut(kernelOut);
                System.setErr(kernelErr);
                System.setIn(kernelIn);
            }
        }
    }

    /** The output thread: sends what the running cell printed every {@link #OUTPUT_PERIOD_MS}, until closed. */
    private void sendOutputWhileOpen() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(OUTPUT_PERIOD_MS);
                sendOutput();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | Error e) {
                // Most likely an OutOfMemoryError while a cell fills the heap: the text stays
                // buffered and goes with the next batch or at the end of the cell.
            }
        }
    }

    /** Sends what the running cell printed so far (on the output thread, and before displays). */
    private void sendOutput() {
        CellOutput o = output;
        if (o != null) {
            o.send();
        }
    }

    /** Shows a value below the running cell now (used by {@code display(x)} in cells). */
    public void display(Object value) {
        display(renderValue(value));
    }

    @Override
    public void display(DisplayData data) {
        sendOutput();
        displays.display(data);
    }

    /** Replaces an output shown earlier with the same display id. */
    public void updateDisplay(DisplayData data) {
        sendOutput();
        displays.update(data);
    }

    /** Notes a progress bar that holds an update, to send it at the end of the cell at the latest. */
    void holding(Progress bar) {
        heldBars.add(bar);
    }

    /** The display of a value with its preferred MIME types (used by {@code render(x)} in cells). */
    public DisplayData render(Object value) {
        return renderValue(value);
    }

    /** The display of a value as the given MIME types (text/plain always comes too). */
    public DisplayData render(Object value, String... mimeTypes) {
        return value == null ? new DisplayData("null") : getRenderer().renderAs(value, mimeTypes);
    }

    @Override
    public ReplacementOptions complete(String code, int at) {
        Magics.Parsed parsed = Magics.parse(code);
        return session.awaitQuietly().map(s -> s.complete(parsed.code(), at)).orElse(new ReplacementOptions(List.of(), at, at));
    }

    @Override
    public DisplayData inspect(String code, int at, boolean extraDetail) {
        Magics.Parsed parsed = Magics.parse(code);
        return session.awaitQuietly().flatMap(s -> s.documentation(parsed.code(), at, extraDetail))
                .map(DisplayData::new).orElse(null);
    }

    @Override
    public String isComplete(String code) {
        String result = session.awaitQuietly().map(s -> s.isComplete(Magics.parse(code).code())).orElse("complete");
        return switch (result) {
            case "complete" -> IS_COMPLETE_YES;
            case "invalid" -> IS_COMPLETE_BAD;
            default -> result;
        };
    }

    /** Stops the running cell (interrupt_request in message mode); the kernel then takes the next cell. */
    @Override
    public void interrupt() {
        // A cell that still waits for JShell's start runs once it is there.
        session.ifStarted().ifPresent(Session::interrupt);
    }

    /** This kernel's cells: see {@link CellHistory} for why a kernel must have one. */
    @Override
    public HistoryManager getHistoryManager() {
        return history;
    }

    @Override
    public LanguageInfo getLanguageInfo() {
        return languageInfo;
    }

    @Override
    public String getBanner() {
        return "Java " + languageInfo.getVersion() + " (Loadlab): JShell with Loadlab's classes; "
                + "try  var r = Results.load(Path.of(\"data/sample\"));";
    }

    @Override
    public List<String> formatError(Exception e) {
        return e instanceof CellError ce ? ce.traceback() : super.formatError(e);
    }

    @Override
    public void onShutdown(boolean isRestarting) {
        close();
    }

    /** Closes JShell. */
    @Override
    public void close() {
        if (outputSender != null) {
            outputSender.interrupt();
        }
        Cells.unregister(id);
        session.close();
    }

    /** The failure of the last cell, if it failed; read by the connection to name the error. */
    Optional<Failure> lastFailure() {
        return Optional.ofNullable(lastFailure);
    }

    private DisplayData renderValue(Object value) {
        if (value == null) {
            return new DisplayData("null");
        }
        if (value instanceof DisplayData d) {
            return d;
        }
        return getRenderer().render(value);
    }
}
