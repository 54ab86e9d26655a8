package io.loadlab.subject;

/**
 * A subject (server under test) that could not be started, did not become ready, or died.
 * The message says what happened and carries the tail of the subject's log.
 */
public class SubjectException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SubjectException(String message) {
        super(message);
    }

    public SubjectException(String message, Throwable cause) {
        super(message, cause);
    }
}
