package io.loadlab.importer;

import java.util.regex.Matcher;
import io.loadlab.data.RunColumn;

/**
 * wrk and wrk2. Socket errors and non-2xx responses are printed by wrk only when there were
 * some, so an absent line means the tool counted none (0). wrk2's uncorrected latency
 * ({@code --u_latency}) is the service time of its fixed-rate run and goes to {@code svc_*}.
 */
final class WrkParser {

    private static final String TIME = "[0-9.]+\\s*(?:ns|us|µs|ms|s|m|h)";

    private WrkParser() {
    }

    /** @param model the load model of the tool's runs: wrk's closed loop, wrk2's fixed rate */
    static ImportedRun parse(Tool tool, String text, RunColumn.LoadModel model) {
        Scan s = new Scan(tool, text);
        s.find("(\\S+) threads and (\\S+) connections").ifPresent(m -> {
            s.putLong(RunColumn.THREADS.id(), s.parse(m, 1, UnitParser::count));
            s.putLong(RunColumn.CONNECTIONS.id(), s.parse(m, 2, UnitParser::count));
        });
        s.putText(RunColumn.LOAD_MODEL.id(), model.value());
        Matcher total = s.require("(\\S+) requests in (\\S+), (\\S+) read", "'N requests in T, B read' line");
        s.putLong(RunColumn.REQUESTS.id(), s.parse(total, 1, UnitParser::count));
        s.put(RunColumn.DURATION_S.id(), s.parse(total, 2, t -> UnitParser.seconds(t, "s")));
        s.putLong(RunColumn.BYTES_READ.id(), s.parse(total, 3, UnitParser::bytes));
        Matcher rps = s.require("Requests/sec:\\s*(\\S+)", "'Requests/sec:' line");
        s.put(RunColumn.RPS.id(), s.parse(rps, 1, UnitParser::count));

        Matcher stats = s.find("Thread Stats\\s+Avg\\s+Stdev\\s+Max\\s+\\+/- Stdev\\s+Latency\\s+(\\S+)\\s+(\\S+)"
                + "\\s+(\\S+)\\s+(\\S+)").orElse(null);
        // wrk prints "-nan%" (and zeros everywhere) when it recorded no latency at all, for example
        // when every request timed out: then latency was not measured.
        if (stats != null && stats.group(4).contains("nan")) {
            return finish(s, total);
        }
        if (stats != null) {
            s.put(RunColumn.LAT_MEAN_US.id(), s.parse(stats, 1, t -> UnitParser.micros(t, "us")));
            s.put(RunColumn.LAT_STDEV_US.id(), s.parse(stats, 2, t -> UnitParser.micros(t, "us")));
            s.putLong(RunColumn.LAT_MAX_US.id(), s.parse(stats, 3, t -> UnitParser.micros(t, "us")));
        }
        int end = total.start();
        s.find("Latency Distribution(?: \\(HdrHistogram - Recorded Latency\\))?").ifPresent(m -> {
            int stop = firstOf(s, m.end(), end, "Detailed Percentile spectrum", "-{10,}", "Uncorrected Latency");
            s.percentiles(m.end(), stop, "([0-9.]+)%\\s+(" + TIME + ")", "lat", t -> UnitParser.micros(t, "us"));
        });
        // wrk2: the first detailed spectrum (the corrected latency) gives a precise mean, stdev and max in ms.
        s.find("#\\[Mean\\s*=\\s*(\\S+),\\s*StdDeviation\\s*=\\s*(\\S+)\\]").ifPresent(m -> {
            s.put(RunColumn.LAT_MEAN_US.id(), Math.round(s.parse(m, 1, t -> UnitParser.micros(t, "ms")) * 1000) / 1000.0);
            s.put(RunColumn.LAT_STDEV_US.id(), Math.round(s.parse(m, 2, t -> UnitParser.micros(t, "ms")) * 1000) / 1000.0);
        });
        s.find("#\\[Max\\s*=\\s*(\\S+),").ifPresent(m -> s.putLong(RunColumn.LAT_MAX_US.id(), s.parse(m, 1, t -> UnitParser.micros(t, "ms"))));
        s.find("Uncorrected Latency(?: \\([^)]*\\))?").ifPresent(m -> {
            int stop = firstOf(s, m.end(), end, "Detailed Percentile spectrum", "-{10,}");
            s.percentiles(m.end(), stop, "([0-9.]+)%\\s+(" + TIME + ")", "svc", t -> UnitParser.micros(t, "us"));
        });
        return finish(s, total);
    }

    /** The error counts, then the result. */
    private static ImportedRun finish(Scan s, Matcher total) {

        Matcher se = s.find("Socket errors:\\s*connect (\\S+), read (\\S+), write (\\S+), timeout (\\S+)").orElse(null);
        RunColumn[] cols = {RunColumn.ERRORS_CONNECT, RunColumn.ERRORS_READ, RunColumn.ERRORS_WRITE, RunColumn.ERRORS_TIMEOUT};
        for (int i = 0; i < cols.length; i++) {
            s.putLong(cols[i].id(), se == null ? 0 : s.parse(se, i + 1, UnitParser::count));
        }
        s.putLong(RunColumn.ERRORS_STATUS.id(), s.find("Non-2xx or 3xx responses:\\s*(\\S+)")
                .map(m -> s.parse(m, 1, UnitParser::count)).orElse(0.0));
        return s.result();
    }

    /** The start of the first of the patterns between from and limit, else limit. */
    private static int firstOf(Scan s, int from, int limit, String... patterns) {
        int best = limit;
        for (String p : patterns) {
            int at = s.find(p, from).map(Matcher::start).orElse(limit);
            best = Math.min(best, at);
        }
        return best;
    }
}
