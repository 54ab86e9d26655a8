package io.loadlab.load.summary;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.load.ErrorCounts;
import io.loadlab.load.LoadModel;
import io.loadlab.load.LoadResult;
import io.loadlab.load.Pacing;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;

/**
 * A run as one JSON object; the fields are documented in the README ("JSON output"). Times are
 * µs unless the name says otherwise ({@code _s} = seconds).
 */
public final class JsonSummary {

    // Its own mapper: load must not depend on data (whose Json mapper serves experiment.json).
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonSummary() {
    }

    /** The JSON tree of a result. */
    public static ObjectNode toJson(LoadResult r) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("url", r.spec().request().target().url());
        o.put("method", r.spec().request().method());
        o.put("model", r.spec().isFixedRate() ? "fixed_rate" : "closed_loop");
        o.put("connections", r.spec().connections());
        o.put("threads", r.spec().threads());
        o.put("pipeline", r.spec().pipeline());
        o.put("transport", r.transport());
        o.put("protocol", r.protocol().label());
        o.put("tls", r.spec().request().target().tls());
        o.put("start", r.start().toString());
        o.put("requests", r.requests());
        o.put("duration_s", r.durationSeconds());
        o.put("rps", r.rps());
        o.put("bytes_read", r.bytesRead());
        o.put("bytes_written", r.bytesWritten());
        putErrors(o, r);
        putTimes(o, r);
        putCpu(o, r);
        putWarmupAndRate(o, r);
        return o;
    }

    /** {@code errors} and {@code status_codes}. */
    private static void putErrors(ObjectNode o, LoadResult r) {
        ErrorCounts e = r.errors();
        ObjectNode errors = o.putObject("errors");
        errors.put("connect", e.connect());
        errors.put("read", e.read());
        errors.put("write", e.write());
        errors.put("timeout", e.timeout());
        errors.put("status", e.status());
        errors.put("protocol", e.protocol());
        errors.put("tls", e.tls());
        if (r.spec().expectation().bodyContains().isPresent()) {
            errors.put("body", e.body());
        }
        ObjectNode codes = o.putObject("status_codes");
        for (Map.Entry<Integer, Long> c : r.statusCodes().entrySet()) {
            codes.put(String.valueOf(c.getKey()), c.getValue());
        }
    }

    /** {@code latency_us}, {@code service_time_us} and {@code connect_time_us} (µs). */
    private static void putTimes(ObjectNode o, LoadResult r) {
        o.set("latency_us", distribution(r.latency()));
        Optional<Histogram> svc = r.serviceTime();
        if (svc.isPresent()) {
            o.set("service_time_us", distribution(svc.get()));
        } else {
            o.putNull("service_time_us");
        }
        Histogram ct = r.connectTime();
        ObjectNode connect = o.putObject("connect_time_us");
        connect.put("count", ct.getTotalCount());
        if (ct.getTotalCount() == 0) {
            connect.putNull("mean");
            connect.putNull("max");
        } else {
            connect.put("mean", ct.getMean());
            connect.put("max", ct.getMaxValue());
        }
        ProtocolJson.put(o, r);
    }

    /** CPU seconds of the window, the JVM's GC and the loops' allocation (bytes); the load CPUs. */
    private static void putCpu(ObjectNode o, LoadResult r) {
        o.put("load_cpu_s", r.loadCpuSeconds());
        o.put("rps_per_load_cpu_s", r.rpsPerLoadCpuSecond());
        o.put("process_cpu_s", r.processCpuSeconds());
        o.put("non_loop_cpu_s", r.nonLoopCpuSeconds());
        o.put("gc_s", r.jvm().gcSeconds());
        o.put("gc_count", r.jvm().gcCount());
        if (r.jvm().loopAllocatedBytes() >= 0) {
            o.put("loop_alloc_bytes", r.jvm().loopAllocatedBytes());
        } else {
            o.putNull("loop_alloc_bytes");
        }
        putOrNull(o, "loop_alloc_bytes_per_request", r.loopAllocatedBytesPerRequest());
        o.put("load_cpus", r.loadCpus());
        o.put("load_bound", r.loadBound());
        putOrNull(o, "steal_s", r.stealSeconds());
    }

    /** {@code name}: the value, or JSON's null where it was not measured (the summary's rule: never 0). */
    public static void putOrNull(ObjectNode o, String name, OptionalDouble value) {
        if (value.isPresent()) {
            o.put(name, value.getAsDouble());
        } else {
            o.putNull(name);
        }
    }

    /** {@code stopped_early}, the warm-up, the fixed rate and {@code warnings}. */
    private static void putWarmupAndRate(ObjectNode o, LoadResult r) {
        o.put("stopped_early", r.stoppedEarly());
        o.put("warmup_s", r.warmupSeconds());
        ArrayNode warmupRps = o.putArray("warmup_rps");
        r.warmup().intervalRps().forEach(x -> warmupRps.add(Math.round(x)));
        if (r.warmup().cutShort().isPresent()) {
            o.put("warmup_cut_short", r.warmup().cutShort().get());
        } else {
            o.putNull("warmup_cut_short");
        }
        if (r.steady().isPresent()) {
            o.put("steady", r.steady().get());
        } else {
            o.putNull("steady");
        }
        if (r.targetRps().isPresent()) {
            o.put("target_rps", r.targetRps().getAsDouble());
            o.put("missed", r.missed());
        } else {
            o.putNull("target_rps");
            o.putNull("missed");
        }
        putPacing(o, r);
        ArrayNode warnings = o.putArray("warnings");
        if (r.steady().isPresent() && !r.steady().get() && r.warmupSeconds() > 0) {
            warnings.add("not_steady");
        }
        if (r.rateNotReached()) {
            warnings.add("rate_not_reached");
        }
        if (r.loadBound()) {
            warnings.add("load_bound");
        }
    }

    /**
     * {@code pace_slack_us}, the bound on how long the pacer held a request past its due time, and
     * {@code pacing}: the loops' wake-up times per second and the send lateness (µs) actually seen, of every
     * request and of those the pacer sent when due (the engine's own), with the count sent when free and
     * the count the warm-up left unsent, which the window skipped.
     */
    private static void putPacing(ObjectNode o, LoadResult r) {
        if (!(r.spec().model() instanceof LoadModel.FixedRate f)) {
            o.putNull("pace_slack_us");
            o.putNull("pacing");
            return;
        }
        o.put("pace_slack_us", f.paceSlack().toNanos() / 1e3);
        if (r.pacing().isEmpty()) {
            o.putNull("pacing");
            return;
        }
        Pacing p = r.pacing().get();
        ObjectNode pacing = o.putObject("pacing");
        pacing.put("wake_times_per_s", r.durationSeconds() > 0 ? p.wakeTimes() / r.durationSeconds() : 0);
        pacing.put("loop_passes_per_s", r.durationSeconds() > 0 ? p.passes() / r.durationSeconds() : 0);
        pacing.put("sent_early", p.sentEarly());
        putLateness(pacing.putObject("send_lateness_us"), p.lateness());
        putLateness(pacing.putObject("paced_lateness_us"), p.pacedLateness());
        pacing.put("sent_when_free", p.sentWhenFree());
        pacing.put("warmup_unsent", p.warmupUnsent());
    }

    /** A lateness histogram (ns) as its count and percentiles in µs. */
    private static void putLateness(ObjectNode lateness, Histogram late) {
        lateness.put("count", late.getTotalCount());
        for (String[] q : new String[][] {{"p50", "50"}, {"p99", "99"}, {"p999", "99.9"}}) {
            lateness.put(q[0], late.getValueAtPercentile(Double.parseDouble(q[1])) / 1e3);
        }
        lateness.put("max", late.getMaxValue() / 1e3);
    }

    /** The JSON text of a result, indented. */
    public static String format(LoadResult r) {
        try {
            return MAPPER.writeValueAsString(toJson(r));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    static ObjectNode distribution(Histogram h) {
        ObjectNode d = MAPPER.createObjectNode();
        d.put("count", h.getTotalCount());
        if (h.getTotalCount() == 0) {
            // Nothing measured: null, never 0.
            for (String f : new String[] {"mean", "stdev", "p50", "p75", "p90", "p99", "p999", "p9999", "max"}) {
                d.putNull(f);
            }
            return d;
        }
        d.put("mean", h.getMean());
        d.put("stdev", h.getStdDeviation());
        d.put("p50", h.getValueAtPercentile(50));
        d.put("p75", h.getValueAtPercentile(75));
        d.put("p90", h.getValueAtPercentile(90));
        d.put("p99", h.getValueAtPercentile(99));
        d.put("p999", h.getValueAtPercentile(99.9));
        d.put("p9999", h.getValueAtPercentile(99.99));
        d.put("max", h.getMaxValue());
        return d;
    }
}
