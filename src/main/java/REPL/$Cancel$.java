package REPL;

/**
 * The stop flag that JShell's local execution engine on Java 22 and later builds into cell code:
 * its {@code LocalExecutionControl} puts a call to {@link #stopCheck()} at the start of every
 * method of a cell's classes and before every backward branch, and defines this class itself.
 * The Loadlab kernel runs cells with an engine of its own ({@code io.loadlab.kernel.CellExecution},
 * which keeps that instrumentation), so it provides the class here, on the kernel's class path,
 * where the cells' class loader finds it first, and sets {@link #allStop} to stop a cell: on those
 * Javas, {@code Thread.stop} is gone. Java 17 instruments nothing and never loads it.
 *
 * <p>The name and members are JShell's; {@code CellExecution} checks at start that this Java's
 * JShell uses them.
 */
public final class $Cancel$ {

    /** True while the running cell is to stop; set by the kernel, read by the cell's code. */
    public static volatile boolean allStop;

    private $Cancel$() {
    }

    /**
     * Called by a cell's code: ends it when the kernel stops it.
     *
     * @throws ThreadDeath when {@link #allStop} is set, as JShell's own check does
     */
    @SuppressWarnings("removal")
    public static void stopCheck() {
        if (allStop) {
            throw new ThreadDeath();
        }
    }
}
