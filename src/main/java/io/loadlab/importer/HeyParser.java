package io.loadlab.importer;

import io.loadlab.data.RunColumn;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * hey and oha's text summary, which share their layout. hey prints times in seconds ("secs"); oha
 * in the unit it chose for the run (ns, us, ms, s, ...), and NaN or inf where it had no answer,
 * which is left empty. Requests are the responses in the status code distribution; non-2xx/3xx
 * responses are status errors; the error distribution's messages are sorted into connect,
 * timeout, write and read errors. oha's "aborted due to deadline" (the requests in flight when a
 * timed run ends) is not an error, and oha's rps is its responses per second of the run (its own
 * Requests/sec also counts the aborted requests and the errors).
 *
 * <p>The patterns read a file a user hands over, so none may backtrack without bound: numbers and
 * runs of whitespace are matched possessively (a number has one way to match, not one per split of
 * its digits), and the error distribution is cut into messages by hand, each scanned once, where a
 * lazy {@code .+?} followed by a look-ahead for {@code \s+\[n\]} rescanned the rest of a blank run
 * at every character (quadratic: minutes for a line of 100,000 blanks).
 */
final class HeyParser {

    /** A time: a number (or oha's NaN and inf) and its unit. */
    private static final String TIME = "((?:[-+]?(?:[0-9]++(?:\\.[0-9]++)?|\\.[0-9]++)(?:[eE][-+]?[0-9]++)?+|NaN"
            + "|[-+]?inf)\\s*+(?:secs|ns|us|µs|ms|s|m|h))(?![A-Za-z])";

    /** The start of an entry of the error distribution: {@code [count]} and the blanks after it. */
    private static final Pattern ERROR_ENTRY = Pattern.compile("\\[(\\d++)\\]\\s++");

    /** What ends an entry's message on its line: blanks, then the next entry's {@code [count]}. */
    private static final Pattern NEXT_ENTRY = Pattern.compile("\\s\\[\\d++\\]");

    private HeyParser() {
    }

    /**
     * @param rpsFromAnswers whether the run's rate is its answers over its duration rather than the
     *                       tool's own Requests/sec (oha: that one also counts aborted requests and errors)
     */
    static ImportedRun parse(Tool tool, String text, boolean rpsFromAnswers) {
        Scan s = new Scan(tool, text);
        Matcher total = s.require("Total:\\s*+" + TIME, "'Total: ... secs' line");
        double seconds = s.parse(total, 1, t -> UnitParser.seconds(t, "s"));
        s.put(RunColumn.DURATION_S.id(), seconds);
        s.find("Slowest:\\s*+" + TIME).ifPresent(m -> putTime(s, RunColumn.LAT_MAX_US.id(), s.parse(m, 1, HeyParser::micros), true));
        s.find("Average:\\s*+" + TIME).ifPresent(m -> putTime(s, RunColumn.LAT_MEAN_US.id(), s.parse(m, 1, HeyParser::micros), false));
        Matcher rps = s.require("Requests/sec:\\s*(\\S+)", "'Requests/sec:' line");
        double toolRps = s.parse(rps, 1, UnitParser::count);
        s.find("Total data:\\s*(\\S+(?:\\s*(?:bytes|[KMGT]i?B|B)\\b)?)")
                .ifPresent(m -> s.putLong(RunColumn.BYTES_READ.id(), s.parse(m, 1, UnitParser::bytes)));
        s.find("(?:Latency|Response time) distribution:").ifPresent(m -> {
            int stop = s.find("Details \\(|Status code distribution:|Error distribution:", m.end())
                    .map(Matcher::start).orElse(s.text.length());
            s.percentiles(m.end(), stop, "([0-9.]++)%\\s++in\\s++" + TIME, "lat", HeyParser::micros);
        });
        long requests = 0;
        long status = 0;
        Matcher codes = s.find("\\[(\\d{3})\\]\\s+(\\d+)\\s+responses").orElse(null);
        while (codes != null) {
            long n = Math.round(s.parse(codes, 2, UnitParser::count));
            int code = Integer.parseInt(codes.group(1));
            requests += n;
            if (code < 200 || code >= 400) {
                status += n;
            }
            codes = codes.find() ? codes : null;
        }
        s.putLong(RunColumn.REQUESTS.id(), requests);
        s.put(RunColumn.RPS.id(), rpsFromAnswers && seconds > 0 ? requests / seconds : toolRps);
        s.putLong(RunColumn.ERRORS_STATUS.id(), status);
        long[] errors = new long[4];
        s.find("Error distribution:").ifPresent(m -> countErrors(s, m.end(), errors));
        s.putLong(RunColumn.ERRORS_CONNECT.id(), errors[0]);
        s.putLong(RunColumn.ERRORS_TIMEOUT.id(), errors[1]);
        s.putLong(RunColumn.ERRORS_WRITE.id(), errors[2]);
        s.putLong(RunColumn.ERRORS_READ.id(), errors[3]);
        return s.result();
    }

    /**
     * Adds each entry {@code [count] message} after {@code from} to {@code errors} by kind (connect,
     * timeout, write, read). A message runs to the end of its line or to the next {@code [count]}
     * on it; each character is scanned a bounded number of times, whatever the input.
     */
    private static void countErrors(Scan s, int from, long[] errors) {
        Matcher e = ERROR_ENTRY.matcher(s.text);
        Matcher next = NEXT_ENTRY.matcher(s.text);
        e.region(from, s.text.length());
        while (e.find()) {
            int lineEnd = s.text.indexOf('\n', e.end());
            int stop = lineEnd < 0 ? s.text.length() : lineEnd;
            next.region(e.end(), stop);
            if (next.find()) {
                stop = next.start();
            }
            String why = s.text.substring(e.end(), stop).strip().toLowerCase(java.util.Locale.ROOT);
            if (!why.isEmpty() && !why.contains("aborted due to deadline")) {
                errors[Scan.errorKind(why)] += Math.round(s.parse(e, 1, UnitParser::count));
            }
            e.region(Math.max(stop, e.end()), s.text.length());
        }
    }

    /** A time in µs; NaN for oha's NaN and inf (no answer to measure). */
    private static double micros(String token) {
        return token.startsWith("NaN") || token.contains("inf") ? Double.NaN : UnitParser.micros(token, "s");
    }

    private static void putTime(Scan s, String column, double us, boolean whole) {
        if (Double.isFinite(us)) {
            if (whole) {
                s.putLong(column, us);
            } else {
                s.put(column, us);
            }
        }
    }
}
