package io.loadlab.importer;

import java.util.regex.Matcher;
import io.loadlab.data.RunColumn;

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
        s.putText(RunColumn.LOAD_MODEL.id(), RunColumn.LoadModel.CLOSED_LOOP.value());
        s.find("Concurrency Level:\\s*(\\S+)").ifPresent(m -> s.putLong(RunColumn.CONNECTIONS.id(), s.parse(m, 1, UnitParser::count)));
        Matcher taken = s.require("Time taken for tests:\\s*(\\S+)\\s*seconds", "'Time taken for tests:' line");
        s.put(RunColumn.DURATION_S.id(), s.parse(taken, 1, t -> UnitParser.seconds(t, "s")));
        Matcher done = s.require("Complete requests:\\s*(\\S+)", "'Complete requests:' line");
        s.putLong(RunColumn.REQUESTS.id(), s.parse(done, 1, UnitParser::count));
        Matcher failed = s.require("Failed requests:\\s*(\\S+)", "'Failed requests:' line");
        double failures = s.parse(failed, 1, UnitParser::count);
        Matcher split = s.find("\\(Connect:\\s*(\\d+),\\s*Receive:\\s*(\\d+),\\s*Length:\\s*(\\d+),\\s*Exceptions:\\s*(\\d+)\\)")
                .orElse(null);
        if (split != null) {
            s.putLong(RunColumn.ERRORS_CONNECT.id(), s.parse(split, 1, UnitParser::count));
            s.putLong(RunColumn.ERRORS_READ.id(), s.parse(split, 2, UnitParser::count) + s.parse(split, 4, UnitParser::count));
            s.putLong(RunColumn.ERRORS_PROTOCOL.id(), s.parse(split, 3, UnitParser::count));
        } else if (failures == 0) {
            s.putLong(RunColumn.ERRORS_CONNECT.id(), 0);
            s.putLong(RunColumn.ERRORS_READ.id(), 0);
            s.putLong(RunColumn.ERRORS_PROTOCOL.id(), 0);
        }
        s.putLong(RunColumn.ERRORS_WRITE.id(), s.find("Write errors:\\s*(\\S+)").map(m -> s.parse(m, 1, UnitParser::count)).orElse(0.0));
        s.putLong(RunColumn.ERRORS_STATUS.id(), s.find("Non-2xx responses:\\s*(\\S+)").map(m -> s.parse(m, 1, UnitParser::count)).orElse(0.0));
        s.find("Total transferred:\\s*(\\S+)\\s*bytes").ifPresent(m -> s.putLong(RunColumn.BYTES_READ.id(), s.parse(m, 1, UnitParser::count)));
        Matcher rps = s.require("Requests per second:\\s*(\\S+)", "'Requests per second:' line");
        s.put(RunColumn.RPS.id(), s.parse(rps, 1, UnitParser::count));
        s.find("Time per request:\\s*(\\S+)\\s*\\[ms\\] \\(mean\\)")
                .ifPresent(m -> s.put(RunColumn.LAT_MEAN_US.id(), s.parse(m, 1, t -> UnitParser.micros(t, "ms"))));
        s.find("Total:\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)").ifPresent(m -> {
            s.put(RunColumn.LAT_STDEV_US.id(), s.parse(m, 3, t -> UnitParser.micros(t, "ms")));
            s.putLong(RunColumn.LAT_MAX_US.id(), s.parse(m, 5, t -> UnitParser.micros(t, "ms")));
        });
        s.find("Percentage of the requests served within a certain time \\(ms\\)").ifPresent(m ->
                s.percentiles(m.end(), s.text.length(), "([0-9.]+)%\\s+([0-9.]+)(?:\\s*\\(longest request\\))?", "lat",
                        t -> UnitParser.micros(t, "ms")));
        return s.result();
    }
}
