package io.loadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.agent.AgentException;
import io.loadlab.agent.AgentSet;
import io.loadlab.agent.HostPort;
import io.loadlab.agent.SubjectHost;
import io.loadlab.engine.Engine;
import io.loadlab.engine.EngineException;
import io.loadlab.load.LoadException;
import io.loadlab.load.Warmup;
import io.loadlab.time.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An {@link ExperimentSpec} as {@code experiment.json} stores it, and back. Fields that older
 * experiments lack read as what those experiments did: a fixed warm-up, the built-in engine, one
 * stream, no agents.
 */
final class SpecJson {

    private SpecJson() {
    }

    /** The spec as stored in {@code experiment.json}. */
    static ObjectNode toJson(ExperimentSpec spec, ObjectMapper mapper) {
        ObjectNode o = mapper.createObjectNode();
        o.put("name", spec.name());
        o.put("subjects", spec.selection().subjects());
        o.put("workloads", spec.selection().workloads());
        o.put("variants", spec.selection().variants().orElse(null));
        o.put("rounds", spec.rounds());
        o.put("order", spec.order().name().toLowerCase(Locale.ROOT));
        o.put("seed", spec.seed());
        o.put("duration", Durations.format(spec.load().duration()));
        o.put("warmup", spec.load().warmup().text());
        if (spec.load().warmup() instanceof Warmup.Steady st) {
            o.put("warmup_min", Durations.format(st.min()));
            o.put("warmup_max", Durations.format(st.max()));
        }
        o.put("workload_order", spec.rotateWorkloads() ? "rotate" : "fixed");
        o.put("cooldown", Durations.format(spec.load().cooldown()));
        o.put("connections", spec.load().connections());
        o.put("threads", spec.load().threads());
        if (spec.load().rate().isPresent()) {
            o.put("rate", spec.load().rate().getAsDouble());
        } else {
            o.putNull("rate");
        }
        o.put("pace_slack_us", spec.load().paceSlack().toNanos() / 1e3);
        o.put("server_cpus", spec.placement().serverCpus().orElse(null));
        o.put("load_cpus", spec.placement().loadCpus().orElse(null));
        o.put("ready_timeout", spec.placement().readyTimeoutOverride().map(Durations::format).orElse(null));
        ArrayNode list = o.putArray("engines");
        spec.generators().given().forEach(e -> list.add(e.label()));
        o.put("protocols", spec.selection().protocols().orElse(null));
        o.put("streams", spec.load().streams());
        spec.load().sweep().ifPresent(s -> o.set("latency_sweep", s.toJson(mapper)));
        spec.generators().agents().ifPresent(a -> {
            ObjectNode n = o.putObject("agents");
            ArrayNode addresses = n.putArray("addresses");
            a.addresses().forEach(x -> addresses.add(x.toString()));
            n.put("secret_file", a.secretFile().toString());
            a.weights().ifPresent(w -> w.forEach(n.putArray("weights")::add));
        });
        spec.placement().subjectHost().ifPresent(h -> o.putObject("subject_host").put("address", h.address().toString())
                .put("secret_file", h.secretFile().toString()));
        return o;
    }

    /** Reads a spec written by {@link #toJson}. */
    static ExperimentSpec fromJson(JsonNode o) {
        try {
            return ExperimentSpec.builder().name(o.get("name").asText()).subjects(o.get("subjects").asText())
                    .workloads(o.get("workloads").asText())
                    .variants(text(o, "variants").orElse(null))
                    .rounds(o.get("rounds").asInt())
                    .order(ExperimentSpec.Order.valueOf(o.get("order").asText().toUpperCase(Locale.ROOT)))
                    .seed(o.get("seed").asLong())
                    .duration(Durations.parse(o.get("duration").asText()))
                    .warmup(warmup(o))
                    .rotateWorkloads(o.path("workload_order").asText("fixed").equals("rotate"))
                    .cooldown(Durations.parse(o.get("cooldown").asText()))
                    .connections(o.get("connections").asInt())
                    .threads(o.get("threads").asInt())
                    .rate(o.hasNonNull("rate") ? o.get("rate").asDouble() : null)
                    // Experiments stored before the slack existed paced to the nanosecond.
                    .paceSlack(Duration.ofNanos(Math.round(o.path("pace_slack_us").asDouble(0) * 1e3)))
                    .serverCpus(text(o, "server_cpus").orElse(null))
                    .loadCpus(text(o, "load_cpus").orElse(null))
                    .readyTimeout(text(o, "ready_timeout").map(Durations::parse).orElse(null))
                    .engines(engines(o))
                    .sweep(o.hasNonNull("latency_sweep") ? Sweep.fromJson(o.get("latency_sweep")) : null)
                    .agents(agents(o).orElse(null))
                    .subjectHost(o.hasNonNull("subject_host") ? new SubjectHost(HostPort.parse(
                            o.get("subject_host").get("address").asText()),
                            Path.of(o.get("subject_host").get("secret_file").asText())) : null)
                    .protocols(text(o, "protocols").orElse(null))
                    .streams(o.path("streams").asInt(1))
                    .build();
        } catch (NullPointerException | IllegalArgumentException | LoadException | EngineException | AgentException e) {
            throw new ExperimentException("the spec in experiment.json is damaged or incomplete: " + e.getMessage(), e);
        }
    }

    /** A stored warm-up: {@code auto} with its bounds, or a fixed duration (all experiments before auto). */
    private static Warmup warmup(JsonNode o) {
        String text = o.get("warmup").asText();
        if (!text.equals(Warmup.AUTO)) {
            return new Warmup.Fixed(Durations.parse(text));
        }
        return new Warmup.Steady(Durations.parse(o.get("warmup_min").asText()),
                Durations.parse(o.get("warmup_max").asText()));
    }

    /** Experiments written before engines could be chosen used the built-in one. */
    private static List<Engine> engines(JsonNode o) {
        if (!o.hasNonNull("engines")) {
            return List.of(Engine.BUILTIN);
        }
        List<Engine> out = new ArrayList<>();
        o.get("engines").forEach(e -> out.add(Engine.of(e.asText())));
        return out;
    }

    /** Stored agents: their addresses, the secret file's path (never the secret) and any weights. */
    private static Optional<AgentSet> agents(JsonNode o) {
        if (!o.hasNonNull("agents")) {
            return Optional.empty();
        }
        JsonNode a = o.get("agents");
        List<HostPort> addresses = new ArrayList<>();
        a.get("addresses").forEach(x -> addresses.add(HostPort.parse(x.asText())));
        Optional<List<Double>> weights = Optional.empty();
        if (a.has("weights")) {
            List<Double> w = new ArrayList<>();
            a.get("weights").forEach(x -> w.add(x.asDouble()));
            weights = Optional.of(w);
        }
        return Optional.of(new AgentSet(addresses, Path.of(a.get("secret_file").asText()), weights));
    }

    private static Optional<String> text(JsonNode o, String field) {
        return o.hasNonNull(field) ? Optional.of(o.get(field).asText()) : Optional.empty();
    }
}
