package io.loadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.data.Json;
import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import io.loadlab.data.SpecSection;
import io.loadlab.time.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;
import tech.tablesaw.api.Table;

/**
 * A latency sweep (issue 18): instead of one closed-loop window per subject and workload, a
 * sequence of fixed-rate windows at shares of the subject's capacity and at absolute rates, so
 * that latency is compared at equal offered load (in a closed loop it is mostly queueing behind the
 * other connections). Each window warms up as any run does and counts its missed requests.
 *
 * @param percents shares of the capacity in percent (50 = half), ascending and distinct; may be empty
 *                 when {@code rates} is not
 * @param rates    absolute rates in requests/s, ascending and distinct; may be empty
 * @param capacity where the capacity comes from: measured in each round, or given
 * @param slo      the p99 latency objective whose knee analyses look for; empty for their default
 */
public record Sweep(List<Double> percents, List<Double> rates, CapacitySource capacity, Optional<Duration> slo) {

    /** Where the capacity of a subject on a workload comes from. */
    public sealed interface CapacitySource {
    }

    /** A closed-loop run before the points of each round and workload measures it. */
    public record Measured() implements CapacitySource {
    }

    /**
     * Taken from another experiment, once, when this one was created (stored, so that a resume
     * does not depend on that folder).
     *
     * @param from the experiment folder it was read from, as given
     * @param rps  mean closed-loop requests/s by {@link #key}
     */
    public record Given(String from, Map<String, Double> rps) implements CapacitySource {
        public Given {
            rps = Map.copyOf(rps);
        }

        /**
         * The capacities an experiment measured: the mean {@code rps} of its successful closed-loop
         * runs of the built-in engine (a sweep's capacity runs, or any plain experiment's runs) per
         * subject, variant and workload.
         *
         * @throws ExperimentException when the folder holds no such run
         */
        public static Given from(Path dir) {
            Table runs = Results.load(dir).runs();
            Map<String, double[]> sums = new TreeMap<>();
            for (int i = 0; i < runs.rowCount(); i++) {
                boolean closed = runs.column(RunColumn.TARGET_RPS.id()).isMissing(i);
                String engine = runs.stringColumn(RunColumn.ENGINE.id()).get(i);
                boolean builtin = engine.isEmpty() || engine.equals("builtin");
                if (closed && builtin && runs.stringColumn(RunColumn.STATUS.id()).get(i).equals(RunColumn.Status.OK.value()) && !runs.column(RunColumn.RPS.id()).isMissing(i)) {
                    double[] s = sums.computeIfAbsent(key(runs.stringColumn(RunColumn.SUBJECT.id()).get(i),
                            runs.stringColumn(RunColumn.VARIANT.id()).get(i), runs.stringColumn(RunColumn.WORKLOAD.id()).get(i)), k -> new double[2]);
                    s[0] += runs.doubleColumn(RunColumn.RPS.id()).getDouble(i);
                    s[1]++;
                }
            }
            if (sums.isEmpty()) {
                throw new ExperimentException("--capacity-from " + dir + ": it has no successful closed-loop run of the"
                        + " built-in engine to take a capacity from");
            }
            Map<String, Double> means = new LinkedHashMap<>();
            sums.forEach((k, s) -> means.put(k, s[0] / s[1]));
            return new Given(dir.toString(), means);
        }
    }

    public Sweep {
        percents = checked("--latency-sweep", percents);
        rates = checked("--rates", rates);
        if (percents.isEmpty() && rates.isEmpty()) {
            throw new ExperimentException("latency sweep: give shares of capacity (--latency-sweep 50,90) or rates"
                    + " (--rates 1000,5000)");
        }
        if (capacity == null) {
            throw new ExperimentException("latency sweep: the capacity source is required");
        }
        if (slo.isPresent() && (slo.get().isNegative() || slo.get().isZero())) {
            throw new ExperimentException("latency sweep: --slo must be positive, got " + Durations.format(slo.get()));
        }
    }

