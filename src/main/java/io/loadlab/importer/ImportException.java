package io.loadlab.importer;

/** A tool output that cannot be read; the message names the tool and quotes the offending line. */
public class ImportException extends RuntimeException {

    public ImportException(String message) {
        super(message);
    }

    public ImportException(String message, Throwable cause) {
        super(message, cause);
    }
}
