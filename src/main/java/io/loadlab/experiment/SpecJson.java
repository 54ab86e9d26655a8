package io.loadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.agent.AgentException;
import io.loadlab.agent.AgentSet;
import io.loadlab.agent.HostPort;
import io.loadlab.agent.SubjectHost;
import io.loadlab.data.Json;
import io.loadlab.data.SpecSection;
import io.loadlab.engine.Engine;
import io.loadlab.engine.EngineException;
import io.loadlab.load.LoadException;
import io.loadlab.load.Warmup;
import io.loadlab.project.ProjectRef;
import io.loadlab.time.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An {@link ExperimentSpec} as {@code experiment.json} stores it ({@link SpecSection}, which names
 * the fields), and back. Fields that older
 * experiments lack read as what those experiments did: a fixed warm-up, the built-in engine, one
 * stream, no agents.
 */
final class SpecJson {

    private SpecJson() {
    }

    /** The spec as stored in {@code experiment.json}. */
    static SpecSection toJson(ExperimentSpec spec) {
        ObjectNode o = Json.mapper().createObjectNode();
        o.put(SpecSection.NAME, spec.name());
        o.put(SpecSection.SUBJECTS, spec.selection().subjects());
        o.put(SpecSection.WORKLOADS, spec.selection().workloads());
        o.put(SpecSection.VARIANTS, spec.selection().variants().orElse(null));
        o.put(SpecSection.ROUNDS, spec.rounds());
        spec.autoRounds().ifPresent(a -> o.putObject(SpecSection.ROUNDS_AUTO).put(SpecSection.MAX_ROUNDS, a.maxRounds())
                .put(SpecSection.BUDGET, a.budget().map(Durations::format).orElse(null)));
        o.put(SpecSection.ORDER, spec.order().name().toLowerCase(Locale.ROOT));
        o.put(SpecSection.SEED, spec.seed());
        o.put(SpecSection.DURATION, Durations.format(spec.load().duration()));
        o.put(SpecSection.WARMUP, spec.load().warmup().text());
        if (spec.load().warmup() instanceof Warmup.Steady st) {
            o.put(SpecSection.WARMUP_MIN, Durations.format(st.min()));
            o.put(SpecSection.WARMUP_MAX, Durations.format(st.max()));
        }
        o.put(SpecSection.WORKLOAD_ORDER, spec.rotateWorkloads() ? SpecSection.ROTATE : SpecSection.FIXED);
        o.put(SpecSection.COOLDOWN, Durations.format(spec.load().cooldown()));
        o.put(SpecSection.CONNECTIONS, spec.load().connections());
        o.put(SpecSection.THREADS, spec.load().threads());
        if (spec.load().rate().isPresent()) {
            o.put(SpecSection.RATE, spec.load().rate().getAsDouble());
        } else {
            o.putNull(SpecSection.RATE);
        }
        o.put(SpecSection.PACE_SLACK_US, spec.load().paceSlack().toNanos() / 1e3);
        o.put(SpecSection.SERVER_CPUS, spec.placement().serverCpus().orElse(null));
        o.put(SpecSection.LOAD_CPUS, spec.placement().loadCpus().orElse(null));
        o.put(SpecSection.READY_TIMEOUT, spec.placement().readyTimeoutOverride().map(Durations::format).orElse(null));
        ArrayNode list = o.putArray(SpecSection.ENGINES);
        spec.generators().given().forEach(e -> list.add(e.label()));
        o.put(SpecSection.PROTOCOLS, spec.selection().protocols().orElse(null));
        o.put(SpecSection.STREAMS, spec.load().streams());
        spec.load().sweep().ifPresent(s -> o.set(SpecSection.LATENCY_SWEEP, s.toJson()));
        spec.generators().agents().ifPresent(a -> {
            ObjectNode n = o.putObject(SpecSection.AGENTS);
            ArrayNode addresses = n.putArray(SpecSection.ADDRESSES);
            a.addresses().forEach(x -> addresses.add(x.toString()));
            n.put(SpecSection.SECRET_FILE, a.secretFile().toString());
            a.weights().ifPresent(w -> w.forEach(n.putArray(SpecSection.WEIGHTS)::add));
        });
        spec.selection().project().ifPresent(p -> {
            ObjectNode n = o.putObject(SpecSection.PROJECT);
            n.put(SpecSection.FILE, p.file().toString());
            n.put(SpecSection.TEXT, p.text());
            ObjectNode commits = n.putObject(SpecSection.COMMITS);
            p.commits().forEach(commits::put);
        });
        spec.placement().subjectHost().ifPresent(h -> o.putObject(SpecSection.SUBJECT_HOST).put(SpecSection.ADDRESS, h.address().toString())
                .put(SpecSection.SECRET_FILE, h.secretFile().toString()));
        return new SpecSection(o);
    }

