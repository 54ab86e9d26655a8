package io.loadlab.time;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints human durations: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, {@code 1.5s}.
 * The one home of durations as people write them: the engine, the manifests, the experiment spec and
 * the command line all use it.
 */
public final class Durations {

    private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(us|µs|ms|s|m|h)?");
    /** One part of a compound duration, as {@link #format} writes them ({@code 2m30s}, {@code 1h5m}). */
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(us|µs|ms|s|m|h)");
    private static final Pattern COMPOUND = Pattern.compile("(?:\\d+(?:\\.\\d+)?(?:us|µs|ms|s|m|h)){2,}");

    private Durations() {
    }

    /**
     * Parses a duration: one number with a unit ({@code 500ms}, {@code 1.5s}), a bare number (seconds), or
     * parts with units written together ({@code 2m30s}, {@code 1h5m}), as {@link #format} writes them.
     *
     * @throws DurationException for anything else, with the accepted forms
     */
    public static Duration parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        Matcher m = FORM.matcher(t);
        double nanos;
        if (m.matches()) {
            nanos = nanos(m.group(1), m.group(2) == null ? "s" : m.group(2));
        } else if (COMPOUND.matcher(t).matches()) {
            nanos = 0;
            Matcher part = PART.matcher(t);
            while (part.find()) {
                nanos += nanos(part.group(1), part.group(2));
            }
        } else {
            throw new DurationException("'" + text + "' is not a duration: write it as 500ms, 10s, 2m, 2m30s or 1h");
        }
        if (nanos > Long.MAX_VALUE / 2) {
            throw new DurationException("duration '" + text + "' is too long");
        }
        return Duration.ofNanos(Math.round(nanos));
    }

    private static double nanos(String number, String unit) {
        double v = Double.parseDouble(number);
        return switch (unit) {
            case "us", "µs" -> v * 1e3;
            case "ms" -> v * 1e6;
            case "s" -> v * 1e9;
            case "m" -> v * 60e9;
            case "h" -> v * 3600e9;
            default -> throw new IllegalStateException("unit " + unit);
        };
    }

    /**
     * A short form for output that {@link #parse} reads back as the same duration (to the microsecond):
     * {@code 500us}, {@code 250ms}, {@code 10s}, {@code 2m30s}.
     */
    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos % 1_000_000 != 0) {
            return Math.round(nanos / 1e3) + "us";
        }
        long ms = d.toMillis();
        if (ms < 1000 || ms % 1000 != 0) {
            return ms < 1000 ? ms + "ms" : String.format(Locale.ROOT, "%.3fs", ms / 1000.0);
        }
        long s = ms / 1000;
        if (s < 60 || s % 60 != 0 && s < 600) {
            return s < 60 ? s + "s" : (s / 60) + "m" + (s % 60) + "s";
        }
        return s % 60 == 0 ? (s / 60) + "m" : s + "s";
    }
}
