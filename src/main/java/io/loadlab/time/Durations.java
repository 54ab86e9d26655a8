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

    private Durations() {
    }

    /**
     * Parses a duration; a bare number means seconds.
     *
     * @throws DurationException for anything else, with the accepted forms
     */
    public static Duration parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new DurationException("'" + text + "' is not a duration: write it as 500ms, 10s, 2m or 1h");
        }
        double v = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double nanos = switch (unit) {
            case "us", "µs" -> v * 1e3;
            case "ms" -> v * 1e6;
            case "s" -> v * 1e9;
            case "m" -> v * 60e9;
            case "h" -> v * 3600e9;
            default -> throw new IllegalStateException("unit " + unit);
        };
        if (nanos > Long.MAX_VALUE / 2) {
            throw new DurationException("duration '" + text + "' is too long");
        }
        return Duration.ofNanos(Math.round(nanos));
    }

    /** A short form for output: {@code 250ms}, {@code 10s}, {@code 2m30s}. */
    public static String format(Duration d) {
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
