package io.loadlab.kernel;

import java.util.List;
import java.util.Objects;

/**
 * Why a cell failed, in the shape of a Jupyter {@code error} message: the error's name (a Java
 * exception's class name such as {@code java.lang.IllegalStateException}, or
 * {@code CompilationError}, {@code Interrupted}, {@code MagicError}), its value (the message) and
 * the traceback lines shown under the cell.
 */
public final class CellError extends Exception {
    private static final long serialVersionUID = 1L;

    /** The name of compilation errors: the cell (or part of it) did not compile. */
    public static final String COMPILATION = "CompilationError";
    /** The name of a cell stopped by an interrupt request. */
    public static final String INTERRUPTED = "Interrupted";
    /** The name of a bad {@code %} line magic. */
    public static final String MAGIC = "MagicError";

    private final String ename;
    private final String evalue;
    private final List<String> traceback;

    /**
     * @param ename     the error's name, not blank
     * @param evalue    the message, "" when there is none
     * @param traceback the lines to show, each without line breaks
     */
    public CellError(String ename, String evalue, List<String> traceback) {
        super(ename + (evalue.isEmpty() ? "" : ": " + evalue));
        if (ename.isBlank()) {
            throw new IllegalArgumentException("a cell error needs a name, got '" + ename + "'");
        }
        this.ename = ename;
        this.evalue = Objects.requireNonNull(evalue, "evalue");
        this.traceback = List.copyOf(traceback);
    }

    /** A failure described by one line, such as a bad magic. */
    static CellError of(String ename, String evalue) {
        return new CellError(ename, evalue, List.of(ename + ": " + evalue));
    }

    /** The error's name ({@code ename} in the Jupyter protocol). */
    public String ename() {
        return ename;
    }

    /** The error's message ({@code evalue}), "" when there is none. */
    public String evalue() {
        return evalue;
    }

    /** The lines shown under the cell; the first names the error. */
    public List<String> traceback() {
        return traceback;
    }
}
