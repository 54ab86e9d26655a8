package io.loadlab.importer;

import java.util.regex.Matcher;
import io.loadlab.data.RunColumn;

/**
 * hey and oha's text summary, which share their layout. hey prints times in seconds ("secs"); oha
 * in the unit it chose for the run (ns, us, ms, s, ...), and NaN or inf where it had no answer,
 * which is left empty. Requests are the responses in the status code distribution; non-2xx/3xx
 * responses are status errors; the error distribution's messages are sorted into connect,
 * timeout, write and read errors. oha's "aborted due to deadline" (the requests in flight when a
 * timed run ends) is not an error, and oha's rps is its responses per second of the run (its own
 * Requests/sec also counts the aborted requests and the errors).
 */
final class HeyParser {

    /** A time: a number (or oha's NaN and inf) and its unit. */
    private static final String TIME = "((?:[-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|NaN|[-+]?inf)\\s*"
            + "(?:secs|ns|us|µs|ms|s|m|h))(?![A-Za-z])";

    private HeyParser() {
    }

    /**
     * @param rpsFromAnswers whether the run's rate is its answers over its duration rather than the
     *                       tool's own Requests/sec (oha: that one also counts aborted requests and errors)
     */
    static ImportedRun parse(Tool tool, String text, boolean rpsFromAnswers) {
        Scan s = new Scan(tool, text);
        Matcher total = s.require("Total:\\s*" + TIME, "'Total: ... secs' line");
        double seconds = s.parse(total, 1, t -> UnitParser.seconds(t, "s"));
        s.put(RunColumn.DURATION_S.id(), seconds);
        s.find("Slowest:\\s*" + TIME).ifPresent(m -> putTime(s, RunColumn.LAT_MAX_US.id(), s.parse(m, 1, HeyParser::micros), true));
        s.find("Average:\\s*" + TIME).ifPresent(m -> putTime(s, RunColumn.LAT_MEAN_US.id(), s.parse(m, 1, HeyParser::micros), false));
        Matcher rps = s.require("Requests/sec:\\s*(\\S+)", "'Requests/sec:' line");
        double toolRps = s.parse(rps, 1, UnitParser::count);
        s.find("Total data:\\s*(\\S+(?:\\s*(?:bytes|[KMGT]i?B|B)\\b)?)")
                .ifPresent(m -> s.putLong(RunColumn.BYTES_READ.id(), s.parse(m, 1, UnitParser::bytes)));
        s.find("(?:Latency|Response time) distribution:").ifPresent(m -> {
            int stop = s.find("Details \\(|Status code distribution:|Error distribution:", m.end())
                    .map(Matcher::start).orElse(s.text.length());
            s.percentiles(m.end(), stop, "([0-9.]+)%\\s+in\\s+" + TIME, "lat", HeyParser::micros);
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
        s.find("Error distribution:").ifPresent(m -> {
            Matcher e = s.find("\\[(\\d+)\\]\\s+(.+?)(?=\\s+\\[\\d+\\]|\\n|$)", m.end()).orElse(null);
            while (e != null) {
                long n = Math.round(s.parse(e, 1, UnitParser::count));
                String why = e.group(2).toLowerCase(java.util.Locale.ROOT);
                if (!why.contains("aborted due to deadline")) {
                    int k = Scan.errorKind(why);
                    errors[k] += n;
                }
                e = e.find() ? e : null;
            }
        });
        s.putLong(RunColumn.ERRORS_CONNECT.id(), errors[0]);
        s.putLong(RunColumn.ERRORS_TIMEOUT.id(), errors[1]);
        s.putLong(RunColumn.ERRORS_WRITE.id(), errors[2]);
        s.putLong(RunColumn.ERRORS_READ.id(), errors[3]);
        return s.result();
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
