package io.loadlab.stats;

/**
 * Input the statistics cannot work with: an unknown metric or subject, a runs table without the
 * columns of {@code runs.csv}, or data that is empty or not a number. The message names the bad
 * value and, where it helps, what is available instead.
 */
public class StatsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StatsException(String message) {
        super(message);
    }
}
