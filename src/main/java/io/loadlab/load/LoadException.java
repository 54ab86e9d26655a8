package io.loadlab.load;

/**
 * The one exception of the load engine: a spec that cannot run, or a run that could not start.
 * Its message says what to change ("connection refused by 127.0.0.1:9; is the server running?").
 * Errors that happen to individual requests during a run are never thrown: they are counted in
 * {@link ErrorCounts}.
 */
public class LoadException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Whether the problem lies in the input (a usage error) rather than in the run. */
    private final boolean usage;

    private LoadException(String message, boolean usage, Throwable cause) {
        super(message, cause);
        this.usage = usage;
    }

    /** A spec or argument the user must fix; the CLI maps it to exit code 2. */
    public static LoadException usage(String message) {
        return new LoadException(message, true, null);
    }

    /** A run that could not start or complete, such as a refused connection. */
    public static LoadException failed(String message, Throwable cause) {
        return new LoadException(message, false, cause);
    }

    /** {@code true} when the user's input was wrong, {@code false} when the run failed. */
    public boolean isUsageError() {
        return usage;
    }
}
