package io.loadlab.host;

/**
 * This machine cannot do what a run needs of it: a CPU list names CPUs Loadlab may not use, or
 * {@code taskset} could not pin the load generator. The message says what to change.
 */
public class HostException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public HostException(String message) {
        super(message);
    }

    public HostException(String message, Throwable cause) {
        super(message, cause);
    }
}
