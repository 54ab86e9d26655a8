package io.loadlab.importer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import io.loadlab.data.RunColumn;

/**
 * oha's JSON output ({@code --output-format json}, formerly {@code --json}): times in seconds,
 * data in bytes, null where nothing was answered (left empty). rps is the responses of the status
 * code distribution per second of the run, as wrk counts; oha's own {@code requestsPerSec} also
 * counts the requests aborted at the deadline and the errors. TLS errors (rustls's: a certificate
 * it does not trust, an alert, a record that is not TLS) are {@code errors_tls}, present only when
 * there were some: the output does not say whether the run was TLS.
 */
final class OhaJsonParser {

    private static final ObjectMapper JSON = io.loadlab.data.Json.mapper();

    private OhaJsonParser() {
    }

    static ImportedRun parse(String text) {
        Scan s = new Scan(Tool.OHA, text);
        JsonNode root;
        try {
            root = JSON.readTree(s.text);
        } catch (JsonProcessingException e) {
            int at = e.getLocation() == null ? 0 : (int) Math.max(0, Math.min(s.text.length() - 1,
                    e.getLocation().getCharOffset()));
            throw s.unreadable(at, "invalid JSON: " + e.getOriginalMessage());
        }
        JsonNode sum = root.path("summary");
        if (!sum.isObject() || !sum.path("total").isNumber() || !sum.path("requestsPerSec").isNumber()) {
            throw new ImportException("cannot read the oha output: its JSON has no summary with 'total' and"
                    + " 'requestsPerSec' (is it the output of oha --json?)");
        }
        double seconds = sum.path("total").asDouble();
        s.put(RunColumn.DURATION_S.id(), seconds);
        if (sum.path("totalData").isNumber()) {
            s.putLong(RunColumn.BYTES_READ.id(), sum.path("totalData").asDouble());
        }
        if (sum.path("average").isNumber()) {
            s.put(RunColumn.LAT_MEAN_US.id(), sum.path("average").asDouble() * 1e6);
        }
        if (sum.path("slowest").isNumber()) {
            s.putLong(RunColumn.LAT_MAX_US.id(), sum.path("slowest").asDouble() * 1e6);
        }
        JsonNode p = root.path("latencyPercentiles");
        List<Map.Entry<String, RunColumn>> map = List.of(Map.entry("p50", RunColumn.LAT_P50_US),
                Map.entry("p75", RunColumn.LAT_P75_US), Map.entry("p90", RunColumn.LAT_P90_US),
                Map.entry("p99", RunColumn.LAT_P99_US), Map.entry("p99.9", RunColumn.LAT_P999_US));
        for (Map.Entry<String, RunColumn> m : map) {
            if (p.path(m.getKey()).isNumber()) {
                s.putLong(m.getValue().id(), p.path(m.getKey()).asDouble() * 1e6);
            }
        }
        counts(root, seconds, sum, s);
        return s.result();
    }

    /** Whether an oha (rustls) error message is a TLS failure. */
    static boolean tls(String why) {
        return why.contains("certificate") || why.contains("alert") || why.contains("tls") || why.contains("ssl")
                || why.contains("handshake") || why.contains("corrupt message");
    }

    /** Answers and status errors from the status codes, and the other errors by kind. */
    private static void counts(JsonNode root, double seconds, JsonNode sum, Scan s) {
        long requests = 0;
        long status = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("statusCodeDistribution").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            long n = e.getValue().asLong();
            requests += n;
            int code = Integer.parseInt(e.getKey());
            if (code < 200 || code >= 400) {
                status += n;
            }
        }
        s.putLong(RunColumn.REQUESTS.id(), requests);
        s.put(RunColumn.RPS.id(), seconds > 0 ? requests / seconds : sum.path("requestsPerSec").asDouble());
        s.putLong(RunColumn.ERRORS_STATUS.id(), status);
        long[] errors = new long[4];
        long tls = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("errorDistribution").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String why = e.getKey().toLowerCase(java.util.Locale.ROOT);
            if (why.contains("aborted due to deadline")) {
                continue; // oha's requests cut by its own end, not failures of the server
            }
            if (tls(why)) {
                tls += e.getValue().asLong();
            } else {
                errors[Scan.errorKind(why)] += e.getValue().asLong();
            }
        }
        if (tls > 0) {
            s.putLong(RunColumn.ERRORS_TLS.id(), tls);
        }
        s.putLong(RunColumn.ERRORS_CONNECT.id(), errors[0]);
        s.putLong(RunColumn.ERRORS_TIMEOUT.id(), errors[1]);
        s.putLong(RunColumn.ERRORS_WRITE.id(), errors[2]);
        s.putLong(RunColumn.ERRORS_READ.id(), errors[3]);
    }
}
