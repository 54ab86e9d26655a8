package io.loadlab.format;

import java.text.NumberFormat;
import java.util.Locale;
import tech.tablesaw.columns.numbers.NumberColumnFormatter;

/**
 * A Tablesaw print formatter that rounds as a {@link Figure} does, for a column whose name does not
 * say its kind: {@code column.setPrintFormatter(Figure.COUNT.formatter())}. Tablesaw's own
 * {@code print()} then rounds it too, and {@link ShownTable} keeps it.
 */
final class FigureFormatter extends NumberColumnFormatter {

    private final Figure figure;

    FigureFormatter(Figure figure) {
        super(NumberFormat.getInstance(Locale.ROOT), "");
        this.figure = figure;
    }

    @Override
    public String format(double value) {
        return figure.format(value);
    }

    @Override
    public String format(float value) {
        return figure.format(value);
    }

    @Override
    public String format(long value) {
        return figure.format(value);
    }

    @Override
    public String format(int value) {
        return figure.format(value);
    }

    @Override
    public String format(short value) {
        return figure.format(value);
    }

    @Override
    public String toString() {
        return "FigureFormatter[" + figure + "]";
    }
}
