package io.loadlab.kernel;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jshell.Diag;
import jdk.jshell.EvalException;
import jdk.jshell.JShell;
import jdk.jshell.UnresolvedReferenceException;

/**
 * Turns what JShell reports (compiler diagnostics, exceptions thrown by a cell) into
 * {@link CellError}s whose traceback points at lines of the cell rather than at JShell's
 * generated wrapper classes.
 */
final class Errors {

    /** Frames shown per exception before "... N more". */
    private static final int MAX_FRAMES = 20;
    /** Above this share of the heap in use after an out-of-memory clean-up, the user is told to free some. */
    private static final double HEAP_STILL_FULL = 0.75;

    private Errors() {
    }

    /** Where this cell's snippets start: JShell snippet id to offset in the cell. */
    record Cell(String text, Map<String, Integer> snippetOffsets) {

        /** 1-based line number in the cell of an offset. */
        int lineAt(int offset) {
            int line = 1;
            for (int i = 0; i < Math.min(offset, text.length()); i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                }
            }
            return line;
        }

        String lineText(int line) {
            String[] lines = text.split("\n", -1);
            return line >= 1 && line <= lines.length ? lines[line - 1] : "";
        }
    }

    /** The diagnostics of a rejected snippet starting at {@code offset} in the cell. */
    static CellError compilation(Cell cell, int offset, List<Diag> diagnostics) {
        List<String> lines = new ArrayList<>();
        String first = "";
        for (Diag d : diagnostics) {
            if (!d.isError()) {
                continue;
            }
            String message = d.getMessage(Locale.ROOT);
            if (first.isEmpty()) {
                first = message.lines().findFirst().orElse(message);
            }
            long pos = d.getStartPosition();
            if (pos < 0) {
                lines.add("error: " + message.lines().findFirst().orElse(""));
                message.lines().skip(1).forEach(l -> lines.add("  " + l.strip()));
                continue;
            }
            int at = offset + (int) pos;
            int line = cell.lineAt(at);
            lines.add("cell line " + line + ": " + message.lines().findFirst().orElse(""));
            message.lines().skip(1).forEach(l -> lines.add("  " + l.strip()));
            String text = cell.lineText(line);
            int lineStart = at == 0 ? 0 : cell.text().lastIndexOf('\n', Math.min(at, cell.text().length()) - 1) + 1;
            int column = Math.max(0, Math.min(at - lineStart, text.length()));
            lines.add("    " + text);
            lines.add("    " + " ".repeat(column) + "^");
        }
        if (first.isEmpty()) {
            first = "the cell does not compile";
            lines.add(first);
        }
        List<String> traceback = new ArrayList<>();
        traceback.add(CellError.COMPILATION + ": " + first);
        traceback.addAll(lines);
        return new CellError(CellError.COMPILATION, first, traceback);
    }

    /** An exception thrown while a snippet ran: an {@link EvalException} or an unresolved reference. */
    static CellError runtime(JShell shell, Cell cell, Exception e) {
        if (e instanceof UnresolvedReferenceException ure) {
            String message = "'" + ure.getSnippet().source().strip().lines().findFirst().orElse("")
                    + "' cannot be used until " + defined(shell.unresolvedDependencies(ure.getSnippet())
                    .collect(Collectors.toList()));
            String name = UnresolvedReferenceException.class.getName();
            return new CellError(name, message, List.of(name + ": " + message));
        }
        String name = e instanceof EvalException ee ? ee.getExceptionClassName() : e.getClass().getName();
        String message = e.getMessage() == null ? "" : e.getMessage();
        List<String> traceback = new ArrayList<>();
        describe(cell, e, name, message, "", traceback);
        return new CellError(name, message, traceback);
    }

    /** "variable x is defined", "variable x, class Y are defined", for JShell's unresolved dependencies. */
    static String defined(List<String> missing) {
        return missing.isEmpty() ? "what it refers to is defined"
                : String.join(", ", missing) + (missing.size() == 1 ? " is defined" : " are defined");
    }

    /**
     * An {@link OutOfMemoryError} of a cell, with what the kernel did about it and how full the
     * heap is now (after a full collection), so that the user knows whether earlier cells' values
     * still hold it.
     *
     * @param cleared the variables of the cell that were set to null to give their memory back
     */
    static CellError outOfMemory(CellError error, List<String> cleared) {
        List<String> traceback = new ArrayList<>(error.traceback());
        if (!cleared.isEmpty()) {
            traceback.add("The kernel set what this cell declared to null, to give its memory back: "
                    + String.join(", ", cleared));
        }
        System.gc();
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long max = heap.getMax() > 0 ? heap.getMax() : Runtime.getRuntime().maxMemory();
        double full = (double) heap.getUsed() / max;
        traceback.add(String.format(Locale.ROOT, "Heap in use now: %d of %d MiB (%.0f%%).", heap.getUsed() >> 20,
                max >> 20, 100 * full));
        if (full > HEAP_STILL_FULL) {
            traceback.add("Values kept by earlier cells still fill the heap: set them to null, or restart the kernel.");
        }
        return new CellError(error.ename(), error.evalue(), traceback);
    }

    /** The error of a cell that an interrupt request stopped. */
    static CellError interrupted() {
        return CellError.of(CellError.INTERRUPTED, "the cell was stopped by an interrupt request");
    }

    private static void describe(Cell cell, Throwable t, String name, String message, String prefix,
                                 List<String> out) {
        out.add(prefix + name + (message.isEmpty() ? "" : ": " + message));
        StackTraceElement[] frames = t.getStackTrace();
        int lastCellFrame = -1;
        for (int i = 0; i < frames.length; i++) {
            if (isSnippetFrame(frames[i])) {
                lastCellFrame = i;
            }
        }
        // The frames below the last snippet frame are JShell's machinery: leave them out.
        int shown = lastCellFrame >= 0 ? lastCellFrame + 1 : frames.length;
        for (int i = 0; i < Math.min(shown, MAX_FRAMES); i++) {
            out.add("    at " + frame(cell, frames[i]));
        }
        if (shown > MAX_FRAMES) {
            out.add("    ... " + (shown - MAX_FRAMES) + " more");
        }
        Throwable cause = t.getCause();
        if (cause != null && cause != t && out.size() < 4 * MAX_FRAMES) {
            String causeName = cause instanceof EvalException ee ? ee.getExceptionClassName() : cause.getClass().getName();
            describe(cell, cause, causeName, cause.getMessage() == null ? "" : cause.getMessage(), "Caused by: ", out);
        }
    }

    private static boolean isSnippetFrame(StackTraceElement f) {
        return f.getFileName() != null && f.getFileName().startsWith("#");
    }

    private static String frame(Cell cell, StackTraceElement f) {
        if (!isSnippetFrame(f)) {
            return f.toString();
        }
        String id = f.getFileName().substring(1);
        String method = f.getMethodName() == null || f.getMethodName().isEmpty() || f.getMethodName().startsWith("do_it$")
                ? "" : f.getMethodName() + " ";
        Integer offset = cell.snippetOffsets().get(id);
        if (offset == null) {
            return method + "(an earlier cell, snippet #" + id + " line " + f.getLineNumber() + ")";
        }
        int line = cell.lineAt(offset) + Math.max(0, f.getLineNumber() - 1);
        return method + "(cell line " + line + ")";
    }
}
