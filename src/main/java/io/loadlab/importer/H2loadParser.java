package io.loadlab.importer;

import java.util.regex.Matcher;
import io.loadlab.data.RunColumn;

/**
 * h2load. Requests are the "done" ones less the "errored" ones (h2load counts a request it lost, such
 * as a stream left unanswered by a GOAWAY, as done and errored); 4xx/5xx responses are status errors, "errored" requests
 * protocol errors and "timeout" ones timeouts. Connections and threads come from the
 * "spawning thread #i: N total client(s)" lines when they are there; the protocol from its
 * "Application protocol:" line ({@code http/1.1}, {@code h2}, {@code h2c}: what was negotiated).
 */
final class H2loadParser {

    private H2loadParser() {
    }

    static ImportedRun parse(String text) {
        Scan s = new Scan(Tool.H2LOAD, text);
        Matcher fin = s.require("finished in (\\S+?),\\s*(\\S+) req/s", "'finished in T, N req/s' line");
        s.put(RunColumn.DURATION_S.id(), s.parse(fin, 1, t -> UnitParser.seconds(t, "s")));
        s.put(RunColumn.RPS.id(), s.parse(fin, 2, UnitParser::count));
        Matcher req = s.require("requests:\\s*(\\S+) total,\\s*(\\S+) started,\\s*(\\S+) done,\\s*(\\S+) succeeded,"
                + "\\s*(\\S+) failed,\\s*(\\S+) errored,\\s*(\\S+) timeout", "'requests: ... total, ... timeout' line");
        s.putLong(RunColumn.REQUESTS.id(), s.parse(req, 3, UnitParser::count) - s.parse(req, 6, UnitParser::count));
        s.putLong(RunColumn.ERRORS_PROTOCOL.id(), s.parse(req, 6, UnitParser::count));
        s.putLong(RunColumn.ERRORS_TIMEOUT.id(), s.parse(req, 7, UnitParser::count));
        s.find("status codes:\\s*(\\S+) 2xx,\\s*(\\S+) 3xx,\\s*(\\S+) 4xx,\\s*(\\S+) 5xx").ifPresent(m ->
                s.putLong(RunColumn.ERRORS_STATUS.id(), s.parse(m, 3, UnitParser::count) + s.parse(m, 4, UnitParser::count)));
        s.find("traffic:\\s*\\S+ \\((\\d+)\\) total").ifPresent(m -> s.putLong(RunColumn.BYTES_READ.id(), s.parse(m, 1, UnitParser::count)));
        s.find("time for request:\\s*(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)").ifPresent(m -> {
            s.putLong(RunColumn.LAT_MAX_US.id(), s.parse(m, 2, t -> UnitParser.micros(t, "us")));
            s.put(RunColumn.LAT_MEAN_US.id(), s.parse(m, 3, t -> UnitParser.micros(t, "us")));
            s.put(RunColumn.LAT_STDEV_US.id(), s.parse(m, 4, t -> UnitParser.micros(t, "us")));
        });
        s.find("Application protocol:\\s*(\\S+)").ifPresent(m -> s.putText(RunColumn.PROTOCOL.id(), m.group(1)));
        Matcher spawn = s.find("spawning thread #\\d+: (\\d+) total client\\(s\\)").orElse(null);
        long clients = 0;
        int threads = 0;
        while (spawn != null) {
            clients += Math.round(s.parse(spawn, 1, UnitParser::count));
            threads++;
            spawn = spawn.find() ? spawn : null;
        }
        if (threads > 0) {
            s.putLong(RunColumn.CONNECTIONS.id(), clients);
            s.putLong(RunColumn.THREADS.id(), threads);
        }
        return s.result();
    }
}
