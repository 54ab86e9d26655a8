package io.loadlab.stats;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Numbers as the package's notes and messages show them to people. */
final class Texts {

    private Texts() {
    }

    /** A p-value: two significant digits, {@code < 0.001} below. */
    static String p(double p) {
        return p < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "%.2g", p);
    }

    /** A fraction as a percentage without trailing zeros: 0.01 as {@code 1%}, 0.025 as {@code 2.5%}. */
    static String percent(double fraction) {
        return BigDecimal.valueOf(fraction).movePointRight(2).stripTrailingZeros().toPlainString() + "%";
    }

    /** A number without trailing zeros: 0.05 as {@code 0.05}, 10.0 as {@code 10}. */
    static String plain(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** A quantity such as seconds or CPUs to 3 significant digits without trailing zeros: {@code 10}, {@code 0.25}. */
    static String sig3(double v) {
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** A rate in requests per second, whole, with separators: {@code 5,000/s}. */
    static String rate(double v) {
        return String.format(Locale.ROOT, "%,.0f/s", v);
    }
}
