package io.loadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.engine.Engine;
import io.loadlab.engine.EngineException;
import io.loadlab.time.Durations;
import io.loadlab.load.LoadException;
import io.loadlab.load.Warmup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Everything an experiment needs: which subjects, variants and workloads, how many rounds in
 * which order, and the load of each run. Built with {@link #builder()}; stored in
 * {@code experiment.json} so that {@code --resume} runs exactly the same experiment.
 *
 * @param name        experiment name (the data folder's name)
 * @param subjects    regular expression over subject names (whole-name match)
 * @param workloads   regular expression over workload names
 * @param variants    regular expression over variant labels such as {@code durability=fsync}; a
 *                    pattern that names only some of a subject's variants ({@code protocol=.*}) is
 *                    matched against those, the others at their first value (see {@link Plan});
 *                    empty for each subject's default variant only
 * @param rounds      rounds, 1 or more; each round starts every subject afresh
 * @param order       how the subjects are ordered within each round
 * @param seed        seed of the shuffled order
 * @param duration    measured window of each run
 * @param warmup      load before each window, not measured: a fixed time, or until the throughput is
 *                    steady (bounds widened by a subject's manifest, see {@link #warmupFor})
 * @param cooldown    pause between runs
 * @param connections connections per run
 * @param threads     engine threads per run; 0 = one per load CPU
 * @param rate        fixed rate in requests/s; empty for the closed loop
 * @param serverCpus  CPUs for the subjects (taskset list); empty = the default split
 * @param loadCpus    CPUs for the engine; empty = the default split
 * @param readyTimeoutOverride readiness timeout for every subject instead of its manifest's
 * @param engines     the load generators, each run once per subject, workload and round (in an
 *                    order rotated by round); wrk and h2load run a closed loop only (oha and the
 *                    built-in engine also a fixed rate)
 * @param rotateWorkloads whether the workloads of a subject process rotate with the round (so that no
 *                    workload always runs first on a fresh process); experiments stored before this
 *                    existed ran them in listing order
 * @param protocols   regular expression over protocol variant values ({@code h1|h2-tls}, see
 *                    {@link io.loadlab.subject.ServedProtocol}); empty for what {@code variants} chooses
 * @param streams     HTTP/2 streams per connection in the h2 variants' runs (1 = the same concurrency
 *                    as HTTP/1.1 with the same connections)
 */
public record ExperimentSpec(String name, String subjects, String workloads, Optional<String> variants,
                             int rounds, Order order, long seed, Duration duration, Warmup warmup,
                             Duration cooldown, int connections, int threads, OptionalDouble rate,
                             Optional<String> serverCpus, Optional<String> loadCpus,
                             Optional<Duration> readyTimeoutOverride, List<Engine> engines,
                             boolean rotateWorkloads, Optional<String> protocols, int streams) {

    /** Subject order within a round. */
    public enum Order {
        /** Round r starts with the subject at index r mod n: each takes each position. */
        ROTATE,
        /** A seeded random order per round. */
        SHUFFLE
    }

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Pattern CPU_LIST = Pattern.compile("[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*");

    public ExperimentSpec {
        List<String> problems = new ArrayList<>();
        if (name == null || !NAME.matcher(name).matches()) {
            problems.add("name: letters, digits, '.', '_' and '-' only, got '" + name + "'");
        }
        checkRegex("subjects", subjects, problems);
        checkRegex("workloads", workloads, problems);
        variants.ifPresent(v -> checkRegex("variants", v, problems));
        protocols.ifPresent(v -> checkRegex("protocols", v, problems));
        if (streams < 1) {
            problems.add("streams: must be at least 1, got " + streams);
        }
        if (rounds < 1) {
            problems.add("rounds: must be at least 1, got " + rounds);
        }
        if (duration == null || duration.toMillis() < 100) {
            problems.add("duration: must be at least 100ms, got " + duration);
        }
        if (warmup == null) {
            problems.add("warmup: required (a duration, or auto)");
        }
        if (cooldown == null || cooldown.isNegative()) {
            problems.add("cooldown: must be zero or positive");
        }
        if (connections < 1) {
            problems.add("connections: must be at least 1, got " + connections);
        }
        if (threads < 0) {
            problems.add("threads: must be 0 (one per load CPU) or more, got " + threads);
        }
        rate.ifPresent(r -> {
            if (!(r > 0)) {
                problems.add("rate: must be positive, got " + r);
            }
        });
        serverCpus.filter(c -> !CPU_LIST.matcher(c).matches())
                .ifPresent(c -> problems.add("server-cpus: a list such as 0 or 0-1 or 0,2, got '" + c + "'"));
        loadCpus.filter(c -> !CPU_LIST.matcher(c).matches())
                .ifPresent(c -> problems.add("load-cpus: a list such as 1 or 1-3, got '" + c + "'"));
        if (serverCpus.isPresent() != loadCpus.isPresent()) {
            problems.add("server-cpus and load-cpus: give both or neither");
        }
        engines = checkEngines(engines, rate, duration, warmup, problems);
        if (!problems.isEmpty()) {
            throw new ExperimentException("invalid experiment: " + String.join("; ", problems));
        }
    }

    /** The engines, copied, with what is wrong with them (or with the load they are given) in {@code problems}. */
    private static List<Engine> checkEngines(List<Engine> engines, OptionalDouble rate, Duration duration, Warmup warmup,
                                             List<String> problems) {
        if (engines == null || engines.isEmpty()) {
            problems.add("engines: name at least one of " + Engine.labels());
            return engines;
        }
        List<Engine> copy = List.copyOf(engines);
        if (copy.stream().distinct().count() != copy.size()) {
            problems.add("engines: each engine once, got " + copy);
        }
        boolean closedOnly = copy.stream().anyMatch(e -> !e.fixedRate());
        if (closedOnly && rate.isPresent()) {
            problems.add("rate: wrk and h2load run a closed loop here; drop --rate or use --engine builtin or oha");
        }
        for (Engine e : copy) {
            e.cannotRun("/", List.of(duration == null ? Duration.ZERO : duration,
                    warmup instanceof Warmup.Fixed f ? f.length() : Duration.ZERO))
                    .ifPresent(why -> problems.add("engines: " + why));
        }
        return copy;
    }

    private static void checkRegex(String field, String regex, List<String> problems) {
        if (regex == null || regex.isEmpty()) {
            problems.add(field + ": a regular expression is required");
            return;
        }
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            problems.add(field + ": '" + regex + "' is not a regular expression (" + e.getDescription() + ")");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The spec as stored in {@code experiment.json}. */
    public ObjectNode toJson(ObjectMapper mapper) {
        ObjectNode o = mapper.createObjectNode();
        o.put("name", name);
        o.put("subjects", subjects);
        o.put("workloads", workloads);
        o.put("variants", variants.orElse(null));
        o.put("rounds", rounds);
        o.put("order", order.name().toLowerCase(java.util.Locale.ROOT));
        o.put("seed", seed);
        o.put("duration", Durations.format(duration));
        o.put("warmup", warmup.text());
        if (warmup instanceof Warmup.Steady st) {
            o.put("warmup_min", Durations.format(st.min()));
            o.put("warmup_max", Durations.format(st.max()));
        }
        o.put("workload_order", rotateWorkloads ? "rotate" : "fixed");
        o.put("cooldown", Durations.format(cooldown));
        o.put("connections", connections);
        o.put("threads", threads);
        if (rate.isPresent()) {
            o.put("rate", rate.getAsDouble());
        } else {
            o.putNull("rate");
        }
        o.put("server_cpus", serverCpus.orElse(null));
        o.put("load_cpus", loadCpus.orElse(null));
        o.put("ready_timeout", readyTimeoutOverride.map(Durations::format).orElse(null));
        com.fasterxml.jackson.databind.node.ArrayNode list = o.putArray("engines");
        engines.forEach(e -> list.add(e.label()));
        o.put("protocols", protocols.orElse(null));
        o.put("streams", streams);
        return o;
    }

    /** Reads a spec written by {@link #toJson}. */
    public static ExperimentSpec fromJson(JsonNode o) {
        try {
            return builder().name(o.get("name").asText()).subjects(o.get("subjects").asText())
                    .workloads(o.get("workloads").asText())
                    .variants(text(o, "variants").orElse(null))
                    .rounds(o.get("rounds").asInt())
                    .order(Order.valueOf(o.get("order").asText().toUpperCase(java.util.Locale.ROOT)))
                    .seed(o.get("seed").asLong())
                    .duration(Durations.parse(o.get("duration").asText()))
                    .warmup(warmup(o))
                    .rotateWorkloads(o.path("workload_order").asText("fixed").equals("rotate"))
                    .cooldown(Durations.parse(o.get("cooldown").asText()))
                    .connections(o.get("connections").asInt())
                    .threads(o.get("threads").asInt())
                    .rate(o.hasNonNull("rate") ? o.get("rate").asDouble() : null)
                    .serverCpus(text(o, "server_cpus").orElse(null))
                    .loadCpus(text(o, "load_cpus").orElse(null))
                    .readyTimeout(text(o, "ready_timeout").map(Durations::parse).orElse(null))
                    .engines(engines(o))
                    .protocols(text(o, "protocols").orElse(null))
                    .streams(o.path("streams").asInt(1))
                    .build();
        } catch (NullPointerException | IllegalArgumentException | LoadException | EngineException e) {
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

    /**
     * The warm-up of one subject's runs: a fixed warm-up as given; a steady-state warm-up with its
     * bounds widened to the manifest's own, so that a JIT server that needs longer gets it and a
     * user asking for longer gets that.
     */
    public Warmup warmupFor(io.loadlab.subject.SubjectManifest manifest) {
        if (!(warmup instanceof Warmup.Steady st) || manifest.warmup().isEmpty()) {
            return warmup;
        }
        io.loadlab.subject.SubjectManifest.WarmupBounds b = manifest.warmup().get();
        Duration min = st.min().compareTo(b.min()) >= 0 ? st.min() : b.min();
        Duration max = st.max().compareTo(b.max()) >= 0 ? st.max() : b.max();
        return new Warmup.Steady(min, max.compareTo(min) >= 0 ? max : min);
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

    private static Optional<String> text(JsonNode o, String field) {
        return o.hasNonNull(field) ? Optional.of(o.get(field).asText()) : Optional.empty();
    }

    /** The longest steady-state warm-up by default. */
    public static final Duration DEFAULT_WARMUP_MAX = Duration.ofSeconds(15);

    /**
     * Builds an {@link ExperimentSpec}; defaults: java subjects, plaintext|json, 3 rounds of 5 s
     * after a steady-state warm-up of at most {@link #DEFAULT_WARMUP_MAX}, workloads rotated.
     */
    public static final class Builder {
        private String name;
        private String subjects = "java-.*";
        private String workloads = "plaintext|json";
        private String variants;
        private int rounds = 3;
        private Order order = Order.ROTATE;
        private long seed = 1;
        private Duration duration = Duration.ofSeconds(5);
        private Warmup warmup = Warmup.steady(DEFAULT_WARMUP_MAX);
        private boolean rotateWorkloads = true;
        private Duration cooldown = Duration.ofSeconds(1);
        private int connections = 64;
        private int threads;
        private Double rate;
        private String serverCpus;
        private String loadCpus;
        private Duration readyTimeout;
        private List<Engine> engines = List.of(Engine.BUILTIN);
        private String protocols;
        private int streams = 1;

        public Builder name(String v) { name = v; return this; }
        public Builder subjects(String v) { subjects = v; return this; }
        public Builder workloads(String v) { workloads = v; return this; }
        public Builder variants(String v) { variants = v; return this; }
        public Builder rounds(int v) { rounds = v; return this; }
        public Builder order(Order v) { order = v; return this; }
        public Builder seed(long v) { seed = v; return this; }
        public Builder duration(Duration v) { duration = v; return this; }
        /** A fixed warm-up ({@code null} is refused by build()). */
        public Builder warmup(Duration v) { warmup = v == null ? null : new Warmup.Fixed(v); return this; }
        public Builder warmup(Warmup v) { warmup = v; return this; }
        public Builder rotateWorkloads(boolean v) { rotateWorkloads = v; return this; }
        public Builder cooldown(Duration v) { cooldown = v; return this; }
        public Builder connections(int v) { connections = v; return this; }
        public Builder threads(int v) { threads = v; return this; }
        public Builder rate(Double v) { rate = v; return this; }
        public Builder serverCpus(String v) { serverCpus = v; return this; }
        public Builder loadCpus(String v) { loadCpus = v; return this; }
        public Builder readyTimeout(Duration v) { readyTimeout = v; return this; }
        public Builder engines(List<Engine> v) { engines = v; return this; }
        public Builder protocols(String v) { protocols = v; return this; }
        public Builder streams(int v) { streams = v; return this; }

        /** @throws ExperimentException naming every invalid field */
        public ExperimentSpec build() {
            return new ExperimentSpec(name, subjects, workloads, Optional.ofNullable(variants), rounds, order, seed,
                    duration, warmup, cooldown, connections, threads,
                    rate == null ? OptionalDouble.empty() : OptionalDouble.of(rate),
                    Optional.ofNullable(serverCpus), Optional.ofNullable(loadCpus), Optional.ofNullable(readyTimeout),
                    engines, rotateWorkloads, Optional.ofNullable(protocols), streams);
        }
    }
}
