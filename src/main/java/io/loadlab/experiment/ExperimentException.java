package io.loadlab.experiment;

/** An experiment that cannot start or go on: bad spec, unwritable folder, nothing to resume. */
public class ExperimentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ExperimentException(String message) {
        super(message);
    }

    public ExperimentException(String message, Throwable cause) {
        super(message, cause);
    }
}
