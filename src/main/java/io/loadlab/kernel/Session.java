package io.loadlab.kernel;

import io.github.spencerpark.jupyter.kernel.ReplacementOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.jshell.DeclarationSnippet;
import jdk.jshell.ExpressionSnippet;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.SourceCodeAnalysis.CompletionInfo;
import jdk.jshell.SourceCodeAnalysis.Completeness;
import jdk.jshell.SourceCodeAnalysis.Documentation;
import jdk.jshell.SourceCodeAnalysis.Suggestion;
import jdk.jshell.VarSnippet;

/**
 * One JShell behind one kernel: runs cells snippet by snippet in this JVM (JShell's local
 * execution engine, so that values are live objects the kernel can render), and answers
 * completion, documentation and completeness questions. Cells run one at a time, on the caller's
 * thread, which waits while JShell runs the code on a thread of its own; {@link #interrupt()}
 * may be called from any thread.
 */
final class Session implements AutoCloseable {

    /** One complete snippet of a cell (or the incomplete rest), with where it lies in the cell. */
    record Piece(String source, int start, int end) {}

    /** The value of a cell's last expression; {@code object} may be null. */
    record Value(Object object) {}

    /** How often an interrupted cell is told again to stop until it has. */
    private static final long STOP_RETRY_MS = 50;

    private final JShell shell;
    private final CellExecution execution = new CellExecution();
    private final SourceCodeAnalysis analysis;
    private final int kernelId;
    private volatile boolean stopRequested;
    /** Guards {@link #cellNumber} and {@link #evaluating}, so that a late stop never hits the next cell. */
    private final Object stopLock = new Object();
    private long cellNumber;
    private boolean evaluating;

    /**
     * Starts JShell with the class path entries and runs the start-up snippets.
     *
     * @param kernelId  the kernel's id in {@link Cells}, used by the code that keeps cell values
     * @param classpath class path entries (jars or folders) the cells can use
     * @param startup   snippets run first (imports, helper methods), in order
     * @throws IllegalStateException when a start-up snippet does not compile or fails
     */
    Session(int kernelId, List<String> classpath, List<String> startup) {
        this.kernelId = kernelId;
        // addToClasspath, not --class-path: the compiler option would not reach the loader that
        // runs the snippets.
        this.shell = JShell.builder().executionEngine(execution.provider(), Map.of())
                .fileManager(IndexKeepingFileManager::new).build();
        this.analysis = shell.sourceCodeAnalysis();
        classpath.forEach(shell::addToClasspath);
        for (String snippet : startup) {
            try {
                evaluate(snippet);
            } catch (CellError e) {
                shell.close();
                throw new IllegalStateException("kernel start-up snippet failed: " + snippet.strip() + "\n"
                        + String.join("\n", e.traceback()), e);
            }
        }
    }

    /**
     * Runs a cell, snippet by snippet, stopping at the first that fails.
     *
     * @param code the cell's Java code (magic lines already blanked out)
     * @return the value of the last snippet when it is an expression, else empty
     * @throws CellError for a compilation error, an exception thrown by the cell, or an interrupt
     */
    Optional<Value> evaluate(String code) throws CellError {
        synchronized (stopLock) {
            cellNumber++;
            evaluating = true;
            stopRequested = false;
        }
        execution.cellStarted();
        try {
            return evaluatePieces(code);
        } catch (OutOfMemoryError e) {
            // The kernel's own work for the cell (JShell compiling it, say) found the heap full.
            execution.giveMemoryBack();
            throw Errors.outOfMemory(CellError.of(OutOfMemoryError.class.getName(),
                    "the kernel ran out of memory while running the cell" + (e.getMessage() == null ? ""
                            : " (" + e.getMessage() + ")")), execution.cleared());
        } finally {
            synchronized (stopLock) {
                evaluating = false;
            }
        }
    }

