package io.loadlab.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.host.ProcessTreeStats;
import io.loadlab.subject.ServerSampler;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * The remote-subject {@link Message}s in {@link Wire}'s JSON: CPU in s, RSS in bytes; a TLS variant's
 * launch carries the server certificate and key as PEM text ({@code cert_pem}, {@code key_pem}).
 * Thread-safe.
 */
final class SubjectWire {

    private SubjectWire() {
    }

    /** Writes {@code m} into {@code o}; false when it is not a subject message. */
    static boolean encode(ObjectNode o, Message m) {
        if (m instanceof Message.Launch l) {
            o.put("type", "launch").put("reply", l.reply()).put("client", l.client()).put("subject", l.subject())
                    .put("ready_timeout_ms", l.readyTimeoutMs());
            ObjectNode v = o.putObject("variant");
            new TreeMap<>(l.variant()).forEach(v::put);
            l.certificate().ifPresent(c -> o.put("cert_pem", c.cert()).put("key_pem", c.key()));
        } else if (m instanceof Message.Sample s) {
            o.put("type", "sample").put("what", s.what());
        } else if (m instanceof Message.Halt) {
            o.put("type", "halt");
        } else if (m instanceof Message.Launched l) {
            o.put("type", "launched").put("host", l.host()).put("port", l.port()).put("pid", l.pid());
        } else if (m instanceof Message.Unready u) {
            o.put("type", "unready").put("error", u.error());
        } else if (m instanceof Message.Sampled s) {
            sampled(o, s);
        } else if (m instanceof Message.Halted h) {
            o.put("type", "halted").put("pid", h.pid());
        } else {
            return false;
        }
        return true;
    }

    private static void sampled(ObjectNode o, Message.Sampled s) {
        o.put("type", "sampled").put("alive", s.alive()).put("log_tail", s.logTail());
        s.exitCode().ifPresent(c -> o.put("exit_code", c));
        ServerSampler.Window w = s.window();
        w.server().ifPresent(r -> o.put("server_cpu_user_s", r.userSeconds()).put("server_cpu_sys_s", r.systemSeconds())
                .put("server_rss_bytes", r.rssBytes()).put("server_peak_rss_bytes", r.peakRssBytes()));
        w.noiseCpuSeconds().ifPresent(x -> o.put("noise_cpu_s", x));
        w.stealSeconds().ifPresent(x -> o.put("steal_s", x));
    }

    /** The subject message of type {@code type}, or empty when {@code type} is none of theirs. */
    static Optional<Message> decode(String type, String session, JsonNode o) {
        return Optional.ofNullable(switch (type) {
            case "launch" -> new Message.Launch(session, o.get("reply").asText(), o.get("client").asText(),
                    o.get("subject").asText(), variant(o.get("variant")), o.get("ready_timeout_ms").asLong(),
                    o.has("cert_pem") ? Optional.of(new Message.Pem(o.get("cert_pem").asText(), o.get("key_pem").asText()))
                            : Optional.empty());
            case "sample" -> new Message.Sample(session, o.get("what").asText());
            case "halt" -> new Message.Halt(session);
            case "launched" -> new Message.Launched(o.get("host").asText(), o.get("port").asInt(), o.get("pid").asLong());
            case "unready" -> new Message.Unready(o.get("error").asText());
            case "sampled" -> decodeSampled(o);
            case "halted" -> new Message.Halted(o.get("pid").asLong());
            default -> null;
        });
    }

    private static Message.Sampled decodeSampled(JsonNode o) {
        Optional<ProcessTreeStats.Reading> server = o.has("server_cpu_user_s")
                ? Optional.of(new ProcessTreeStats.Reading(o.get("server_cpu_user_s").asDouble(),
                o.get("server_cpu_sys_s").asDouble(), o.get("server_rss_bytes").asLong(),
                o.get("server_peak_rss_bytes").asLong()))
                : Optional.empty();
        ServerSampler.Window w = new ServerSampler.Window(server, number(o, "noise_cpu_s"), number(o, "steal_s"));
        return new Message.Sampled(o.get("alive").asBoolean(),
                o.has("exit_code") ? Optional.of(o.get("exit_code").asInt()) : Optional.empty(), w,
                o.get("log_tail").asText());
    }

    private static OptionalDouble number(JsonNode o, String field) {
        return o.has(field) ? OptionalDouble.of(o.get(field).asDouble()) : OptionalDouble.empty();
    }

    private static Map<String, String> variant(JsonNode v) {
        Map<String, String> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }
}
