package io.loadlab.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.load.Expectation;
import io.loadlab.load.LoadModel;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.RequestTemplate;
import io.loadlab.load.Target;
import io.loadlab.load.Transport;
import io.loadlab.load.Warmup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A {@link LoadSpec} as the JSON an agent receives: every field the engine reads, times in ms. Only
 * fixed warm-ups travel; the coordinator decides a steady-state warm-up itself.
 */
final class SpecCodec {

    private SpecCodec() {
    }

    static ObjectNode toJson(LoadSpec s) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        RequestTemplate r = s.request();
        o.put("method", r.method());
        o.put("url", r.target().url());
        r.headers().forEach(o.putArray("headers")::add);
        o.put("body_size", r.bodySize());
        // A given body travels (base64): without it the agent would send letters of the same length.
        r.literal().ifPresent(bytes -> o.put("body", bytes));
        if (s.model() instanceof LoadModel.FixedRate f) {
            o.put("rate", f.requestsPerSecond());
            o.put("pace_slack_ns", f.paceSlack().toNanos());
        } else {
            o.put("pipeline", s.pipeline());
        }
        o.put("connections", s.connections());
        o.put("threads", s.threads());
        s.duration().ifPresent(d -> o.put("duration_ms", d.toMillis()));
        s.requestCount().ifPresent(n -> o.put("requests", n));
        o.put("warmup_ms", s.warmup().max().toMillis());
        o.put("request_timeout_ms", s.requestTimeout().toMillis());
        o.put("connect_timeout_ms", s.connectTimeout().toMillis());
        o.put("transport", s.transport().name());
        s.expectation().statuses().stream().sorted().forEach(o.putArray("statuses")::add);
        s.expectation().bodyBytes().ifPresent(b -> o.put("body_bytes", b));
        o.put("seed", s.seed());
        return o;
    }

    /** The given body of a message, decoded from base64; the template then checks its size. */
    private static byte[] body(JsonNode o) {
        try {
            return o.get("body").binaryValue();
        } catch (java.io.IOException e) {
            throw io.loadlab.load.LoadException.usage("the request body of an order is not base64: " + e.getMessage());
        }
    }

    /** The fixed rate of a message; one from a version before the wake-up slack gets the default slack. */
    private static LoadModel.FixedRate fixedRate(JsonNode o) {
        double rate = o.get("rate").asDouble();
        return o.has("pace_slack_ns") ? new LoadModel.FixedRate(rate, Duration.ofNanos(o.get("pace_slack_ns").asLong()))
                : new LoadModel.FixedRate(rate);
    }

    /** The transport named {@code name}; another name is refused naming the known ones. */
    private static Transport transport(String name) {
        for (Transport t : Transport.values()) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        throw io.loadlab.load.LoadException.usage("transport '" + OrderCheck.printable(name) + "' is none of "
                + java.util.Arrays.toString(Transport.values()) + ": are the agent and the coordinator the same"
                + " Loadlab version?");
    }

    /**
     * @throws io.loadlab.load.LoadException (usage) when the spec is invalid
     * @throws NullPointerException when a field is missing (a message from another version)
     */
    static LoadSpec fromJson(JsonNode o) {
        List<String> headers = new ArrayList<>();
        o.path("headers").forEach(h -> headers.add(h.asText()));
        Set<Integer> statuses = new HashSet<>();
        o.get("statuses").forEach(x -> statuses.add(x.asInt()));
        Target target = Target.parse(o.get("url").asText());
        LoadSpec.Builder b = LoadSpec.builder()
                .request(o.has("body") ? RequestTemplate.withBody(o.get("method").asText(), target, headers, body(o))
                        : new RequestTemplate(o.get("method").asText(), target, headers, o.get("body_size").asInt()))
                .model(o.has("rate") ? fixedRate(o) : new LoadModel.ClosedLoop(o.get("pipeline").asInt()))
                .connections(o.get("connections").asInt())
                .threads(o.get("threads").asInt())
                .warmup(new Warmup.Fixed(Duration.ofMillis(o.get("warmup_ms").asLong())))
                .requestTimeout(Duration.ofMillis(o.get("request_timeout_ms").asLong()))
                .connectTimeout(Duration.ofMillis(o.get("connect_timeout_ms").asLong()))
                .transport(transport(o.get("transport").asText()))
                .expect(new Expectation(statuses, o.has("body_bytes") ? OptionalLong.of(o.get("body_bytes").asLong())
                        : OptionalLong.empty()))
                .seed(o.get("seed").asLong());
        if (o.has("duration_ms")) {
            b.duration(Duration.ofMillis(o.get("duration_ms").asLong()));
        }
        if (o.has("requests")) {
            b.requests(o.get("requests").asLong());
        }
        return b.build();
    }
}
