package io.loadlab.importer;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the numbers with unit suffixes that load tools print ({@code 611.00us}, {@code 7.29MB},
 * {@code 24.64k}) into Loadlab's units; it only reads, {@link io.loadlab.format.Units} shows. Throws
 * NumberFormatException on anything else.
 */
final class UnitParser {

    private static final Pattern NUMBER_UNIT = Pattern.compile("([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([A-Za-zµμ/]*)");

    private UnitParser() {
    }

    /** A duration such as {@code 611.00us}, {@code 0.91ms}, {@code 2.00s}, {@code 1.00m}; in µs. */
    static double micros(String token, String defaultUnit) {
        Matcher m = match(token);
        String unit = m.group(2).isEmpty() ? defaultUnit : m.group(2);
        double v = Double.parseDouble(m.group(1));
        return v * switch (unit.toLowerCase(Locale.ROOT)) {
            case "ns" -> 0.001;
            case "us", "µs", "μs" -> 1;
            case "ms" -> 1_000;
            case "s", "sec", "secs", "seconds" -> 1_000_000;
            case "m", "min" -> 60_000_000;
            case "h" -> 3_600_000_000.0;
            default -> throw new NumberFormatException("unknown time unit '" + unit + "'");
        };
    }

    /** A duration in seconds. */
    static double seconds(String token, String defaultUnit) {
        return micros(token, defaultUnit) / 1_000_000;
    }

    /**
     * A size such as {@code 7.29MB} or {@code 3.09 MiB}, in bytes. KB/MB/GB are taken as powers of
     * 1024, as wrk and h2load compute them; KiB/MiB/GiB are the same.
     */
    static double bytes(String token) {
        Matcher m = match(token);
        double v = Double.parseDouble(m.group(1));
        return v * switch (m.group(2)) {
            case "", "B", "b", "bytes" -> 1;
            case "K", "KB", "KiB", "k", "kB" -> 1024;
            case "M", "MB", "MiB" -> 1024.0 * 1024;
            case "G", "GB", "GiB" -> 1024.0 * 1024 * 1024;
            case "T", "TB", "TiB" -> 1024.0 * 1024 * 1024 * 1024;
            default -> throw new NumberFormatException("unknown size unit '" + m.group(2) + "'");
        };
    }

    /** A count, plain or with a metric suffix ({@code 24.64k}, {@code 1.04M}). */
    static double count(String token) {
        Matcher m = match(token.replace(",", ""));
        double v = Double.parseDouble(m.group(1));
        return v * switch (m.group(2)) {
            case "" -> 1;
            case "k", "K" -> 1e3;
            case "M" -> 1e6;
            case "G" -> 1e9;
            default -> throw new NumberFormatException("unknown count suffix '" + m.group(2) + "'");
        };
    }

    private static Matcher match(String token) {
        Matcher m = NUMBER_UNIT.matcher(token.trim());
        if (!m.matches()) {
            throw new NumberFormatException("not a number: '" + token + "'");
        }
        return m;
    }
}
