package io.loadlab.format;

import java.util.Locale;
import java.util.Set;
import tech.tablesaw.columns.numbers.NumberColumnFormatter;

/**
 * The kinds of figure a table shows, each rounded as {@link Units} says, and the rule that tells
 * a column's kind from its name ({@code runs.csv} names, the statistics' tables, the report's
 * headings).
 */
public enum Figure {
    /** Requests per second, requests, bytes, errors: whole numbers with separators. */
    COUNT,
    /** Latencies in µs: whole numbers with separators. */
    MICROS,
    /** Ratios, spreads and correlations: 3 significant digits. */
    RATIO,
    /** A fraction (a coefficient of variation) as a percentage with 3 significant digits. */
    PERCENT,
    /** A p-value: 2 significant digits, {@code < 0.001} below. */
    P_VALUE,
    /** Seconds, CPU-seconds and anything else: 3 significant digits, whole from 1,000 on. */
    DECIMAL,
    /** Ids, rounds, positions, n: the integer as it is. */
    INTEGER;

    /** Columns that hold a statistic of the table's metric, so are shown as the metric is. */
    private static final Set<String> OF_THE_METRIC = Set.of("mean", "sd", "median", "min", "max", "ci_low",
            "ci_high", "builtin_mean", "h1_mean", "merged", "value", "± 95% ci");

    /** A value of this kind as a person reads it; NaN is the empty string. */
    public String format(double v) {
        return switch (this) {
            case COUNT, MICROS -> Units.integer(v);
            case RATIO -> Units.ratio(v);
            case PERCENT -> Units.percent(v);
            case P_VALUE -> Units.p(v);
            case DECIMAL -> Units.decimal(v);
            case INTEGER -> Double.isFinite(v) && v == Math.rint(v) && Math.abs(v) < 1e15
                    ? Long.toString((long) v) : Units.decimal(v);
        };
    }

    /**
     * A Tablesaw print formatter that shows a column as this kind, for a column whose name does not
     * tell: {@code table.doubleColumn("± 95% CI").setPrintFormatter(Figure.COUNT.formatter())}.
     * Missing values print as the empty string.
     */
    public NumberColumnFormatter formatter() {
        return new FigureFormatter(this, Double.POSITIVE_INFINITY);
    }

    /**
     * As {@link #formatter()}, and a value above {@code cap}, infinity included, shows as
     * {@code > } and the cap ({@code > 10,000}): for a column whose infinity means a search gave up
     * at its limit, such as the comparison's {@code rounds_advised}.
     */
    public NumberColumnFormatter formatter(double cap) {
        return new FigureFormatter(this, cap);
    }

    /** The kind of a column by its name alone, as {@link #of(String, String)} without a metric. */
    public static Figure of(String column) {
        return of(column, "");
    }

    /**
     * The kind of a column from its name, checked in this order: p-values ({@code p},
     * {@code p_test}, {@code p_mw}...), coefficients of variation ({@code cv}, {@code rps_cv}),
     * ratios ({@code ratio*}, {@code *spread}, {@code spearman}), latencies in µs ({@code *_us},
     * {@code ... µs}), counts ({@code *rps*}, {@code requests}, {@code *bytes*}, {@code errors*},
     * {@code missed}), then the statistics of a summary or comparison ({@code mean}, {@code sd},
     * {@code ci_low}...), which take the kind of the table's metric; everything else is
     * {@link #DECIMAL}. Integer columns that match nothing are {@link #INTEGER}, which callers
     * decide from the column's type.
     *
     * @param column the column's name, any case
     * @param metric the metric the table is about ({@code rps}, {@code lat_p99_us}), or "" when none
     */
    public static Figure of(String column, String metric) {
        String n = column.toLowerCase(Locale.ROOT).strip();
        if (n.equals("p") || n.startsWith("p_") || n.startsWith("p ") || n.startsWith("p-value")) {
            return P_VALUE;
        }
        if (n.equals("cv") || n.startsWith("cv ") || n.endsWith("_cv") || n.endsWith(" cv")) {
            return PERCENT;
        }
        if (n.contains("ratio") || n.endsWith("spread") || n.startsWith("spearman") || n.equals("rho")) {
            return RATIO;
        }
        if (n.endsWith("_us") || n.contains("_us_") || n.contains("µs")) {
            return MICROS;
        }
        if (n.contains("rps") || n.contains("requests") || n.contains("bytes") || n.startsWith("errors")
                || n.equals("missed")) {
            return COUNT;
        }
        if (OF_THE_METRIC.contains(n) && !metric.isEmpty() && !OF_THE_METRIC.contains(metric)) {
            return of(metric, "");
        }
        return DECIMAL;
    }
}
