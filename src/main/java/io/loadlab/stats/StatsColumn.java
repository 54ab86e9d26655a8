package io.loadlab.stats;

import io.loadlab.data.RunColumn;

/**
 * The names of the columns that the tables of {@code stats} add to what they take from
 * {@code runs.csv}: the summary ({@link Stats#summarize}), the comparison
 * ({@link Comparison#compare}), the latency curves ({@link LatencyCurves#curves}), the comparison
 * at equal rates ({@link EqualRates#compare}) and the cost of protocols. The group columns
 * (subject, variant, workload), the protocol, and a figure that is the mean or the merged value of
 * a runs.csv column (rps, missed, target_rps, lat_p99_us, ...) keep that column's name, given by
 * {@link RunColumn}. The CLI, the charts and the notebooks read these tables through these names,
 * so that a table and its readers cannot drift apart; the names are part of the CSV files that
 * {@code compare --csv} and {@code --sweep-csv} write, so they never change.
 */
public enum StatsColumn {
    /** The metric summarized or compared: a runs.csv column such as {@code rps}. */
    METRIC("metric"),
    /** The number of runs (one per round) behind a figure. */
    N("n"),
    MEAN("mean"),
    /** Sample standard deviation, in the metric's unit. */
    SD("sd"),
    /** Coefficient of variation, a fraction. */
    CV("cv"),
    MEDIAN("median"),
    MIN("min"),
    MAX("max"),
    /** The ends of the 95% confidence interval of the mean. */
    CI_LOW("ci_low"),
    CI_HIGH("ci_high"),
    /** A group's mean over the baseline's (or over h1's, for protocols). */
    RATIO("ratio"),
    /** The ends of the ratio's 95% interval. */
    RATIO_CI_LOW("ratio_ci_low"),
    RATIO_CI_HIGH("ratio_ci_high"),
    /** The test the verdict rests on ({@link Design#label()}). */
    TEST("test"),
    /** The p-value of {@link #TEST}. */
    P_TEST("p_test"),
    P_WELCH("p_welch"),
    P_MANNWHITNEY("p_mannwhitney"),
    /** {@link Verdict#label()}. */
    VERDICT("verdict"),
    /** The baseline's label, {@code subject [variant]}. */
    BASELINE("baseline"),
    /** Why a row has no test, or what to keep in mind reading it. */
    NOTE("note"),
    /** A sweep point as people read it: {@code 50%} or {@code 2000/s}. */
    POINT("point"),
    /** A sweep point's {@link RunColumn.SweepRole}: {@code fraction} or {@code rate}. */
    ROLE("role"),
    /** The ends of the 95% interval of a sweep point's achieved requests/s. */
    RPS_CI_LOW("rps_ci_low"),
    RPS_CI_HIGH("rps_ci_high"),
    /** The offered rate that the runs of one comparison at equal rates share, requests/s. */
    RATE_RPS("rate_rps"),
    /** The mean over rounds of each round's p99, µs, and the ends of its 95% interval. */
    P99_MEAN_US("p99_mean_us"),
    P99_CI_LOW_US("p99_ci_low_us"),
    P99_CI_HIGH_US("p99_ci_high_us"),
    /** h1's figures next to another protocol's. */
    H1_N("h1_n"),
    H1_MEAN("h1_mean"),
    H1_CV("h1_cv");

    private static final String MICROS = "_us";

    private final String id;

    StatsColumn(String id) {
        this.id = id;
    }

    /** The column's name in the table and in its CSV, such as {@code ratio_ci_low}. */
    public String id() {
        return id;
    }

    /**
     * The column of the low end of a latency percentile's 95% interval in the latency curves:
     * {@code lat_p99_ci_low_us} for {@link RunColumn#LAT_P99_US}.
     *
     * @param percentile a runs.csv latency column in µs, such as {@code lat_p99_us}
     * @throws IllegalArgumentException for a column that is not in µs
     */
    public static String ciLow(RunColumn percentile) {
        return stem(percentile) + "_ci_low" + MICROS;
    }

    /** The column of the high end: {@code lat_p99_ci_high_us}; see {@link #ciLow}. */
    public static String ciHigh(RunColumn percentile) {
        return stem(percentile) + "_ci_high" + MICROS;
    }

    private static String stem(RunColumn percentile) {
        if (!percentile.id().endsWith(MICROS)) {
            throw new IllegalArgumentException("column '" + percentile.id() + "' is not a latency in µs");
        }
        return percentile.id().substring(0, percentile.id().length() - MICROS.length());
    }
}
