package io.loadlab.stats;

import io.loadlab.data.RunColumn;

/**
 * The names of the columns that the tables of {@code stats} add to what they take from
 * {@code runs.csv}: the summary ({@link Stats#summarize}), the comparison
 * ({@link Comparison#compare}), the latency curves ({@link LatencyCurves#curves}), the comparison
 * at equal rates ({@link EqualRates#compare}), the cost of protocols, the engines' comparison and
 * rankings ({@link Engines}) and the reconciliation of experiments ({@link Reconcile},
 * {@link Reconciliation#pairs}). A name that several tables share means the same in each. The group columns
 * (subject, variant, workload), the protocol, and a figure that is the mean or the merged value of
 * a runs.csv column (rps, missed, target_rps, lat_p99_us, ...) keep that column's name, given by
 * {@link RunColumn}. The CLI, the charts and the notebooks read these tables through these names,
 * so that a table and its readers cannot drift apart; the names are part of the CSV files that
 * {@code compare --format csv} and its {@code --table} CSVs write, so they never change.
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
    /** The ends of the 95% confidence interval of the mean (of the ratio of ratios, when reconciling). */
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
    /** {@link #P_TEST} adjusted for multiplicity within its family (one workload and metric): the p the verdict used. */
    P_ADJUSTED("p_adjusted"),
    /** The multiplicity adjustment of {@link #P_ADJUSTED}: {@code holm} or {@code none} ({@link Adjustment#label()}). */
    ADJUSTMENT("adjustment"),
    /** The p-value of the two one-sided tests of equivalence within 1 ± noise (TOST). */
    P_EQUIVALENCE("p_equivalence"),
    /** The smallest difference the verdict rule would call with 80% power, a fraction (0.029 = 2.9%). */
    SMALLEST_DETECTABLE("smallest_detectable"),
    /** About how many rounds each would decide an undecided comparison; empty when decided. */
    ROUNDS_ADVISED("rounds_advised"),
    P_WELCH("p_welch"),
    P_MANNWHITNEY("p_mannwhitney"),
    /** {@link Verdict#label()}, or {@link Agreement#label()} when reconciling. */
    VERDICT("verdict"),
    /** The baseline's label, {@code subject [variant]}; when reconciling, the pair's second subject. */
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
    H1_CV("h1_cv"),

    // The engines' tables (Engines.compare and Engines.rankings); the engine is RunColumn.ENGINE.
    /** The built-in engine's {@link #N} and {@link #MEAN} on the same group, beside another engine's. */
    BUILTIN_N("builtin_n"),
    BUILTIN_MEAN("builtin_mean"),
    /** How many subjects (with variants) an order holds. */
    SUBJECTS("subjects"),
    /** The subjects best first, as {@code go-nethttp [tuned] > java-netty}. */
    ORDER("order"),
    BUILTIN_ORDER("builtin_order"),
    /** Whether two orders are the same (engines' rankings and reconciled experiments' alike). */
    SAME_ORDER("same_order"),
    /** The pairs two engines order oppositely where one of them tells the pair apart, {@code X / Y}. */
    CLEAR_SWAPS("clear_swaps"),
    /** The rank correlation of an engine's means with the built-in engine's. */
    SPEARMAN("spearman"),
    /** The best mean over the worst, under an engine and under the built-in one. */
    SPREAD("spread"),
    BUILTIN_SPREAD("builtin_spread"),

    // Reconciling experiments (Reconcile's rankings and Reconciliation.pairs).
    /** Which experiments a row holds against each other, {@code A vs B}. */
    EXPERIMENTS("experiments"),
    /** The engine of the runs, or {@code builtin / wrk} when two experiments used different ones. */
    ENGINES("engines"),
    /** The subjects' order in the first experiment and in the other one, best first. */
    ORDER_A("order_a"),
    ORDER_B("order_b"),
    /** The pairs whose ratio lies on opposite sides of 1 in the two experiments, {@code X / Y}. */
    SWAPPED("swapped"),
    /** Subjects measured in one of the two experiments only. */
    ONLY_IN_A("only_in_a"),
    ONLY_IN_B("only_in_b"),
    /** mean(subject) / mean(baseline) in the first experiment and in the other one. */
    RATIO_A("ratio_a"),
    RATIO_B("ratio_b"),
    /** {@link #RATIO_A} / {@link #RATIO_B}; its 95% interval is {@link #CI_LOW} to {@link #CI_HIGH}. */
    RATIO_OF_RATIOS("ratio_of_ratios"),
    /** Whether two experiments agree within their noise; missing with too few rounds. */
    AGREE("agree"),
    /** The p-value of the test of a ratio of ratios. */
    P("p"),
    /** The rounds of both subjects in each experiment (the smaller count). */
    N_A("n_a"),
    N_B("n_b"),
    /** How each experiment's ratio was estimated ({@link Design#label()}). */
    TEST_A("test_a"),
    TEST_B("test_b"),
    /** The names of the two experiments, {@code A} and {@code B}. */
    EXPERIMENT_A("experiment_a"),
    EXPERIMENT_B("experiment_b"),
    /** The facts that differ between two experiments that disagree, joined by {@code "; "}. */
    DIFFERENCES("differences"),
    /** The environment side by side: the fact (CPU model, a subject's version, a setting) of each row. */
    ITEM("item"),
    /** The environment side by side: {@code yes} where the experiments' values differ, {@code unknown} where one did not record it. */
    DIFFERS("differs"),
    /** A knee's p99 objective (µs). */
    SLO_US("slo_us"),
    /** A knee: the highest achieved throughput (requests/s) at which p99 stays under the objective. */
    KNEE_RPS("knee_rps"),
    /** The knee's bootstrap 95% interval, low end (requests/s). */
    KNEE_CI_LOW_RPS("knee_ci_low_rps"),
    /** The knee's bootstrap 95% interval, high end (requests/s). */
    KNEE_CI_HIGH_RPS("knee_ci_high_rps"),
    /** How the knee is bounded: {@code >} when p99 stayed under the objective at every point of the sweep. */
    BOUND("bound"),
    /** The knee as people read it, such as {@code > 20,000 rps}. */
    KNEE("knee"),
    /** The rounds a knee or a warning rests on. */
    ROUNDS("rounds"),
    /** A warning's kind, such as {@code high_cv} ({@code Warning.KINDS}). */
    KIND("kind"),
    /** A warning's sentence. */
    MESSAGE("message");

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
