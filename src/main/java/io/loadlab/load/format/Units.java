package io.loadlab.load.format;

import java.util.Locale;

/** Number formatting for summaries, always {@link Locale#ROOT}. */
final class Units {

    private Units() {
    }

    /** A time given in µs, scaled as wrk does: {@code 850.00us}, {@code 1.25ms}, {@code 2.10s}. */
    static String micros(double us) {
        if (us < 1000) {
            return String.format(Locale.ROOT, "%.2fus", us);
        }
        if (us < 1_000_000) {
            return String.format(Locale.ROOT, "%.2fms", us / 1000);
        }
        return String.format(Locale.ROOT, "%.2fs", us / 1_000_000);
    }

    /** Bytes with binary prefixes: {@code 512B}, {@code 1.50KiB}, {@code 98.30MiB}. */
    static String bytes(double b) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        while (b >= 1024 && u < units.length - 1) {
            b /= 1024;
            u++;
        }
        return u == 0 ? String.format(Locale.ROOT, "%.0f%s", b, units[u])
                : String.format(Locale.ROOT, "%.2f%s", b, units[u]);
    }

    /** A count with thousands separators: {@code 812,345}. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A rate with two decimals and separators: {@code 81,234.50}. */
    static String rate(double r) {
        return String.format(Locale.ROOT, "%,.2f", r);
    }
}
