package io.loadlab.importer;

import java.util.regex.Matcher;

/**
 * ApacheBench ({@code ab}, with or without {@code -k}). Failed requests split into connect
 * (errors_connect), receive and exceptions (errors_read) and length (errors_protocol); write errors
 * and non-2xx responses are printed only when there were some, so an absent line means 0. The
 * mean latency is "Time per request (mean)", the spread and maximum come from the "Total" line
 * of the connection times and the percentiles from the table after it (ab prints whole ms).
 */
final class AbParser {

    private AbParser() {
    }

    static ImportedRun parse(String text) {
        Scan s = new Scan(Tool.AB, text);
        s.putText("load_model", "closed_loop");
        s.find("Concurrency Level:\\s*(\\S+)").ifPresent(m -> s.putLong("connections", s.parse(m, 1, UnitParser::count)));
        Matcher taken = s.require("Time taken for tests:\\s*(\\S+)\\s*seconds", "'Time taken for tests:' line");
        s.put("duration_s", s.parse(taken, 1, t -> UnitParser.seconds(t, "s")));
        Matcher done = s.require("Complete requests:\\s*(\\S+)", "'Complete requests:' line");
        s.putLong("requests", s.parse(done, 1, UnitParser::count));
        Matcher failed = s.require("Failed requests:\\s*(\\S+)", "'Failed requests:' line");
        double failures = s.parse(failed, 1, UnitParser::count);
        Matcher split = s.find("\\(Connect:\\s*(\\d+),\\s*Receive:\\s*(\\d+),\\s*Length:\\s*(\\d+),\\s*Exceptions:\\s*(\\d+)\\)")
                .orElse(null);
        if (split != null) {
            s.putLong("errors_connect", s.parse(split, 1, UnitParser::count));
            s.putLong("errors_read", s.parse(split, 2, UnitParser::count) + s.parse(split, 4, UnitParser::count));
            s.putLong("errors_protocol", s.parse(split, 3, UnitParser::count));
        } else if (failures == 0) {
            s.putLong("errors_connect", 0);
            s.putLong("errors_read", 0);
            s.putLong("errors_protocol", 0);
        }
        s.putLong("errors_write", s.find("Write errors:\\s*(\\S+)").map(m -> s.parse(m, 1, UnitParser::count)).orElse(0.0));
        s.putLong("errors_status", s.find("Non-2xx responses:\\s*(\\S+)").map(m -> s.parse(m, 1, UnitParser::count)).orElse(0.0));
        s.find("Total transferred:\\s*(\\S+)\\s*bytes").ifPresent(m -> s.putLong("bytes_read", s.parse(m, 1, UnitParser::count)));
        Matcher rps = s.require("Requests per second:\\s*(\\S+)", "'Requests per second:' line");
        s.put("rps", s.parse(rps, 1, UnitParser::count));
        s.find("Time per request:\\s*(\\S+)\\s*\\[ms\\] \\(mean\\)")
                .ifPresent(m -> s.put("lat_mean_us", s.parse(m, 1, t -> UnitParser.micros(t, "ms"))));
        s.find("Total:\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)").ifPresent(m -> {
            s.put("lat_stdev_us", s.parse(m, 3, t -> UnitParser.micros(t, "ms")));
            s.putLong("lat_max_us", s.parse(m, 5, t -> UnitParser.micros(t, "ms")));
        });
        s.find("Percentage of the requests served within a certain time \\(ms\\)").ifPresent(m ->
                s.percentiles(m.end(), s.text.length(), "([0-9.]+)%\\s+([0-9.]+)(?:\\s*\\(longest request\\))?", "lat",
                        t -> UnitParser.micros(t, "ms")));
        return s.result();
    }
}
