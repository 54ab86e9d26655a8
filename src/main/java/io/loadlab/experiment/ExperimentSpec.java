package io.loadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.agent.AgentEngine;
import io.loadlab.agent.AgentSet;
import io.loadlab.agent.SubjectHost;
import io.loadlab.engine.Engine;
import io.loadlab.time.Durations;
import io.loadlab.load.LoadSpec;
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
 * @param sweep       a latency sweep: each subject and workload measured at fixed rates (shares of its
 *                    capacity, absolute rates) instead of one closed-loop window; built-in engine only
 * @param agents      agents on other hosts that run the load instead of this JVM (the built-in engine on
 *                    each, merged); {@link #engines()} is then their {@link AgentEngine}
 * @param protocols   regular expression over protocol variant values ({@code h1|h2-tls}, see
 *                    {@link io.loadlab.subject.ServedProtocol}); empty for what {@code variants} chooses
 * @param streams     HTTP/2 streams per connection in the h2 variants' runs (1 = the same concurrency
 *                    as HTTP/1.1 with the same connections)
 * @param subjectHost the host the subjects run on, started and sampled there by its agent (which has
 *                    {@code --allow-subjects}); empty for this host
 * @param paceSlack   at a fixed rate (and in a sweep's fixed-rate windows), the built-in engine's wake-up
 *                    slack: how long past its due time a request may wait ({@code LoadModel.FixedRate})
 */
public record ExperimentSpec(String name, String subjects, String workloads, Optional<String> variants,
                             int rounds, Order order, long seed, Duration duration, Warmup warmup,
                             Duration cooldown, int connections, int threads, OptionalDouble rate,
                             Optional<String> serverCpus, Optional<String> loadCpus,
                             Optional<Duration> readyTimeoutOverride, List<Engine> engines,
                             boolean rotateWorkloads, Optional<Sweep> sweep, Optional<AgentSet> agents,
                             Optional<String> protocols, int streams, Optional<SubjectHost> subjectHost,
                             Duration paceSlack) {

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
        checkPaceSlack(paceSlack, problems);
        serverCpus.filter(c -> !CPU_LIST.matcher(c).matches())
                .ifPresent(c -> problems.add("server-cpus: a list such as 0 or 0-1 or 0,2, got '" + c + "'"));
        loadCpus.filter(c -> !CPU_LIST.matcher(c).matches())
                .ifPresent(c -> problems.add("load-cpus: a list such as 1 or 1-3, got '" + c + "'"));
        if (serverCpus.isPresent() != loadCpus.isPresent()) {
            problems.add("server-cpus and load-cpus: give both or neither");
        }
        engines = checkEngines(engines, rate, duration, warmup, problems);
        sweep = sweep == null ? Optional.empty() : sweep;
        if (sweep.isPresent()) {
            checkSweep(rate, engines, problems);
        }
        checkAgents(agents, engines, sweep, problems);
        subjectHost = subjectHost == null ? Optional.empty() : subjectHost;
        if (subjectHost.isPresent() && serverCpus.isPresent()) {
            problems.add("server-cpus: the subjects run on the subject host " + subjectHost.get().address()
                    + ", unpinned; drop --server-cpus and --load-cpus");
        }
        if (!problems.isEmpty()) {
            throw new ExperimentException("invalid experiment: " + String.join("; ", problems));
        }
    }

    /** The engines, copied; what is wrong with them is added to {@code problems}. */
    private static List<Engine> checkEngines(List<Engine> engines, OptionalDouble rate, Duration duration,
                                             Warmup warmup, List<String> problems) {
        if (engines == null || engines.isEmpty()) {
            problems.add("engines: name at least one of " + Engine.labels());
        } else {
            engines = List.copyOf(engines);
            if (engines.stream().distinct().count() != engines.size()) {
                problems.add("engines: each engine once, got " + engines);
            }
            boolean closedOnly = engines.stream().anyMatch(e -> !e.fixedRate());
            if (closedOnly && rate.isPresent()) {
                problems.add("rate: wrk and h2load run a closed loop here; drop --rate or use --engine builtin or oha");
            }
            for (Engine e : engines) {
                e.cannotRun("/", List.of(duration == null ? Duration.ZERO : duration,
                        warmup instanceof Warmup.Fixed f ? f.length() : Duration.ZERO))
                        .ifPresent(why -> problems.add("engines: " + why));
            }
        }
        return engines;
    }

    private static void checkPaceSlack(Duration paceSlack, List<String> problems) {
        if (paceSlack == null || paceSlack.isNegative()
                || paceSlack.compareTo(io.loadlab.load.LoadModel.FixedRate.MAX_PACE_SLACK) > 0) {
            problems.add("pace-slack: must be between 0 and 100ms, got " + paceSlack);
        }
    }

    private static void checkSweep(OptionalDouble rate, List<Engine> engines, List<String> problems) {
        if (rate.isPresent()) {
            problems.add("rate: a latency sweep sets the rate of each window; drop --rate");
        }
        if (engines != null && !engines.equals(List.of(Engine.BUILTIN))) {
            // Curves and their intervals come from each window's histograms, which only the built-in engine keeps.
            problems.add("engines: a latency sweep runs on the built-in engine only, got " + engines);
        }
    }

    private static void checkAgents(Optional<AgentSet> agents, List<Engine> engines, Optional<Sweep> sweep,
                                    List<String> problems) {
        if (agents == null) {
            problems.add("agents: Optional.empty() for none");
        } else if (agents.isPresent() && engines != null && !engines.equals(List.of(Engine.BUILTIN))) {
            problems.add("agents: they run the built-in engine; drop --engine " + engines.stream().map(Engine::label)
                    .toList() + " or drop --agents");
        } else if (agents.isPresent() && sweep.isPresent()) {
            problems.add("agents: a latency sweep runs its load in this JVM; drop --agents or the sweep");
        }
    }

    /** The load generators of each run: the given ones, or the agents' engine when the load runs on agents. */
    @Override
    public List<Engine> engines() {
        return agents.isPresent() ? List.of(new AgentEngine(agents.get())) : engines;
    }

    /** The engines as given, which the agents run when there are agents (what experiment.json keeps). */
    List<Engine> givenEngines() {
        return engines;
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

    /**
     * One line saying what the experiment runs, such as {@code ExperimentSpec[quickstart: subjects
     * 'java-netty|java-httpserver' × workloads 'plaintext|json', 3 rounds (rotate) of 1s after warm-up 1s,
     * 64 connections, closed loop, engine builtin]}; the record's own form would list every field.
     */
    @Override
    public String toString() {
        return "ExperimentSpec[" + name + ": subjects '" + subjects + "'" + variants.map(v -> " [" + v + "]").orElse("")
                + " × workloads '" + workloads + "', " + rounds + " round" + (rounds == 1 ? "" : "s") + " ("
                + order.name().toLowerCase(java.util.Locale.ROOT) + ") of " + Durations.format(duration) + " after "
                + warmup.describe() + ", " + connections + " connections, "
                + (rate.isPresent() ? "fixed rate " + io.loadlab.format.Units.integer(rate.getAsDouble()) + " rps" : "closed loop")
                + ", engine" + (engines.size() == 1 ? " " : "s ") + String.join(",", engines.stream().map(Engine::label).toList())
                + sweep.map(s -> ", " + s.describe()).orElse("") + "]";
    }

    /** The spec as stored in {@code experiment.json}. */
    public ObjectNode toJson(ObjectMapper mapper) {
        return SpecJson.toJson(this, mapper);
    }

    /** Reads a spec written by {@link #toJson}. */
    public static ExperimentSpec fromJson(JsonNode o) {
        return SpecJson.fromJson(o);
    }

    /**
     * The warm-up of one subject's runs: a fixed warm-up as given; a steady-state warm-up with its
     * bounds widened to the manifest's own, so that a JIT server that needs longer gets it and a
     * user asking for longer gets that.
     */
    public Warmup warmupFor(io.loadlab.subject.SubjectManifest manifest) {
        return warmupFor(manifest, Duration.ZERO);
    }

    /**
     * The same for a run on a subject process that has been running for {@code processAge}. A
     * manifest's bounds say how long the server's JIT needs from its start (java-httpserver's plateau
     * before C2), so a later workload of the same process, loaded all along since, waits only for what
     * is left of them; the experiment's own bounds always hold.
     */
    public Warmup warmupFor(io.loadlab.subject.SubjectManifest manifest, Duration processAge) {
        if (!(warmup instanceof Warmup.Steady st) || manifest.warmup().isEmpty()) {
            return warmup;
        }
        io.loadlab.subject.SubjectManifest.WarmupBounds b = manifest.warmup().get();
        Duration bMin = b.min().minus(processAge);
        Duration bMax = b.max().minus(processAge);
        Duration min = st.min().compareTo(bMin) >= 0 ? st.min() : bMin;
        Duration max = st.max().compareTo(bMax) >= 0 ? st.max() : bMax;
        return new Warmup.Steady(min, max.compareTo(min) >= 0 ? max : min);
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
        private int connections = LoadSpec.DEFAULT_CONNECTIONS;
        private int threads;
        private Double rate;
        private String serverCpus;
        private String loadCpus;
        private Duration readyTimeout;
        private List<Engine> engines = List.of(Engine.BUILTIN);
        private Sweep sweep;
        private AgentSet agents;
        private String protocols;
        private int streams = 1;
        private SubjectHost subjectHost;
        private Duration paceSlack = io.loadlab.load.LoadModel.FixedRate.DEFAULT_PACE_SLACK;

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
        /** A latency sweep instead of one closed-loop window per subject and workload; {@code null} for none. */
        public Builder sweep(Sweep v) { sweep = v; return this; }
        /** Runs the load on these agents (null: in this JVM). */
        public Builder agents(AgentSet v) { agents = v; return this; }
        public Builder protocols(String v) { protocols = v; return this; }
        public Builder streams(int v) { streams = v; return this; }
        /** Runs the subjects on this host's agent (null: on this host). */
        public Builder subjectHost(SubjectHost v) { subjectHost = v; return this; }
        /** The fixed rate's wake-up slack; {@code null} keeps the default ({@code FixedRate.DEFAULT_PACE_SLACK}). */
        public Builder paceSlack(Duration v) { paceSlack = v == null ? paceSlack : v; return this; }

        /** @throws ExperimentException naming every invalid field */
        public ExperimentSpec build() {
            return new ExperimentSpec(name, subjects, workloads, Optional.ofNullable(variants), rounds, order, seed,
                    duration, warmup, cooldown, connections, threads,
                    rate == null ? OptionalDouble.empty() : OptionalDouble.of(rate),
                    Optional.ofNullable(serverCpus), Optional.ofNullable(loadCpus), Optional.ofNullable(readyTimeout),
                    engines, rotateWorkloads, Optional.ofNullable(sweep), Optional.ofNullable(agents),
                    Optional.ofNullable(protocols), streams, Optional.ofNullable(subjectHost), paceSlack);
        }
    }
}
