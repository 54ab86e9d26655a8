package io.loadlab.format;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * How Loadlab shows a number to a person: the one place where figures are rounded for reading,
 * used by the terminal, the kernel's renderers, the report and the notebooks. Every number is
 * formatted with {@link Locale#ROOT}. The files (CSV, JSON, hlog) keep full precision; nothing
 * here is meant for them.
 *
 * <ul>
 *   <li>throughput and counts as integers with separators: {@code 117,541};</li>
 *   <li>ratios to 3 significant digits: {@code 0.614}, {@code 1.68};</li>
 *   <li>coefficients of variation and other fractions as percentages to 3 significant digits:
 *       {@code 4.52%};</li>
 *   <li>p-values to 2 significant digits, {@code < 0.001} below that;</li>
 *   <li>latencies as whole µs, or, with a unit, ms and s with 2 decimals: {@code 850us},
 *       {@code 1.25ms}.</li>
 * </ul>
 *
 * <p>A value that is not a number (NaN, the statistics' mark for "undefined") is shown as the
 * empty string, as an unmeasured value is in the files; infinities as {@code inf}. Stateless and
 * thread-safe.
 */
public final class Units {

    /** The smallest p-value shown as a number; smaller ones are {@code < 0.001}. */
    public static final double SMALLEST_P = 0.001;

    private Units() {
    }

    /** A whole number with separators ({@code 117,541}): requests per second, counts, µs. */
    public static String integer(double v) {
        if (!Double.isFinite(v)) {
            return notFinite(v);
        }
        return String.format(Locale.ROOT, "%,d", Math.round(v));
    }

    /** A count with separators: {@code 812,345}. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A ratio, such as a mean over the baseline's, to 3 significant digits: {@code 0.614}. */
    public static String ratio(double v) {
        return significant(v, 3);
    }

    /** A fraction as a percentage to 3 significant digits: 0.04521 as {@code 4.52%}. */
    public static String percent(double fraction) {
        return Double.isFinite(fraction) ? significant(fraction * 100, 3) + "%" : notFinite(fraction);
    }

    /** A p-value to 2 significant digits ({@code 0.043}, {@code 0.11}); below 0.001 {@code < 0.001}. */
    public static String p(double p) {
        if (Double.isNaN(p)) {
            return "";
        }
        return p < SMALLEST_P ? "< 0.001" : significant(p, 2);
    }

    /** An interval of two figures shown alike: {@code [0.396, 0.744]}; empty when either is NaN. */
    public static String interval(double low, double high, Figure figure) {
        if (Double.isNaN(low) || Double.isNaN(high)) {
            return "";
        }
        return "[" + figure.format(low) + ", " + figure.format(high) + "]";
    }

    /**
     * A latency given in µs, with its unit: whole µs below a millisecond, then ms and s with 2
     * decimals ({@code 850us}, {@code 1.25ms}, {@code 2.10s}). ASCII {@code us}, because a
     * terminal without UTF-8 would garble µ.
     */
    public static String latency(double us) {
        if (!Double.isFinite(us)) {
            return notFinite(us);
        }
        if (Math.abs(us) < 999.5) {
            return Math.round(us) + "us";
        }
        if (Math.abs(us) < 999_995) {
            return String.format(Locale.ROOT, "%.2fms", us / 1000);
        }
        return String.format(Locale.ROOT, "%.2fs", us / 1_000_000);
    }

    /** Bytes with binary prefixes: {@code 512B}, {@code 1.50KiB}, {@code 98.30MiB}. */
    public static String bytes(double b) {
        if (!Double.isFinite(b)) {
            return notFinite(b);
        }
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        while (Math.abs(b) >= 1024 && u < units.length - 1) {
            b /= 1024;
            u++;
        }
        return u == 0 ? String.format(Locale.ROOT, "%.0f%s", b, units[u])
                : String.format(Locale.ROOT, "%.2f%s", b, units[u]);
    }

    /**
     * A quantity of no particular kind (seconds, CPU-seconds, a share): 3 significant digits
     * without trailing zeros below 1,000 ({@code 1.83}, {@code 0.05}, {@code 2}), a whole number
     * with separators from there on ({@code 12,345}).
     */
    public static String decimal(double v) {
        if (!Double.isFinite(v)) {
            return notFinite(v);
        }
        if (Math.abs(v) >= 999.5) {
            return integer(v);
        }
        BigDecimal rounded = round(v, 3).stripTrailingZeros();
        return rounded.signum() == 0 ? "0" : rounded.toPlainString();
    }

    /**
     * A setting as it was given, without trailing zeros and never rounded: an alpha of 0.05 as
     * {@code 0.05}, a limit of 10.0 as {@code 10}. For thresholds and options, not measurements.
     */
    public static String exact(double v) {
        return Double.isFinite(v) ? BigDecimal.valueOf(v).stripTrailingZeros().toPlainString() : notFinite(v);
    }

    /** A fraction given as a setting, as a percentage without trailing zeros: 0.01 as {@code 1%}, 0.025 as {@code 2.5%}. */
    public static String exactPercent(double fraction) {
        return Double.isFinite(fraction)
                ? BigDecimal.valueOf(fraction).movePointRight(2).stripTrailingZeros().toPlainString() + "%"
                : notFinite(fraction);
    }

    /**
     * A number to {@code digits} significant digits, trailing zeros kept because they say how
     * precise the figure is ({@code 1.00}, {@code 0.0450}); never in exponent form, and with
     * separators once it has four whole digits or more. Zero is {@code 0}.
     *
     * @param digits 1 or more
     */
    public static String significant(double v, int digits) {
        if (digits < 1) {
            throw new IllegalArgumentException("significant digits must be at least 1, got " + digits);
        }
        if (!Double.isFinite(v)) {
            return notFinite(v);
        }
        if (v == 0) {
            return "0";
        }
        BigDecimal rounded = round(v, digits);
        if (rounded.precision() < digits) {
            // 0.1 has one digit: 0.10 shows the second.
            rounded = rounded.setScale(rounded.scale() + digits - rounded.precision());
        }
        return grouped(rounded.toPlainString());
    }

    /** Half-up rounding of the value's shortest decimal form, as people round: 0.0125 to 0.013. */
    private static BigDecimal round(double v, int digits) {
        return BigDecimal.valueOf(v).round(new MathContext(digits, RoundingMode.HALF_UP));
    }

    /** Thousands separators in the whole part of a plain decimal string. */
    private static String grouped(String plain) {
        int start = plain.startsWith("-") ? 1 : 0;
        int dot = plain.indexOf('.');
        int end = dot < 0 ? plain.length() : dot;
        if (end - start <= 3) {
            return plain;
        }
        StringBuilder b = new StringBuilder(plain.substring(0, start));
        for (int i = start; i < end; i++) {
            if (i > start && (end - i) % 3 == 0) {
                b.append(',');
            }
            b.append(plain.charAt(i));
        }
        return b.append(plain.substring(end)).toString();
    }

    private static String notFinite(double v) {
        return Double.isNaN(v) ? "" : v > 0 ? "inf" : "-inf";
    }
}
