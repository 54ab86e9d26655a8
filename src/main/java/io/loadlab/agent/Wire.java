package io.loadlab.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.load.ErrorCounts;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * {@link Message}s as JSON text: a {@code type} field and the record's fields in snake case.
 * Histograms travel in HdrHistogram's compressed form (Base64), so a merge on the coordinator has
 * every bucket the agent recorded. Thread-safe.
 */
final class Wire {

    /** The most CPUs one agent's steal reading may cover: a sanity bound on what an agent says. */
    static final int MAX_STEAL_CPUS = 4096;

    // Its own mapper, not data.Json's: the wire format is compact (no indentation), and the agents' protocol must not change
    // with the data files' settings.
    private static final ObjectMapper JSON = new ObjectMapper();

    private Wire() {
    }

    static String encode(Message m) {
        ObjectNode o = JSON.createObjectNode();
        if (m instanceof Message.Order order) {
            o.put("session", order.session());
        }
        if (m instanceof Message.Ping p) {
            o.put("type", "ping").put("reply", p.reply()).put("client", p.client()).put("seq", p.seq());
        } else if (m instanceof Message.Prepare p) {
            o.put("type", "prepare").put("reply", p.reply()).put("client", p.client()).put("run_limit_ms", p.runLimitMs());
            o.set("load", p.load());
        } else if (m instanceof Message.Start s) {
            o.put("type", "start").put("start_ms", s.startMs());
        } else if (m instanceof Message.End e) {
            o.put("type", "end").put("after_index", e.afterIndex());
        } else if (m instanceof Message.Pong p) {
            o.put("type", "pong").put("seq", p.seq()).put("agent_us", p.agentUs()).put("cpus", p.cpus())
                    .put("version", p.version());
        } else if (m instanceof Message.Ready) {
            o.put("type", "ready");
        } else if (m instanceof Message.Refused r) {
            o.put("type", "refused").put("error", r.error());
        } else if (m instanceof Message.Interval i) {
            interval(o, i);
        } else if (m instanceof Message.Done d) {
            done(o, d);
        } else {
            SubjectWire.encode(o, m);
        }
        return o.toString();
    }

    private static void interval(ObjectNode o, Message.Interval i) {
        o.put("type", "interval").put("index", i.index()).put("start_ms", i.startMs()).put("end_ms", i.endMs())
                .put("requests", i.requests()).put("missed", i.missed()).put("bytes_read", i.bytesRead())
                .put("load_cpu_ns", i.loadCpuNanos()).put("process_cpu_ns", i.processCpuNanos());
        ErrorCounts e = i.errors();
        o.putArray("errors").add(e.connect()).add(e.read()).add(e.write()).add(e.timeout()).add(e.status())
                .add(e.protocol()).add(e.tls());
        o.put("latency", histogram(i.latency()));
        i.service().ifPresent(s -> o.put("service", histogram(s)));
        i.stealSeconds().ifPresent(s -> o.put("steal_s", s));
    }

    private static void done(ObjectNode o, Message.Done d) {
        o.put("type", "done").put("status", d.status()).put("ended", d.ended()).put("threads", d.threads());
        d.error().ifPresent(e -> o.put("error", e));
        ObjectNode codes = o.putObject("status_codes");
        d.statusCodes().forEach((k, v) -> codes.put(String.valueOf(k), v));
        d.bytesWritten().ifPresent(b -> o.put("bytes_written", b));
        d.connectTime().ifPresent(h -> o.put("connect_time", histogram(h)));
        d.steady().ifPresent(x -> o.put("steady", x));
    }

