package io.loadlab.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.load.Hlog;
import io.loadlab.load.LoadResult;
import io.loadlab.load.summary.JsonSummary;
import io.loadlab.load.summary.TextSummary;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.HdrHistogram.HistogramLogWriter;

/**
 * How a run on agents is shown: the merged figures as {@code loadlab load} shows a local run, then one
 * line (or JSON object) per agent, and the run's status. Figures the agents cannot give for the whole
 * window (the whole JVM's CPU; status codes and bytes written when a steady-state warm-up stopped the
 * agents' engines) are null in the JSON, never 0.
 */
public final class RemoteSummary {

    // The load --json summary's format (as load.summary.JsonSummary), not experiment.json's: a remote run answers as a
    // local load --json does.
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RemoteSummary() {
    }

    /**
     * The JSON: the merged run's fields, {@code status}, {@code error} and {@code agents}; the top-level
     * {@code load_bound} (and its warning) is {@link RemoteResult#loadBound()}: some agent was load-bound.
     */
    public static String json(RemoteResult r) {
        ObjectNode o = r.merged().map(JsonSummary::toJson).orElseGet(MAPPER::createObjectNode);
        r.merged().ifPresent(m -> {
            if (m.statusCodes().isEmpty()) {
                o.putNull("status_codes");
                o.putNull("bytes_written");
            }
            o.put("load_bound", r.loadBound());
            ArrayNode warnings = (ArrayNode) o.get("warnings");
            if (r.loadBound() && !m.loadBound()) {
                warnings.add("load_bound");
            }
        });
        o.put("status", r.status());
        if (r.error().isPresent()) {
            o.put("error", r.error().get());
        } else {
            o.putNull("error");
        }
        ArrayNode agents = o.putArray("agents");
        for (AgentOutcome a : r.agents()) {
            ObjectNode x = agents.addObject();
            x.put("address", a.address().toString());
            x.put("weight", a.weight());
            x.put("connections", a.connections());
            x.put("threads", a.threads());
            JsonSummary.putOrNull(x, "target_rps", a.targetRps());
            x.put("requests", a.requests());
            x.put("rps", a.rps());
            x.put("errors", a.errors().total());
            x.put("load_cpu_s", a.loadCpuSeconds());
            x.put("load_bound", a.loadBound());
            JsonSummary.putOrNull(x, "steal_s", a.stealSeconds());
            x.put("clock_offset_us", a.clockOffsetUs());
            x.put("clock_rtt_us", a.rttUs());
            x.put("start_lag_ms", a.startLagMs());
            x.put("status", a.status());
            if (a.error().isPresent()) {
                x.put("error", a.error().get());
            } else {
                x.putNull("error");
            }
        }
        try {
            return MAPPER.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    /** The terminal summary: the merged run, a table of agents, and the status when not ok. */
    public static String text(RemoteResult r) {
        StringBuilder sb = new StringBuilder();
        r.merged().ifPresent(m -> sb.append(TextSummary.format(m)).append('\n'));
        sb.append(String.format(Locale.ROOT, "%nAgents%n  %-22s %6s %12s %10s %8s %8s %8s %10s  %s%n", "address", "conns",
                "requests", "req/s", "errors", "cpu s", "steal s", "clock µs", "status"));
        for (AgentOutcome a : r.agents()) {
            String steal = a.stealSeconds().isPresent()
                    ? String.format(Locale.ROOT, "%.2f", a.stealSeconds().getAsDouble()) : "-";
            sb.append(String.format(Locale.ROOT, "  %-22s %6d %,12d %,10.0f %,8d %8.2f %8s %+10d  %s%s%n", a.address(),
                    a.connections(), a.requests(), a.rps(), a.errors().total(), a.loadCpuSeconds(), steal,
                    a.clockOffsetUs(), a.status(), a.loadBound() ? " (load-bound)" : ""));
        }
        if (!r.ok()) {
            sb.append(String.format(Locale.ROOT, "%nStatus: %s: %s%n", r.status(), r.error().orElse("")));
        }
        return sb.toString();
    }

    /** The merged intervals tagged {@code tag}, then each agent's own tagged {@code tag@HOST:PORT}. */
    public static void hlog(RemoteResult r, String tag, OutputStream out) {
        LoadResult m = r.merged().orElseThrow(() -> new AgentException("no interval was measured: no --hlog written"));
        PrintStream ps = new PrintStream(out, false, StandardCharsets.US_ASCII);
        long base = m.start().toEpochMilli();
        HistogramLogWriter w = Hlog.writeHeader(ps, base, "Loadlab latency log, values in microseconds, merged over "
                + r.agents().size() + " agents (tag@HOST:PORT: one agent's own), " + m.spec().request().method() + " "
                + m.spec().request().target().url());
        Hlog.writeRun(w, m.intervals(), tag, base);
        for (AgentOutcome a : r.agents()) {
            if (!a.intervals().isEmpty()) {
                Hlog.writeRun(w, a.intervals(), tag + "@" + a.address(), base);
            }
        }
        ps.flush();
    }
}
