package io.loadlab.importer;

import java.util.regex.Matcher;

/**
 * hey and oha's text summary, which share their layout. Requests are the responses in the status
 * code distribution; non-2xx/3xx responses are status errors; the error distribution's messages
 * are sorted into connect, timeout, write and read errors. oha's "aborted due to deadline" (the
 * requests in flight when a timed run ends) is not an error.
 */
final class HeyParser {

    private HeyParser() {
    }

    static ImportedRun parse(Tool tool, String text) {
        Scan s = new Scan(tool, text);
        Matcher total = s.require("Total:\\s*(\\S+)\\s*secs", "'Total: ... secs' line");
        s.put("duration_s", s.parse(total, 1, t -> UnitParser.seconds(t, "s")));
        s.find("Slowest:\\s*(\\S+)\\s*secs").ifPresent(m -> s.putLong("lat_max_us", s.parse(m, 1, t -> UnitParser.micros(t, "s"))));
        s.find("Average:\\s*(\\S+)\\s*secs").ifPresent(m -> s.put("lat_mean_us", s.parse(m, 1, t -> UnitParser.micros(t, "s"))));
        Matcher rps = s.require("Requests/sec:\\s*(\\S+)", "'Requests/sec:' line");
        s.put("rps", s.parse(rps, 1, UnitParser::count));
        s.find("Total data:\\s*(\\S+(?:\\s*(?:bytes|[KMGT]i?B|B)\\b)?)")
                .ifPresent(m -> s.putLong("bytes_read", s.parse(m, 1, UnitParser::bytes)));
        s.find("(?:Latency|Response time) distribution:").ifPresent(m -> {
            int stop = s.find("Details \\(|Status code distribution:|Error distribution:", m.end())
                    .map(Matcher::start).orElse(s.text.length());
            s.percentiles(m.end(), stop, "([0-9.]+)%\\s+in\\s+(\\S+\\s*secs)", "lat", t -> UnitParser.micros(t, "s"));
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
        s.putLong("requests", requests);
        s.putLong("errors_status", status);
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
        s.putLong("errors_connect", errors[0]);
        s.putLong("errors_timeout", errors[1]);
        s.putLong("errors_write", errors[2]);
        s.putLong("errors_read", errors[3]);
        return s.result();
    }
}
