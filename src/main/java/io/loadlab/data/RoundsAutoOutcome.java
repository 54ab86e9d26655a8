package io.loadlab.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What {@code loadlab run --rounds auto} did, as {@code experiment.json} keeps it under
 * {@link ExperimentJson#ROUNDS_AUTO}: the rounds it took, why it stopped, the level of each look, and
 * each comparison's verdict at the last look. The owner of these field names; written by the runner
 * after each look, read by the run's summary and the report.
 *
 * @param roundsTaken  complete rounds when it stopped
 * @param stopped      why
 * @param reason       the reason in words, e.g. {@code 3 of 3 comparisons decided after round 5}
 * @param maxRounds    the most rounds it could run
 * @param budget       the time it could take, as written ({@code 5m}); empty for none
 * @param alpha        the level of the whole experiment's rule
 * @param alphaPerLook the level of each look's test
 * @param metric       the runs.csv column compared
 * @param baseline     the baseline subject
 * @param comparisons  each comparison at the last look
 */
public record RoundsAutoOutcome(int roundsTaken, Stop stopped, String reason, int maxRounds, Optional<String> budget,
                                double alpha, double alphaPerLook, String metric, String baseline,
                                List<Compared> comparisons) {

    public static final String ROUNDS_TAKEN = "rounds_taken";
    /** One of {@link Stop}'s values. */
    public static final String STOPPED = "stopped";
    public static final String REASON = "reason";
    public static final String MAX_ROUNDS = "max_rounds";
    /** A duration as written, or null. */
    public static final String BUDGET = "budget";
    public static final String ALPHA = "alpha";
    public static final String ALPHA_PER_LOOK = "alpha_per_look";
    public static final String METRIC = "metric";
    public static final String BASELINE = "baseline";
    /** An array of objects of {@link #SUBJECT}, {@link #WORKLOAD}, {@link #VERDICT}, {@link #DECIDED}, {@link #RATIO}, {@link #P_TEST}. */
    public static final String COMPARISONS = "comparisons";
    public static final String SUBJECT = "subject";
    public static final String WORKLOAD = "workload";
    public static final String VERDICT = "verdict";
    public static final String DECIDED = "decided";
    public static final String RATIO = "ratio";
    public static final String P_TEST = "p_test";

    /** Why the rounds stopped. */
    public enum Stop {
        /** Every comparison with the baseline was decided. */
        DECIDED,
        /** The most rounds ran. */
        MAX_ROUNDS,
        /** Another round would have run past the time budget. */
        BUDGET,
        /** Not stopped yet (written after a look that went on; an interrupted experiment keeps it). */
        RUNNING;

        /** As stored: {@code decided}, {@code max_rounds}, {@code budget}, {@code running}. */
        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Stop of(String value) {
            for (Stop s : values()) {
                if (s.value().equals(value)) {
                    return s;
                }
            }
            throw new DataException("experiment.json: " + ExperimentJson.ROUNDS_AUTO + "." + STOPPED + " '" + value
                    + "' is none of decided, max_rounds, budget, running");
        }
    }

    /**
     * One comparison at the last look.
     *
     * @param subject  the subject with its variant ({@code nginx [tuned]})
     * @param verdict  the verdict's label
     * @param decided  whether it was decided
     * @param ratio    mean over the baseline's mean; NaN when undefined
     * @param pTest    the test's p; NaN when none was made
     */
    public record Compared(String subject, String workload, String verdict, boolean decided, double ratio,
                           double pTest) {
    }

    public RoundsAutoOutcome {
        comparisons = List.copyOf(comparisons);
    }

    /** One line for a summary: {@code rounds auto: 5 rounds of at most 10; stopped: decided (...)}. */
    public String line() {
        return String.format(Locale.ROOT, "rounds auto: %d round%s of at most %d%s; stopped: %s (%s); each look at"
                        + " alpha %s (%s split over %d looks)", roundsTaken, roundsTaken == 1 ? "" : "s", maxRounds,
                budget.map(b -> ", budget " + b).orElse(""), stopped.value(), reason,
                RunRow.num(alphaPerLook), RunRow.num(alpha), Math.round(alpha / alphaPerLook));
    }

    void write(ObjectNode o) {
        o.put(ROUNDS_TAKEN, roundsTaken).put(STOPPED, stopped.value()).put(REASON, reason).put(MAX_ROUNDS, maxRounds);
        if (budget.isPresent()) {
            o.put(BUDGET, budget.get());
        } else {
            o.putNull(BUDGET);
        }
        o.put(ALPHA, alpha).put(ALPHA_PER_LOOK, alphaPerLook).put(METRIC, metric).put(BASELINE, baseline);
        var array = o.putArray(COMPARISONS);
        for (Compared c : comparisons) {
            ObjectNode x = array.addObject().put(SUBJECT, c.subject()).put(WORKLOAD, c.workload())
                    .put(VERDICT, c.verdict()).put(DECIDED, c.decided());
            number(x, RATIO, c.ratio());
            number(x, P_TEST, c.pTest());
        }
    }

    /** NaN (undefined) is null in JSON. */
    private static void number(ObjectNode o, String field, double v) {
        if (Double.isFinite(v)) {
            o.put(field, v);
        } else {
            o.putNull(field);
        }
    }

    static RoundsAutoOutcome read(JsonNode o) {
        List<Compared> compared = new ArrayList<>();
        for (JsonNode c : o.path(COMPARISONS)) {
            compared.add(new Compared(c.path(SUBJECT).asText(""), c.path(WORKLOAD).asText(""),
                    c.path(VERDICT).asText(""), c.path(DECIDED).asBoolean(false),
                    c.path(RATIO).isNumber() ? c.get(RATIO).asDouble() : Double.NaN,
                    c.path(P_TEST).isNumber() ? c.get(P_TEST).asDouble() : Double.NaN));
        }
        return new RoundsAutoOutcome(o.path(ROUNDS_TAKEN).asInt(0), Stop.of(o.path(STOPPED).asText("")),
                o.path(REASON).asText(""), o.path(MAX_ROUNDS).asInt(0),
                o.path(BUDGET).isTextual() ? Optional.of(o.get(BUDGET).asText()) : Optional.empty(),
                o.path(ALPHA).asDouble(Double.NaN), o.path(ALPHA_PER_LOOK).asDouble(Double.NaN),
                o.path(METRIC).asText(""), o.path(BASELINE).asText(""), compared);
    }
}
