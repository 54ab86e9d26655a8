package io.loadlab.time;

/** A text that is not a duration as {@link Durations#parse} reads them; the message says the forms. */
public final class DurationException extends IllegalArgumentException {

    public DurationException(String message) {
        super(message);
    }
}
