package io.loadlab.project;

/** A project file ({@code loadlab.yaml}) that is wrong, or a subject of it that cannot be made ready; one line. */
public final class ProjectException extends RuntimeException {
    public ProjectException(String message) {
        super(message);
    }

    public ProjectException(String message, Throwable cause) {
        super(message, cause);
    }
}