    private static List<Double> checked(String option, List<Double> values) {
        List<Double> sorted = new ArrayList<>(new TreeSet<>(values == null ? List.of() : values));
        if (sorted.size() != (values == null ? 0 : values.size())) {
            throw new ExperimentException(option + ": each value once, got " + values);
        }
        for (double v : sorted) {
            if (!(v > 0) || Double.isInfinite(v)) {
                throw new ExperimentException(option + ": values must be positive, got " + io.loadlab.data.RunRow.num(v));
            }
        }
        return List.copyOf(sorted);
    }

    /** The key of a capacity in {@link Given#rps()}: subject, variant label and workload. */
    public static String key(String subject, String variant, String workload) {
        return subject + "|" + variant + "|" + workload;
    }

    /** The capacity given for a subject, variant and workload; empty when it is measured or not given. */
    public OptionalDouble given(String subject, String variant, String workload) {
        if (capacity instanceof Given g && g.rps().containsKey(key(subject, variant, workload))) {
            return OptionalDouble.of(g.rps().get(key(subject, variant, workload)));
        }
        return OptionalDouble.empty();
    }

    /**
     * The points of one subject instance on one workload, in the order they run: the capacity run
     * (when measured), the shares ascending, then the rates ascending. Overloaded windows thus come
     * last, and the capacity, which the shares need, first. Without a capacity for it (given, and
     * missing for this subject), only the rates.
     */
    public List<SweepPoint> points(String subject, String variant, String workload) {
        List<SweepPoint> out = new ArrayList<>();
        boolean measured = capacity instanceof Measured;
        if (measured) {
            out.add(new SweepPoint.Capacity());
        }
        if (measured || given(subject, variant, workload).isPresent()) {
            percents.forEach(p -> out.add(new SweepPoint.Fraction(p)));
        }
        rates.forEach(r -> out.add(new SweepPoint.Rate(r)));
        return out;
    }

    /** One line: {@code latency sweep 50%, 90%, 110% of capacity (measured each round) + 1000/s, SLO 10ms}. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (!percents.isEmpty()) {
            parts.add(String.join(", ", percents.stream().map(p -> new SweepPoint.Fraction(p).label()).toList())
                    + " of capacity (" + (capacity instanceof Given g ? "from " + g.from() : "measured each round") + ")");
        }
        if (!rates.isEmpty()) {
            parts.add(String.join(", ", rates.stream().map(r -> new SweepPoint.Rate(r).label()).toList()));
        }
        return "latency sweep " + String.join(" + ", parts) + slo.map(s -> ", SLO " + Durations.format(s)).orElse("");
    }

    /** The sweep as stored in {@code experiment.json}. */
    ObjectNode toJson() {
        ObjectNode o = Json.mapper().createObjectNode();
        ArrayNode p = o.putArray(SpecSection.PERCENT);
        percents.forEach(p::add);
        ArrayNode r = o.putArray(SpecSection.RATES);
        rates.forEach(r::add);
        if (capacity instanceof Given g) {
            ObjectNode c = o.putObject(SpecSection.CAPACITY);
            c.put(SpecSection.FROM, g.from());
            ObjectNode rps = c.putObject(SpecSection.RPS);
            new TreeMap<>(g.rps()).forEach(rps::put);
        } else {
            o.put(SpecSection.CAPACITY, SpecSection.MEASURED);
        }
        o.put(SpecSection.SLO, slo.map(Durations::format).orElse(null));
        return o;
    }

    /** Reads a sweep written by {@link #toJson}. */
    static Sweep fromJson(JsonNode o) {
        List<Double> percents = new ArrayList<>();
        o.path(SpecSection.PERCENT).forEach(v -> percents.add(v.asDouble()));
        List<Double> rates = new ArrayList<>();
        o.path(SpecSection.RATES).forEach(v -> rates.add(v.asDouble()));
        JsonNode c = o.path(SpecSection.CAPACITY);
        CapacitySource source = new Measured();
        if (c.isObject()) {
            Map<String, Double> rps = new LinkedHashMap<>();
            c.path(SpecSection.RPS).fields().forEachRemaining(e -> rps.put(e.getKey(), e.getValue().asDouble()));
            source = new Given(c.path(SpecSection.FROM).asText(), rps);
        }
        Optional<Duration> slo = o.hasNonNull(SpecSection.SLO) ? Optional.of(Durations.parse(o.get(SpecSection.SLO).asText())) : Optional.empty();
        return new Sweep(percents, rates, source, slo);
    }
}
