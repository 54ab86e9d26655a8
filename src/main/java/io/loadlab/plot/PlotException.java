package io.loadlab.plot;

/**
 * Input a chart cannot be drawn from: a table without a needed column (the message names it and
 * lists the columns present), a column of the wrong type, an empty table or a filter that leaves
 * nothing to plot, or a chart that cannot be written to a file.
 */
public class PlotException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PlotException(String message) {
        super(message);
    }

    public PlotException(String message, Throwable cause) {
        super(message, cause);
    }
}
