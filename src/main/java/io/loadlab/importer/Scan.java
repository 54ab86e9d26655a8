package io.loadlab.importer;

import io.loadlab.data.RunColumn;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One tool output being read: finds labelled values by pattern (whitespace-tolerant, so a run
 * pasted as one line reads too), parses them and collects the row values. Every failure names
 * the tool and quotes the line it happened in.
 */
final class Scan {

    private static final int QUOTE_MAX = 160;

    final Tool tool;
    final String text;
    private final Map<String, String> values = new LinkedHashMap<>();

    Scan(Tool tool, String text) {
        this.tool = tool;
        this.text = text.replace("\r\n", "\n").replace('\r', '\n');
    }

    /** The first match of the pattern at or after {@code from}. */
    Optional<Matcher> find(String regex, int from) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find(from) ? Optional.of(m) : Optional.empty();
    }

    Optional<Matcher> find(String regex) {
        return find(regex, 0);
    }

    /** A match that the output must have; {@code what} says what is missing. */
    Matcher require(String regex, String what) {
        return find(regex).orElseThrow(() -> new ImportException("cannot read the " + tool.label() + " output: it has no "
                + what + " (is it the complete output of " + tool.label() + "?)"));
    }

    /** Parses a group; a value that does not parse is reported with the line it is in. */
    double parse(Matcher m, int group, ToDoubleFunction<String> parser) {
        try {
            return parser.applyAsDouble(m.group(group));
        } catch (NumberFormatException e) {
            throw unreadable(m.start(group), e.getMessage());
        }
    }

    ImportException unreadable(int position, String why) {
        return new ImportException("cannot read line " + lineNumber(position) + " of the " + tool.label() + " output: '"
                + quote(position) + "'" + (why == null ? "" : " (" + why + ")"));
    }

    /** The line around a position, shortened around it when it is long (a run pasted as one line). */
    String quote(int position) {
        int start = text.lastIndexOf('\n', Math.max(0, position - 1)) + 1;
        if (position == 0) {
            start = 0;
        }
        int end = text.indexOf('\n', position);
        end = end < 0 ? text.length() : end;
        String line = text.substring(start, end).strip();
        if (line.length() <= QUOTE_MAX) {
            return line;
        }
        int from = Math.max(start, position - 40);
        int to = Math.min(end, from + QUOTE_MAX);
        return (from > start ? "..." : "") + text.substring(from, to).strip() + (to < end ? "..." : "");
    }

    private int lineNumber(int position) {
        int n = 1;
        for (int i = 0; i < position && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    /**
     * Reads a list of percentiles that fills {@code [from, to)}: each entry matches {@code entry}
     * (group 1 the percent, group 2 the value, parsed by {@code micros}); anything else in the
     * range is unreadable. Stores the percentiles runs.csv has under {@code prefix}; returns how
     * many entries there were.
     */
    int percentiles(int from, int to, String entry, String prefix, ToDoubleFunction<String> micros) {
        Matcher m = Pattern.compile("\\G\\s*" + entry).matcher(text);
        m.region(from, to);
        int n = 0;
        int end = from;
        while (m.find()) {
            double percent = parse(m, 1, Double::parseDouble);
            double us = parse(m, 2, micros);
            int last = m.end();
            if (Double.isFinite(us)) { // oha prints NaN when nothing was answered
                percentileColumn(percent, prefix).ifPresent(c -> putLong(c, us));
            }
            if (percent == 100 && prefix.equals("lat") && !has(RunColumn.LAT_MAX_US.id()) && Double.isFinite(us)) {
                putLong(RunColumn.LAT_MAX_US.id(), us);
            }
            end = last;
            n++;
        }
        String rest = text.substring(end, to);
        if (!rest.isBlank()) {
            int at = end;
            while (Character.isWhitespace(text.charAt(at))) {
                at++;
            }
            throw unreadable(at, "expected a percentile");
        }
        return n;
    }

    void put(String column, double value) {
        values.put(column, number(value));
    }

    /** A number as the files hold it: up to 6 decimals, no trailing zeros; empty for NaN or infinity. */
    static String number(double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        return java.math.BigDecimal.valueOf(v).setScale(6, java.math.RoundingMode.HALF_UP).stripTrailingZeros()
                .toPlainString();
    }

    /** A whole number (counts, bytes, µs percentiles), rounded. */
    void putLong(String column, double value) {
        values.put(column, Long.toString(Math.round(value)));
    }

    void putText(String column, String value) {
        values.put(column, value);
    }

    boolean has(String column) {
        return values.containsKey(column);
    }

    ImportedRun result() {
        values.put(RunColumn.ENGINE.id(), tool.label());
        return new ImportedRun(tool, values);
    }

    /**
     * Sorts an error message of hey or oha: 0 connect, 1 timeout, 2 write, 3 read (anything else
     * that broke a response).
     */
    static int errorKind(String message) {
        String m = message.toLowerCase(java.util.Locale.ROOT);
        if (m.contains("refused") || m.contains("dial") || m.contains("connect error") || m.contains("tcp connect")
                || m.contains("no route") || m.contains("unreachable")) {
            return 0;
        }
        if (m.contains("timeout") || m.contains("timed out") || m.contains("deadline exceeded")) {
            return 1;
        }
        return m.contains("write") || m.contains("broken pipe") ? 2 : 3;
    }

    /** The percentile column for a percentile the tools print, if it is one runs.csv has. */
    static Optional<String> percentileColumn(double percent, String prefix) {
        String suffix = percent == 50 ? "p50" : percent == 75 ? "p75" : percent == 90 ? "p90" : percent == 99 ? "p99"
                : percent == 99.9 ? "p999" : null;
        if (suffix == null || prefix.equals("svc") && suffix.equals("p75")) {
            return Optional.empty();
        }
        return Optional.of(prefix + "_" + suffix + "_us");
    }
}