    private Optional<Value> evaluatePieces(String code) throws CellError {
        List<Piece> pieces = split(code);
        Map<String, Integer> offsets = new HashMap<>();
        Errors.Cell cell = new Errors.Cell(code, offsets);
        Optional<Value> value = Optional.empty();
        for (int i = 0; i < pieces.size(); i++) {
            Piece piece = pieces.get(i);
            if (stopRequested) {
                throw Errors.interrupted();
            }
            execution.countInvocations();
            List<SnippetEvent> events = shell.eval(piece.source());
            if (stopRequested) {
                throw Errors.interrupted();
            }
            Optional<SnippetEvent> main = events.stream().filter(e -> e.causeSnippet() == null).findFirst();
            if (main.isEmpty()) {
                continue;
            }
            SnippetEvent event = main.get();
            // JShell numbers a snippet's lines from the line of its first token.
            offsets.put(event.snippet().id(), piece.start() + leadingBlank(piece.source()));
            if (event.status() == Snippet.Status.REJECTED) {
                throw Errors.compilation(cell, piece.start(), shell.diagnostics(event.snippet()).collect(Collectors.toList()));
            }
            if (event.exception() != null) {
                CellError error = Errors.runtime(shell, cell, event.exception());
                throw execution.ranOutOfMemory() ? Errors.outOfMemory(error, execution.cleared()) : error;
            }
            if (event.snippet() instanceof DeclarationSnippet d && (event.status() == Snippet.Status.RECOVERABLE_DEFINED
                    || event.status() == Snippet.Status.RECOVERABLE_NOT_DEFINED)) {
                // As the jshell tool does: say why a definition cannot be used yet (on the cell's stderr).
                System.err.println("note: " + d.name() + " cannot be used until "
                        + Errors.defined(shell.unresolvedDependencies(d).collect(Collectors.toList())));
            }
            value = i == pieces.size() - 1 ? valueOf(event) : Optional.empty();
        }
        return value;
    }

    /**
     * Compiles and runs a throw-away expression the way a cell's is, then drops it: the first
     * compile after JShell's start takes several times as long as later ones (the compiler's
     * classes initialise, its code is not compiled yet), and this way the user's first cell does
     * not pay for it.
     */
    void warmUp() {
        execution.countInvocations();
        for (SnippetEvent e : shell.eval("1 + 1")) {
            shell.drop(e.snippet());
        }
    }

    /** Adds a jar or class folder to the class path of the cells that follow. */
    void addToClasspath(Path entry) {
        shell.addToClasspath(entry.toAbsolutePath().toString());
    }

