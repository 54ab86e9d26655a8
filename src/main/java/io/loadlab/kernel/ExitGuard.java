package io.loadlab.kernel;

import java.util.Arrays;
import java.util.Locale;

/**
 * Where a cell's calls to {@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt} land
 * instead: cells run in the kernel's JVM, so such a call would end the kernel and lose every
 * variable. {@link ExitCallRewriter} redirects those calls in the classes JShell compiles for a
 * cell (direct calls and method references such as {@code System::exit}) to the methods here,
 * which throw a {@link SecurityException} with a one-line message; the cell fails with it and the
 * kernel keeps its state.
 *
 * <p>Why not a security manager, as before: Java 17 prints a deprecation warning when one is
 * installed, Java 18 to 23 need {@code -Djava.security.manager=allow}, and Java 24 and later have
 * none. Rewriting the cell's own class files works the same on every Java. What it does not
 * reach: an exit made by a library the cell calls (a command line's {@code main}, say, including
 * {@code io.loadlab.cli.Main.main}: call {@code Main.execute} instead) or through reflection; that
 * still ends the kernel, as a crash would.
 *
 * <p>Public because the rewritten cell classes, loaded by JShell's class loader, call it. Not
 * meant for other callers.
 */
public final class ExitGuard {

    private ExitGuard() {
    }

    /**
     * Replaces {@code System.exit(status)} in a cell.
     *
     * @throws SecurityException always
     */
    public static void exit(int status) {
        throw refused("System.exit", status);
    }

    /**
     * Replaces {@code runtime.exit(status)} in a cell.
     *
     * @throws SecurityException always
     */
    public static void exit(Runtime runtime, int status) {
        throw refused("Runtime.exit", status);
    }

    /**
     * Replaces {@code runtime.halt(status)} in a cell.
     *
     * @throws SecurityException always
     */
    public static void halt(Runtime runtime, int status) {
        throw refused("Runtime.halt", status);
    }

    private static SecurityException refused(String call, int status) {
        SecurityException e = new SecurityException(String.format(Locale.ROOT, "%s(%d) was refused: it would end the "
                + "kernel and lose every variable; restart the kernel from the notebook instead", call, status));
        // The traceback starts in the cell, where the call was written, not here.
        StackTraceElement[] trace = e.getStackTrace();
        e.setStackTrace(Arrays.copyOfRange(trace, Math.min(2, trace.length), trace.length));
        return e;
    }
}
