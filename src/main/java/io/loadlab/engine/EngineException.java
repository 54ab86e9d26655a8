package io.loadlab.engine;

/**
 * An engine that cannot run a workload or whose run failed: a tool missing from the PATH, a
 * workload it cannot express, an exit status other than 0, or output that cannot be read. The
 * message says what to change.
 */
public class EngineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EngineException(String message) {
        super(message);
    }

    public EngineException(String message, Throwable cause) {
        super(message, cause);
    }
}
