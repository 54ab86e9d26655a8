package io.loadlab.experiment;

import io.loadlab.agent.AgentSet;
import io.loadlab.agent.SubjectHost;
import io.loadlab.data.SpecSection;
import io.loadlab.engine.Engine;
import io.loadlab.time.Durations;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.Warmup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Everything an experiment needs: what it measures, how many rounds in which order, the load of each
 * run, where the processes run and what generates the load. Built with {@link #builder()}; stored in
 * {@code experiment.json} so that {@code --resume} runs exactly the same experiment. Each part checks
 * its own fields; this record checks the rules that span parts (an engine that cannot run the load,
 * a sweep on agents).
 *
 * @param name            experiment name (the data folder's name)
 * @param rounds          rounds, 1 or more; each round starts every subject afresh
 * @param order           how the subjects are ordered within each round
 * @param seed            seed of the shuffled order
 * @param rotateWorkloads whether the workloads of a subject process rotate with the round (so that no
 *                        workload always runs first on a fresh process); experiments stored before this
 *                        existed ran them in listing order
 * @param selection       what is measured: subjects, workloads, variants and protocols
 * @param load            the load of each run: window, warm-up, connections, rate or sweep
 * @param placement       where the subjects and the load run
 * @param generators      the engines, here or on agents
 * @param autoRounds      {@code --rounds auto}: when to stop before {@code rounds}, which is then the most
 *                        rounds; empty for exactly {@code rounds} rounds
 */
public record ExperimentSpec(String name, int rounds, Order order, long seed, boolean rotateWorkloads,
                             Selection selection, RunLoad load, Placement placement, Generators generators,
                             Optional<AutoRounds> autoRounds) {

    /** Subject order within a round. */
    public enum Order {
        /** Round r starts with the subject at index r mod n: each takes each position. */
        ROTATE,
        /** A seeded random order per round. */
        SHUFFLE
    }

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    /** What every message of an invalid spec starts with, before its problems joined by {@code "; "}. */
    private static final String INVALID = "invalid experiment: ";

    /** @throws ExperimentException naming every invalid field */
    public ExperimentSpec {
        List<String> problems = new ArrayList<>();
        checkWhole(name, rounds, problems);
        if (autoRounds == null) {
            problems.add("autoRounds: Optional.empty() for a fixed number of rounds");
        } else if (autoRounds.isPresent() && autoRounds.get().maxRounds() != rounds) {
            problems.add("rounds: with rounds auto, the most rounds (" + autoRounds.get().maxRounds() + "), got "
                    + rounds);
        }
        if (selection == null || load == null || placement == null || generators == null) {
            problems.add("selection, load, placement and generators: all required");
        } else {
            checkAcross(load.rate(), load.duration(), load.warmup(), load.sweep(), generators.given(),
                    generators.agents(), problems);
        }
        refuse(problems);
    }

    /** A spec of exactly {@code rounds} rounds. */
    public ExperimentSpec(String name, int rounds, Order order, long seed, boolean rotateWorkloads,
                          Selection selection, RunLoad load, Placement placement, Generators generators) {
        this(name, rounds, order, seed, rotateWorkloads, selection, load, placement, generators, Optional.empty());
    }

    /** Throws the one exception of an invalid spec, naming {@code problems}, if there are any. */
    static void refuse(List<String> problems) {
        if (!problems.isEmpty()) {
            throw new ExperimentException(INVALID + String.join("; ", problems));
        }
    }

    private static void checkWhole(String name, int rounds, List<String> problems) {
        if (name == null || !NAME.matcher(name).matches()) {
            problems.add("name: letters, digits, '.', '_' and '-' only, got '" + name + "'");
        }
        if (rounds < 1) {
            problems.add("rounds: must be at least 1, got " + rounds);
        }
    }

    /**
     * The rules between the load and its generators. Given the raw values (any may be invalid or
     * {@code null}), so that a builder with an invalid part still names every problem.
     */
    private static void checkAcross(OptionalDouble rate, Duration duration, Warmup warmup, Optional<Sweep> sweep,
                                    List<Engine> engines, Optional<AgentSet> agents, List<String> problems) {
        if (engines != null && !engines.isEmpty()) {
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
        if (sweep.isPresent() && engines != null && !engines.equals(List.of(Engine.BUILTIN))) {
            // Curves and their intervals come from each window's histograms, which only the built-in engine keeps.
            problems.add("engines: a latency sweep runs on the built-in engine only, got " + engines);
        }
        // Agents with another engine are the generators' own problem, named by them.
        if (agents != null && agents.isPresent() && sweep.isPresent()
                && (engines == null || engines.equals(List.of(Engine.BUILTIN)))) {
            problems.add("agents: a latency sweep runs its load in this JVM; drop --agents or the sweep");
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
        RunLoad l = load;
        List<Engine> engines = generators.given();
        return "ExperimentSpec[" + name + ": subjects '" + selection.subjects() + "'"
                + selection.variants().map(v -> " [" + v + "]").orElse("")
                + " × workloads '" + selection.workloads() + "', " + autoRounds.map(AutoRounds::describe)
                .orElse(rounds + " round" + (rounds == 1 ? "" : "s"))
                + " (" + order.name().toLowerCase(java.util.Locale.ROOT) + ") of " + Durations.format(l.duration())
                + " after " + l.warmup().describe() + ", " + l.connections() + " connections, "
                + (l.rate().isPresent() ? "fixed rate " + io.loadlab.format.Units.integer(l.rate().getAsDouble())
                + " rps" : "closed loop")
                + ", engine" + (engines.size() == 1 ? " " : "s ") + String.join(",", engines.stream().map(Engine::label).toList())
                + l.sweep().map(s -> ", " + s.describe()).orElse("") + "]";
    }

    /** The spec as stored in {@code experiment.json}. */
    public SpecSection toJson() {
        return SpecJson.toJson(this);
    }

    /**
     * Reads a spec written by {@link #toJson}.
     *
     * @throws ExperimentException when the section is damaged or incomplete
     */
    public static ExperimentSpec fromJson(SpecSection o) {
        return SpecJson.fromJson(o);
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
        private io.loadlab.project.ProjectRef project;
        private int streams = 1;
        private SubjectHost subjectHost;
        private Duration paceSlack = io.loadlab.load.LoadModel.FixedRate.DEFAULT_PACE_SLACK;
        private AutoRounds autoRounds;

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
        /** Chooses from this project's subjects and workloads ({@code null}: Loadlab's bundled ones). */
        public Builder project(io.loadlab.project.ProjectRef v) { project = v; return this; }
        public Builder streams(int v) { streams = v; return this; }
        /** Runs the subjects on this host's agent (null: on this host). */
        public Builder subjectHost(SubjectHost v) { subjectHost = v; return this; }
        /** The fixed rate's wake-up slack; {@code null} keeps the default ({@code FixedRate.DEFAULT_PACE_SLACK}). */
        public Builder paceSlack(Duration v) { paceSlack = v == null ? paceSlack : v; return this; }

        /** {@code --rounds auto}: stop when decided, at most {@code v.maxRounds()} rounds (which replaces {@link #rounds}); {@code null} for a fixed number. */
        public Builder autoRounds(AutoRounds v) { autoRounds = v; return this; }

        /** @throws ExperimentException naming every invalid field, of every part */
        public ExperimentSpec build() {
            List<String> problems = new ArrayList<>();
            int rounds = autoRounds == null ? this.rounds : autoRounds.maxRounds();
            checkWhole(name, rounds, problems);
            OptionalDouble rateOf = rate == null ? OptionalDouble.empty() : OptionalDouble.of(rate);
            Selection selection = part(() -> new Selection(subjects, workloads, Optional.ofNullable(variants),
                    Optional.ofNullable(protocols), Optional.ofNullable(project)), problems);
            RunLoad load = part(() -> new RunLoad(duration, warmup, cooldown, connections, threads, rateOf, paceSlack,
                    streams, Optional.ofNullable(sweep)), problems);
            Placement placement = part(() -> new Placement(Optional.ofNullable(serverCpus),
                    Optional.ofNullable(loadCpus), Optional.ofNullable(subjectHost), Optional.ofNullable(readyTimeout)),
                    problems);
            Generators generators = part(() -> new Generators(engines, Optional.ofNullable(agents)), problems);
            if (!problems.isEmpty()) {
                // With valid parts the spec checks the rules across them; without, they are checked on the raw values.
                checkAcross(rateOf, duration, warmup, Optional.ofNullable(sweep), engines, Optional.ofNullable(agents),
                        problems);
                refuse(problems);
            }
            return new ExperimentSpec(name, rounds, order, seed, rotateWorkloads, selection, load, placement, generators,
                    Optional.ofNullable(autoRounds));
        }

        /** A part of the spec, or {@code null} with its problems added to {@code problems}. */
        private static <T> T part(Supplier<T> make, List<String> problems) {
            try {
                return make.get();
            } catch (ExperimentException e) {
                // Every part refuses through refuse(), so its message is INVALID and its problems.
                problems.add(e.getMessage().substring(INVALID.length()));
                return null;
            }
        }
    }
}
