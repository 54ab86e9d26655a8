package io.loadlab.experiment;

import io.loadlab.data.Group;
import io.loadlab.engine.Engine;
import io.loadlab.subject.Subject;
import io.loadlab.workload.Workload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The runs of an experiment in the order they happen: rounds, within each round the subject
 * instances (subject × variant) in rotated or shuffled order, within each instance its workloads
 * (rotated by round, so that no workload always runs first on a fresh process), and for each
 * workload the engines, rotated by round so that no engine always goes first.
 * The plan is a pure function of the spec and the catalog, so a resumed experiment gets the
 * same run ids.
 */
public record Plan(List<Instance> instances, List<Run> runs, List<String> skipped) {

    /** A subject with one combination of variant values, started afresh in every round. */
    public record Instance(Subject subject, Map<String, String> variant, List<Workload> workloads) {
        /** The variant as written in the data, e.g. {@code durability=fsync}; empty without variants. */
        public String variantLabel() {
            return Subject.label(variant);
        }

        /** A label for messages: {@code java-netty [durability=fsync]}. */
        public String label() {
            return Group.subjectLabel(subject.name(), variantLabel());
        }

        /** {@code Instance[java-netty [durability=memory]: plaintext, json]}, without the subject's whole manifest. */
        @Override
        public String toString() {
            return "Instance[" + label() + ": " + String.join(", ", workloads.stream().map(Workload::name).toList()) + "]";
        }
    }

    /**
     * One measured run.
     *
     * @param runId    1, 2, ... in plan order
     * @param round    1-based round
     * @param position 1-based position of the instance in its round
     * @param engine   the load generator of this run
     * @param point    what the run measures in a latency sweep; empty outside one
     */
    public record Run(int runId, int round, int position, Instance instance, Workload workload, Engine engine,
                      Optional<SweepPoint> point) {
        /** A run of the built-in engine, outside a sweep. */
        public Run(int runId, int round, int position, Instance instance, Workload workload) {
            this(runId, round, position, instance, workload, Engine.BUILTIN, Optional.empty());
        }

        /** {@code Run[3: round 2, position 1, java-netty, plaintext, builtin]}, and the sweep point: {@code , 50%]}. */
        @Override
        public String toString() {
            return "Run[" + runId + ": round " + round + ", position " + position + ", " + instance.label() + ", "
                    + workload.name() + ", " + engine.label() + point.map(p -> ", " + p.label()).orElse("") + "]";
        }
    }

    public Plan {
        instances = List.copyOf(instances);
        runs = List.copyOf(runs);
        skipped = List.copyOf(skipped);
    }

    /**
     * One line: {@code Plan[12 runs: 3 rounds × 2 subject instances (java-httpserver, java-netty), 2 workloads,
     * 1 engine; skipped: nginx (needs nginx on PATH)]}.
     */
    @Override
    public String toString() {
        long rounds = runs.stream().mapToInt(Run::round).distinct().count();
        long workloads = runs.stream().map(r -> r.workload().name()).distinct().count();
        long engines = runs.stream().map(Run::engine).distinct().count();
        long points = runs.stream().flatMap(r -> r.point().stream()).map(SweepPoint::label).distinct().count();
        return "Plan[" + runs.size() + " runs: " + rounds + " round" + (rounds == 1 ? "" : "s") + " × " + instances.size()
                + " subject instance" + (instances.size() == 1 ? "" : "s") + " ("
                + String.join(", ", instances.stream().map(Instance::label).toList()) + "), " + workloads + " workload"
                + (workloads == 1 ? "" : "s") + ", " + engines + " engine" + (engines == 1 ? "" : "s")
                + (points == 0 ? "" : ", " + points + " sweep point" + (points == 1 ? "" : "s"))
                + (skipped.isEmpty() ? "" : "; skipped: " + String.join("; ", skipped)) + "]";
    }

    /**
     * Plans the experiment. Unavailable subjects and subjects that support none of the chosen
     * workloads are left out and listed in {@link #skipped()} with the reason.
     *
     * @param subjects  the subjects that matched the spec's pattern, in name order
     * @param workloads the workloads that matched, in listing order
     */
    public static Plan of(ExperimentSpec spec, List<Subject> subjects, List<Workload> workloads) {
        List<String> skipped = new ArrayList<>();
        List<Instance> instances = instances(spec, subjects, workloads, skipped);
        if (instances.isEmpty()) {
            throw new ExperimentException("nothing to run: " + (skipped.isEmpty()
                    ? "no variant matches '" + spec.selection().variants().orElse("") + "'"
                    : String.join("; ", skipped)));
        }
        for (Engine e : spec.generators().engines()) {
            e.unavailableReason().ifPresent(why -> {
                throw new ExperimentException(why + "; or leave it out of --engine");
            });
        }
        List<Run> runs = runs(spec, instances);
        spec.load().sweep().ifPresent(sw -> withoutCapacity(sw, instances, skipped));
        for (Engine e : spec.generators().engines()) {
            for (Workload w : workloads) {
                cannotRun(e, w).ifPresent(why -> skipped.add(w.name() + " with " + e.label() + ": " + why));
            }
        }
        for (Engine e : spec.generators().engines()) {
            instances.forEach(i -> cannotSpeak(i, e).ifPresent(why -> skipped.add(i.subject().name() + " ["
                    + i.variantLabel() + "] with " + e.label() + ": " + why)));
        }
        if (runs.isEmpty()) {
            throw new ExperimentException("nothing to run: " + String.join("; ", skipped));
        }
        return new Plan(instances, runs, skipped);
    }

