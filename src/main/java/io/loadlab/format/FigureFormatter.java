package io.loadlab.format;

import java.text.NumberFormat;
import java.util.Locale;
import tech.tablesaw.columns.numbers.NumberColumnFormatter;

/**
 * A Tablesaw print formatter that rounds as a {@link Figure} does, for a column whose name does not
 * say its kind: {@code column.setPrintFormatter(Figure.COUNT.formatter())}. Tablesaw's own
 * {@code print()} then rounds it too, and {@link ShownTable} keeps it. With a cap, a value above it
 * (infinity included) shows as {@code > } and the cap: a search that gave up, not a number.
 */
final class FigureFormatter extends NumberColumnFormatter {

    private final Figure figure;
    private final double cap;

    /** @param cap the largest value shown as itself; {@link Double#POSITIVE_INFINITY} for none */
    FigureFormatter(Figure figure, double cap) {
        super(NumberFormat.getInstance(Locale.ROOT), "");
        this.figure = figure;
        this.cap = cap;
    }

    @Override
    public String format(double value) {
        return value > cap ? "> " + figure.format(cap) : figure.format(value);
    }

    @Override
    public String format(float value) {
        return format((double) value);
    }

    @Override
    public String format(long value) {
        return format((double) value);
    }

    @Override
    public String format(int value) {
        return format((double) value);
    }

    @Override
    public String format(short value) {
        return format((double) value);
    }

    @Override
    public String toString() {
        return "FigureFormatter[" + figure + (cap < Double.POSITIVE_INFINITY ? ", cap " + cap : "") + "]";
    }
}