    /** Reads a spec written by {@link #toJson}. */
    static ExperimentSpec fromJson(SpecSection section) {
        JsonNode o = section.fields();
        try {
            return ExperimentSpec.builder().name(o.get(SpecSection.NAME).asText()).subjects(o.get(SpecSection.SUBJECTS).asText())
                    .workloads(o.get(SpecSection.WORKLOADS).asText())
                    .variants(text(o, SpecSection.VARIANTS).orElse(null))
                    .rounds(o.get(SpecSection.ROUNDS).asInt())
                    .order(ExperimentSpec.Order.valueOf(o.get(SpecSection.ORDER).asText().toUpperCase(Locale.ROOT)))
                    .seed(o.get(SpecSection.SEED).asLong())
                    .duration(Durations.parse(o.get(SpecSection.DURATION).asText()))
                    .warmup(warmup(o))
                    .rotateWorkloads(o.path(SpecSection.WORKLOAD_ORDER).asText(SpecSection.FIXED).equals(SpecSection.ROTATE))
                    .cooldown(Durations.parse(o.get(SpecSection.COOLDOWN).asText()))
                    .connections(o.get(SpecSection.CONNECTIONS).asInt())
                    .threads(o.get(SpecSection.THREADS).asInt())
                    .rate(o.hasNonNull(SpecSection.RATE) ? o.get(SpecSection.RATE).asDouble() : null)
                    // Experiments stored before the slack existed paced to the nanosecond.
                    .paceSlack(Duration.ofNanos(Math.round(o.path(SpecSection.PACE_SLACK_US).asDouble(0) * 1e3)))
                    .serverCpus(text(o, SpecSection.SERVER_CPUS).orElse(null))
                    .loadCpus(text(o, SpecSection.LOAD_CPUS).orElse(null))
                    .readyTimeout(text(o, SpecSection.READY_TIMEOUT).map(Durations::parse).orElse(null))
                    .engines(engines(o))
                    .sweep(o.hasNonNull(SpecSection.LATENCY_SWEEP) ? Sweep.fromJson(o.get(SpecSection.LATENCY_SWEEP)) : null)
                    .agents(agents(o).orElse(null))
                    .subjectHost(o.hasNonNull(SpecSection.SUBJECT_HOST) ? new SubjectHost(HostPort.parse(
                            o.get(SpecSection.SUBJECT_HOST).get(SpecSection.ADDRESS).asText()),
                            Path.of(o.get(SpecSection.SUBJECT_HOST).get(SpecSection.SECRET_FILE).asText())) : null)
                    .protocols(text(o, SpecSection.PROTOCOLS).orElse(null))
                    .project(project(o).orElse(null))
                    .streams(o.path(SpecSection.STREAMS).asInt(1))
                    .autoRounds(autoRounds(o).orElse(null))
                    .build();
        } catch (NullPointerException | IllegalArgumentException | LoadException | EngineException | AgentException e) {
            throw new ExperimentException("the spec in experiment.json is damaged or incomplete: " + e.getMessage(), e);
        }
    }

    /** A stored warm-up: {@code auto} with its bounds, or a fixed duration (all experiments before auto). */
    private static Optional<AutoRounds> autoRounds(JsonNode o) {
        JsonNode a = o.path(SpecSection.ROUNDS_AUTO);
        if (!a.isObject()) {
            return Optional.empty();
        }
        return Optional.of(new AutoRounds(a.get(SpecSection.MAX_ROUNDS).asInt(),
                text(a, SpecSection.BUDGET).map(Durations::parse)));
    }

    private static Warmup warmup(JsonNode o) {
        String text = o.get(SpecSection.WARMUP).asText();
        if (!text.equals(Warmup.AUTO)) {
            return new Warmup.Fixed(Durations.parse(text));
        }
        return new Warmup.Steady(Durations.parse(o.get(SpecSection.WARMUP_MIN).asText()),
                Durations.parse(o.get(SpecSection.WARMUP_MAX).asText()));
    }

    /** Experiments written before engines could be chosen used the built-in one. */
    private static List<Engine> engines(JsonNode o) {
        if (!o.hasNonNull(SpecSection.ENGINES)) {
            return List.of(Engine.BUILTIN);
        }
        List<Engine> out = new ArrayList<>();
        o.get(SpecSection.ENGINES).forEach(e -> out.add(Engine.of(e.asText())));
        return out;
    }

    /** Stored agents: their addresses, the secret file's path (never the secret) and any weights. */
    private static Optional<AgentSet> agents(JsonNode o) {
        if (!o.hasNonNull(SpecSection.AGENTS)) {
            return Optional.empty();
        }
        JsonNode a = o.get(SpecSection.AGENTS);
        List<HostPort> addresses = new ArrayList<>();
        a.get(SpecSection.ADDRESSES).forEach(x -> addresses.add(HostPort.parse(x.asText())));
        Optional<List<Double>> weights = Optional.empty();
        if (a.has(SpecSection.WEIGHTS)) {
            List<Double> w = new ArrayList<>();
            a.get(SpecSection.WEIGHTS).forEach(x -> w.add(x.asDouble()));
            weights = Optional.of(w);
        }
        return Optional.of(new AgentSet(addresses, Path.of(a.get(SpecSection.SECRET_FILE).asText()), weights));
    }

    /** The recorded project; none in experiments of the bundled subjects (all before projects existed). */
    private static Optional<ProjectRef> project(JsonNode o) {
        if (!o.hasNonNull(SpecSection.PROJECT)) {
            return Optional.empty();
        }
        JsonNode p = o.get(SpecSection.PROJECT);
        java.util.Map<String, String> commits = new java.util.LinkedHashMap<>();
        p.path(SpecSection.COMMITS).fields().forEachRemaining(e -> commits.put(e.getKey(), e.getValue().asText()));
        return Optional.of(new ProjectRef(Path.of(p.get(SpecSection.FILE).asText()), p.get(SpecSection.TEXT).asText(),
                commits));
    }

    private static Optional<String> text(JsonNode o, String field) {
        return o.hasNonNull(field) ? Optional.of(o.get(field).asText()) : Optional.empty();
    }
}