    /** The chosen variants of the available subjects that support a chosen workload; the others in {@code skipped}. */
    private static List<Instance> instances(ExperimentSpec spec, List<Subject> subjects, List<Workload> workloads,
                                            List<String> skipped) {
        List<Instance> instances = new ArrayList<>();
        VariantChoice choice = VariantChoice.of(spec);
        for (Subject s : subjects) {
            if (!s.available()) {
                skipped.add(s.name() + ": " + s.unavailableReason().orElseThrow());
                continue;
            }
            List<Workload> supported = workloads.stream()
                    .filter(w -> s.manifest().workloads().contains(w.name())).toList();
            if (supported.isEmpty()) {
                skipped.add(s.name() + ": supports none of the chosen workloads (it has "
                        + String.join(", ", s.manifest().workloads()) + ")");
                continue;
            }
            List<Map<String, String>> chosen = choice.chosen(s);
            if (chosen.isEmpty() && spec.selection().protocols().isPresent()) {
                skipped.add(s.name() + ": serves no protocol matching '" + spec.selection().protocols().get() + "'");
            }
            for (Map<String, String> v : chosen) {
                instances.add(new Instance(s, v, supported));
            }
        }
        return instances;
    }

    /** Every run in order: rounds, instances in the round's order, workloads, engines (both rotated by round). */
    private static List<Run> runs(ExperimentSpec spec, List<Instance> instances) {
        List<Run> runs = new ArrayList<>();
        int id = 1;
        for (int round = 1; round <= spec.rounds(); round++) {
            List<Instance> order = orderFor(spec, instances, round);
            List<Engine> engines = new ArrayList<>(spec.generators().engines());
            Collections.rotate(engines, -((round - 1) % engines.size()));
            for (int pos = 0; pos < order.size(); pos++) {
                List<Workload> inOrder = new ArrayList<>(order.get(pos).workloads());
                if (spec.rotateWorkloads()) {
                    // A fresh process runs its first workload colder than the rest: let each take that place.
                    Collections.rotate(inOrder, -((round - 1) % inOrder.size()));
                }
                for (Workload w : inOrder) {
                    for (Engine e : engines) {
                        if (cannotRun(e, w).isEmpty() && cannotSpeak(order.get(pos), e).isEmpty()) {
                            for (Optional<SweepPoint> point : points(spec, order.get(pos), w)) {
                                runs.add(new Run(id++, round, pos + 1, order.get(pos), w, e, point));
                            }
                        }
                    }
                }
            }
        }
        return runs;
    }

    /** Why engine {@code e} cannot send workload {@code w}'s request, if it cannot. */
    private static Optional<String> cannotRun(Engine e, Workload w) {
        if (!w.plain() && !e.sendsWholeRequests()) {
            return Optional.of("it sends its own headers or body, or checks bodies, which only the built-in"
                    + " engine does here");
        }
        return e.cannotRun(w.path(), List.of());
    }

    /**
     * Why engine {@code e} cannot load instance {@code i} over its variant's protocol and TLS (wrk over h2,
     * agents over TLS), if it cannot.
     */
    private static Optional<String> cannotSpeak(Instance i, Engine e) {
        io.loadlab.subject.ServedProtocol served = io.loadlab.subject.ServedProtocol.of(i.variant());
        return e.cannotSpeak(Measurement.protocolOf(served), served.tls());
    }

    /** The sweep points of an instance's workload in run order; one empty point (a plain run) outside a sweep. */
    private static List<Optional<SweepPoint>> points(ExperimentSpec spec, Instance inst, Workload w) {
        if (spec.load().sweep().isEmpty()) {
            return List.of(Optional.empty());
        }
        return spec.load().sweep().get().points(inst.subject().name(), inst.variantLabel(), w.name()).stream()
                .map(Optional::of).toList();
    }

    /** Shares of capacity that cannot run: the given experiment has no capacity for that subject and workload. */
    private static void withoutCapacity(Sweep sweep, List<Instance> instances, List<String> skipped) {
        if (!(sweep.capacity() instanceof Sweep.Given g) || sweep.percents().isEmpty()) {
            return;
        }
        for (Instance inst : instances) {
            for (Workload w : inst.workloads()) {
                if (sweep.given(inst.subject().name(), inst.variantLabel(), w.name()).isEmpty()) {
                    skipped.add(inst.label() + " " + w.name() + ": shares of capacity (" + g.from()
                            + " has no closed-loop run of it; its absolute rates still run)");
                }
            }
        }
    }

    /** The instance order of one round: rotated by the round, or shuffled with a per-round seed. */
    static <T> List<T> orderFor(ExperimentSpec spec, List<T> items, int round) {
        List<T> out = new ArrayList<>(items);
        if (spec.order() == ExperimentSpec.Order.ROTATE) {
            Collections.rotate(out, -((round - 1) % items.size()));
        } else {
            Collections.shuffle(out, new Random(spec.seed() * 1_000_003L + round));
        }
        return out;
    }
}