    /**
     * @throws AgentException when the text is not a message of this version
     */
    static Message decode(String text) {
        try {
            JsonNode o = JSON.readTree(text);
            String session = o.path("session").asText();
            return switch (o.path("type").asText()) {
                case "ping" -> new Message.Ping(session, o.get("reply").asText(), o.get("client").asText(),
                        o.get("seq").asInt());
                case "prepare" -> new Message.Prepare(session, o.get("reply").asText(), o.get("client").asText(),
                        (ObjectNode) o.get("load"), o.get("run_limit_ms").asLong());
                case "start" -> new Message.Start(session, o.get("start_ms").asLong());
                case "end" -> new Message.End(session, o.get("after_index").asInt());
                case "pong" -> new Message.Pong(o.get("seq").asInt(), o.get("agent_us").asLong(), o.get("cpus").asInt(),
                        o.get("version").asText());
                case "ready" -> new Message.Ready();
                case "refused" -> new Message.Refused(o.get("error").asText());
                case "interval" -> decodeInterval(o);
                case "done" -> decodeDone(o);
                default -> SubjectWire.decode(o.path("type").asText(), session, o).orElseThrow(() ->
                        new AgentException("unknown message type '" + o.path("type").asText() + "': are the agent"
                                + " and the coordinator the same Loadlab version?"));
            };
        } catch (JsonProcessingException | NullPointerException | ClassCastException e) {
            throw new AgentException("unreadable message (" + e.getMessage() + "): are the agent and the coordinator"
                    + " the same Loadlab version?", e);
        }
    }

    private static Message.Interval decodeInterval(JsonNode o) {
        JsonNode e = o.get("errors");
        ErrorCounts errors = new ErrorCounts(e.get(0).asLong(), e.get(1).asLong(), e.get(2).asLong(),
                e.get(3).asLong(), e.get(4).asLong(), e.get(5).asLong(), e.path(6).asLong(0));
        return new Message.Interval(o.get("index").asInt(), o.get("start_ms").asLong(), o.get("end_ms").asLong(),
                o.get("requests").asLong(), o.get("missed").asLong(), errors, o.get("bytes_read").asLong(),
                o.get("load_cpu_ns").asLong(), o.get("process_cpu_ns").asLong(), histogram(o.get("latency").asText()),
                o.has("service") ? Optional.of(histogram(o.get("service").asText())) : Optional.empty(),
                o.has("steal_s") ? OptionalDouble.of(steal(o)) : OptionalDouble.empty());
    }

    /**
     * An interval's steal, s: a number from 0 up to what {@link #MAX_STEAL_CPUS} CPUs have in the
     * interval (its own length, 0.1 s to spare for the readings' 10 ms clock ticks).
     */
    private static double steal(JsonNode o) {
        JsonNode n = o.get("steal_s");
        double s = n.asDouble(-1);
        double most = MAX_STEAL_CPUS * (Math.max(0, o.get("end_ms").asLong() - o.get("start_ms").asLong()) / 1000.0 + 0.1);
        if (!n.isNumber() || !(s >= 0) || s > most) {
            throw new AgentException(String.format(Locale.ROOT, "an interval's steal_s must be a number of seconds"
                    + " from 0 to %.0f (%d CPUs over the interval), got %s: are the agent and the coordinator the"
                    + " same Loadlab version?", most, MAX_STEAL_CPUS, n));
        }
        return s;
    }

    private static Message.Done decodeDone(JsonNode o) {
        TreeMap<Integer, Long> codes = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.get("status_codes").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> c = it.next();
            codes.put(Integer.parseInt(c.getKey()), c.getValue().asLong());
        }
        return new Message.Done(o.get("status").asText(), Optional.ofNullable(o.get("error")).map(JsonNode::asText),
                o.get("ended").asText(), codes,
                o.has("bytes_written") ? OptionalLong.of(o.get("bytes_written").asLong()) : OptionalLong.empty(),
                o.has("connect_time") ? Optional.of(histogram(o.get("connect_time").asText())) : Optional.empty(),
                o.has("steady") ? Optional.of(o.get("steady").asBoolean()) : Optional.empty(), o.get("threads").asInt());
    }

    /** HdrHistogram's compressed form, Base64. */
    static String histogram(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n));
    }

    static Histogram histogram(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new AgentException("a histogram in a message cannot be decoded: " + e.getMessage(), e);
        }
    }
}
