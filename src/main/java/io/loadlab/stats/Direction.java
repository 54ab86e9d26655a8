package io.loadlab.stats;

import io.loadlab.data.RunColumn;
import java.util.Set;

/** Which way a metric is better, which decides the words of a verdict. */
public enum Direction {
    /** Throughput: more is better. */
    HIGHER_IS_BETTER,
    /** Latency: less is better. */
    LOWER_IS_BETTER,
    /** Resource use, error counts and the like: reported as higher or lower, without judging. */
    NEUTRAL;

    private static final Set<String> THROUGHPUT = Set.of(RunColumn.RPS.id(), RunColumn.RPS_PER_SERVER_CPU_S.id(),
            RunColumn.RPS_PER_LOAD_CPU_S.id(), RunColumn.REQUESTS.id());

    /** The direction of a runs.csv column: throughput, latency (lat_*, svc_*), or neutral for the rest. */
    public static Direction of(String metric) {
        if (THROUGHPUT.contains(metric)) {
            return HIGHER_IS_BETTER;
        }
        if (metric.startsWith("lat_") || metric.startsWith("svc_")) {
            return LOWER_IS_BETTER;
        }
        return NEUTRAL;
    }

    /** The verdict for a real difference whose ratio (subject / baseline) is {@code ratio}. */
    Verdict verdict(double ratio) {
        return switch (this) {
            case HIGHER_IS_BETTER -> ratio > 1 ? Verdict.FASTER : Verdict.SLOWER;
            case LOWER_IS_BETTER -> ratio < 1 ? Verdict.FASTER : Verdict.SLOWER;
            case NEUTRAL -> ratio > 1 ? Verdict.HIGHER : Verdict.LOWER;
        };
    }

    /** Whether {@code a} is worse than {@code b}; for neutral metrics, whether it is higher. */
    boolean worse(double a, double b) {
        return this == HIGHER_IS_BETTER ? a < b : a > b;
    }
}
