package io.loadlab.data;

/** Experiment data that cannot be written or read: the message names the file (and line) and what to do. */
public class DataException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DataException(String message) {
        super(message);
    }

    public DataException(String message, Throwable cause) {
        super(message, cause);
    }
}
