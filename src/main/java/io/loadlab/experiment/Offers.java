package io.loadlab.experiment;

import static io.loadlab.data.RunRow.num;

import io.loadlab.data.RunColumn;
import io.loadlab.data.RunRow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The load each planned run offers its subject: the experiment's rate (or a closed loop) and, in a
 * latency sweep, its point's rate with the sweep's columns. A share of capacity takes the capacity
 * of its own round's capacity run (recorded in this session, or read back from {@code runs.csv} on
 * resume) or the capacity the spec was given; the plan itself holds no rates, so that it stays a
 * pure function of the spec. Used by the runner's thread only.
 */
final class Offers {

    /**
     * What one run offers.
     *
     * @param rate    the fixed rate in requests/s; empty for a closed loop
     * @param columns the sweep's columns of the row ({@code sweep_role}, {@code capacity_rps},
     *                {@code capacity_fraction}); empty outside a sweep
     * @param refusal why the run cannot be measured (a share of a capacity that was not measured)
     */
    record Offer(OptionalDouble rate, Map<String, String> columns, Optional<String> refusal) {
        Offer {
            columns = Map.copyOf(columns);
        }
    }

    private final ExperimentSpec spec;
    /** Capacity runs by round, subject, variant and workload. */
    private final Map<String, RunRow> capacityRuns = new HashMap<>();

    private Offers(ExperimentSpec spec) {
        this.spec = spec;
    }

    /** The offers of an experiment whose runs {@code recorded} are already in its runs.csv. */
    static Offers of(ExperimentSpec spec, List<RunRow> recorded) {
        Offers o = new Offers(spec);
        recorded.forEach(o::recorded);
        return o;
    }

    /** Notes a recorded row: a capacity run's row gives the rates of its round's shares. */
    void recorded(RunRow row) {
        if (row.get(RunColumn.SWEEP_ROLE).equals(RunColumn.SweepRole.CAPACITY.value())) {
            capacityRuns.put(key(row.get(RunColumn.ROUND), row.get(RunColumn.SUBJECT), row.get(RunColumn.VARIANT),
                    row.get(RunColumn.WORKLOAD)), row);
        }
    }

    /** What {@code run} offers its subject. */
    Offer offer(Plan.Run run) {
        if (run.point().isEmpty()) {
            return new Offer(spec.load().rate(), Map.of(), Optional.empty());
        }
        SweepPoint point = run.point().get();
        Map<String, String> columns = new HashMap<>();
        columns.put(RunColumn.SWEEP_ROLE.id(), point.role());
        Capacity capacity = capacity(run);
        if (point.needsCapacity() && Double.isNaN(capacity.rps())) {
            return new Offer(OptionalDouble.empty(), columns, Optional.of("no rate for " + point.label()
                    + " of capacity: " + capacity.why()));
        }
        OptionalDouble rate = point.rate(capacity.rps());
        if (rate.isPresent() && !Double.isNaN(capacity.rps())) {
            columns.put(RunColumn.CAPACITY_RPS.id(), num(capacity.rps()));
            columns.put(RunColumn.CAPACITY_FRACTION.id(), point instanceof SweepPoint.Fraction f ? num(f.fraction())
                    : num(rate.getAsDouble() / capacity.rps()));
        }
        return new Offer(rate, columns, Optional.empty());
    }

    /** A capacity in requests/s (NaN when there is none) and, then, why. */
    private record Capacity(double rps, String why) {
    }

    private Capacity capacity(Plan.Run run) {
        Plan.Instance inst = run.instance();
        String workload = run.workload().name();
        Sweep sweep = spec.load().sweep().orElseThrow();
        if (sweep.capacity() instanceof Sweep.Given g) {
            OptionalDouble given = sweep.given(inst.subject().name(), inst.variantLabel(), workload);
            return given.isPresent() ? new Capacity(given.getAsDouble(), "")
                    : new Capacity(Double.NaN, g.from() + " has no closed-loop run of " + inst.label() + " " + workload);
        }
        RunRow row = capacityRuns.get(key(Integer.toString(run.round()), inst.subject().name(), inst.variantLabel(),
                workload));
        if (row == null) {
            return new Capacity(Double.NaN, "the capacity run of round " + run.round() + " has not been recorded");
        }
        double rps = row.get(RunColumn.RPS).isEmpty() ? Double.NaN : Double.parseDouble(row.get(RunColumn.RPS));
        if (!row.get(RunColumn.STATUS).equals(RunColumn.Status.OK.value()) || !(rps > 0)) {
            return new Capacity(Double.NaN, "the capacity run of round " + run.round() + " (run " + row.get(RunColumn.RUN_ID)
                    + ") " + (row.get(RunColumn.STATUS).equals(RunColumn.Status.OK.value()) ? "answered nothing" : "failed: " + row.get(RunColumn.ERROR)));
        }
        return new Capacity(rps, "");
    }

    private static String key(String round, String subject, String variant, String workload) {
        return round + "|" + Sweep.key(subject, variant, workload);
    }
}