    /** Stops the running cell, if any; the cell then fails with {@link CellError#INTERRUPTED}. */
    void interrupt() {
        long interrupted;
        synchronized (stopLock) {
            if (!evaluating) {
                return;
            }
            interrupted = cellNumber;
            stopRequested = true;
        }
        // JShell.stop() only stops code that already runs; a cell still compiling would start its
        // loop after a single stop. So keep stopping until this cell has ended.
        Thread stopper = new Thread(() -> {
            // An experiment in the cell is stopped the careful way first (files consistent,
            // subjects stopped); only then is the cell's thread stopped.
            execution.stopExperiments(java.time.Duration.ofSeconds(30));
            while (true) {
                synchronized (stopLock) {
                    if (cellNumber != interrupted || !evaluating) {
                        return;
                    }
                    shell.stop();
                }
                try {
                    Thread.sleep(STOP_RETRY_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "loadlab-kernel-stop");
        stopper.setDaemon(true);
        stopper.start();
    }

    /** Completions at {@code cursor}: the matches, best first, and the range of the cell they replace. */
    ReplacementOptions complete(String code, int cursor) {
        Piece piece = pieceAt(code, cursor);
        int[] anchor = new int[1];
        List<Suggestion> suggestions = analysis.completionSuggestions(
                code.substring(piece.start(), piece.end()), cursor - piece.start(), anchor);
        Set<String> matches = new LinkedHashSet<>();
        suggestions.stream().filter(Suggestion::matchesType).forEach(s -> matches.add(s.continuation()));
        suggestions.forEach(s -> matches.add(s.continuation()));
        return new ReplacementOptions(new ArrayList<>(matches), piece.start() + anchor[0], cursor);
    }

    /** Signatures (and Javadoc when asked and available) of what is at {@code cursor}. */
    Optional<String> documentation(String code, int cursor, boolean javadoc) {
        Piece piece = pieceAt(code, cursor);
        String input = code.substring(piece.start(), piece.end());
        int at = cursor - piece.start();
        List<Documentation> docs = analysis.documentation(input, at, javadoc);
        if (docs.isEmpty()) {
            // JShell documents a method once its call is opened: "Math.max" -> "Math.max(".
            docs = analysis.documentation(input.substring(0, at) + "(" + input.substring(at), at + 1, javadoc);
        }
        if (docs.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(docs.stream()
                .map(d -> d.signature() + (javadoc && d.javadoc() != null && !d.javadoc().isBlank() ? "\n" + d.javadoc() : ""))
                .distinct().collect(Collectors.joining("\n")));
    }

    /**
     * Whether a cell is ready to run.
     *
     * @return {@code "complete"}, {@code "invalid"}, or, for code that needs more lines, the
     *         indent for the next line (possibly "")
     */
    String isComplete(String code) {
        String rest = code;
        while (true) {
            CompletionInfo info = analysis.analyzeCompletion(rest);
            switch (info.completeness()) {
                case EMPTY:
                    return "complete";
                case COMPLETE:
                case COMPLETE_WITH_SEMI:
                    if (info.remaining().isBlank()) {
                        return "complete";
                    }
                    rest = info.remaining();
                    break;
                case DEFINITELY_INCOMPLETE:
                case CONSIDERED_INCOMPLETE:
                    return "    ".repeat(Math.max(0, depth(rest)));
                case UNKNOWN:
                    return "invalid";
            }
        }
    }

    /** Splits a cell into complete snippets; an incomplete or unparsable rest is the last piece. */
    List<Piece> split(String code) {
        List<Piece> pieces = new ArrayList<>();
        int start = 0;
        String rest = code;
        while (!rest.isBlank()) {
            CompletionInfo info = analysis.analyzeCompletion(rest);
            Completeness c = info.completeness();
            if (c == Completeness.EMPTY) {
                break;
            }
            if (!c.isComplete()) {
                pieces.add(new Piece(info.source() != null && c == Completeness.UNKNOWN ? info.source() : rest,
                        start, code.length()));
                break;
            }
            int consumed = rest.length() - info.remaining().length();
            pieces.add(new Piece(info.source(), start, start + consumed));
            start += consumed;
            rest = info.remaining();
        }
        return pieces;
    }

    @Override
    public void close() {
        shell.close();
    }

    private Piece pieceAt(String code, int cursor) {
        for (Piece p : split(code)) {
            if (cursor <= p.end()) {
                return p;
            }
        }
        return new Piece(code.substring(Math.min(cursor, code.length())), Math.min(cursor, code.length()), code.length());
    }

    /**
     * The live value of an expression snippet: what its wrapper method returned when it was the one
     * snippet that ran, else fetched by a snippet that hands it to {@link Cells} (a second compile,
     * which was half of a trivial cell's time).
     */
    private Optional<Value> valueOf(SnippetEvent event) throws CellError {
        Snippet s = event.snippet();
        String name = s instanceof VarSnippet v && v.subKind() == Snippet.SubKind.TEMP_VAR_EXPRESSION_SUBKIND ? v.name()
                : s instanceof ExpressionSnippet x ? x.name() : null;
        if (name == null) {
            return Optional.empty();
        }
        Optional<Value> returned = execution.onlyResult();
        if (returned.isPresent()) {
            return returned;
        }
        List<SnippetEvent> kept = shell.eval("io.loadlab.kernel.Cells.keep(" + kernelId + ", " + name + ");");
        if (kept.stream().anyMatch(e -> e.status() == Snippet.Status.REJECTED || e.exception() != null)) {
            // Should not happen; JShell's own text of the value is the next best thing.
            return Optional.of(new Value(event.value()));
        }
        if (stopRequested) {
            throw Errors.interrupted();
        }
        return Optional.of(new Value(Cells.take(kernelId)));
    }

    /** Length of the white space and comments before a snippet's first token. */
    private static int leadingBlank(String source) {
        int i = 0;
        while (i < source.length()) {
            if (Character.isWhitespace(source.charAt(i))) {
                i++;
            } else if (source.startsWith("//", i)) {
                int nl = source.indexOf('\n', i);
                i = nl < 0 ? source.length() : nl + 1;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? source.length() : end + 2;
            } else {
                break;
            }
        }
        return i;
    }

    /** Open braces and parentheses at the end of the code (ignoring those in literals, roughly). */
    private static int depth(String code) {
        int depth = 0;
        boolean inString = false;
        char quote = 0;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    inString = false;
                }
            } else if (c == '"' || c == '\'') {
                inString = true;
                quote = c;
            } else if (c == '{' || c == '(') {
                depth++;
            } else if (c == '}' || c == ')') {
                depth--;
            }
        }
        return depth;
    }
}
