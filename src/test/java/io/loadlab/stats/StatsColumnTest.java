package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.ExperimentRecord;
import io.loadlab.data.RunColumn;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class StatsColumnTest {

    /** The runs.csv columns that stats' tables keep: the group's, and the engine's in the engines' tables. */
    private static final Set<String> GROUP = Set.of(RunColumn.SUBJECT.id(), RunColumn.VARIANT.id(),
            RunColumn.WORKLOAD.id(), RunColumn.ENGINE.id());

    @Test
    void percentileIntervalColumnsKeepTheRunsColumnsStem() {
        assertEquals("lat_p99_ci_low_us", StatsColumn.ciLow(RunColumn.LAT_P99_US));
        assertEquals("lat_p99_ci_high_us", StatsColumn.ciHigh(RunColumn.LAT_P99_US));
        assertEquals("svc_p999_ci_low_us", StatsColumn.ciLow(RunColumn.SVC_P999_US));
    }

    @Test
    void aColumnThatIsNotALatencyHasNoPercentileInterval() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StatsColumn.ciLow(RunColumn.RPS));
        assertTrue(e.getMessage().contains("'rps'"), e.getMessage());
    }

    @Test
    void theSummaryIsTheGroupColumnsThenStatsColumns() {
        Table runs = new RunsTable("rps").group("alpha", "plaintext", 1, 2, 3).table();
        List<String> names = Stats.summarize(runs, RunColumn.RPS.id()).columnNames();
        assertEquals(List.of("subject", "variant", "workload", "metric", "n", "mean", "sd", "cv", "median", "min",
                "max", "ci_low", "ci_high"), names);
        assertEquals(Set.of(), notNamedHere(names));
    }

    @Test
    void everyColumnOfTheComparisonIsNamedByRunColumnOrStatsColumn() {
        Table runs = new RunsTable("rps").group("alpha", "plaintext", 1, 2, 3).group("beta", "plaintext", 2, 3, 4)
                .table();
        List<String> names = Comparison.compare(runs, "rps", "alpha", CompareOptions.defaults()).columnNames();
        assertEquals(List.of("subject", "workload", "metric", "n", "mean", "sd", "ci_low", "ci_high", "ratio",
                "ratio_ci_low", "ratio_ci_high", "p_welch", "p_mannwhitney", "verdict", "variant", "baseline", "note",
                "test", "p_test", "p_adjusted", "adjustment", "p_equivalence", "smallest_detectable", "rounds_advised"),
                names);
        assertEquals(Set.of(), notNamedHere(names));
    }

    @Test
    void everyColumnOfTheEnginesTablesIsNamedByRunColumnOrStatsColumn() {
        Table runs = new RunsTable("rps").group("alpha", "plaintext", 100, 101, 99)
                .group("beta", "plaintext", 200, 202, 198).group("alpha", "plaintext", 90, 91, 89)
                .group("beta", "plaintext", 150, 151, 149).table();
        runs.addColumns(StringColumn.create(RunColumn.ENGINE.id(), "builtin", "builtin", "builtin", "builtin", "builtin",
                "builtin", "wrk", "wrk", "wrk", "wrk", "wrk", "wrk"));
        List<String> compare = Engines.compare(runs, "rps").columnNames();
        assertEquals(List.of("subject", "variant", "workload", "engine", "metric", "n", "mean", "builtin_n",
                "builtin_mean", "ratio", "ratio_ci_low", "ratio_ci_high", "p_welch", "verdict", "note", "test", "p_test"),
                compare);
        assertEquals(Set.of(), notNamedHere(compare));
        Table rankings = Engines.rankings(runs, "rps");
        assertEquals(List.of("workload", "engine", "metric", "subjects", "order", "builtin_order", "same_order",
                "clear_swaps", "spearman", "spread", "builtin_spread"), rankings.columnNames());
        assertEquals(Set.of(), notNamedHere(rankings.columnNames()));
        assertEquals("beta > alpha", rankings.stringColumn(StatsColumn.ORDER.id()).get(0));
        assertEquals(true, rankings.booleanColumn(StatsColumn.SAME_ORDER.id()).get(0));
    }

    @Test
    void everyColumnOfAReconciliationIsNamedByRunColumnOrStatsColumnAndTheCsvHasThePairsColumns() {
        Table a = new RunsTable("rps").experiment("a").group("web", "json", 100, 110, 90)
                .group("api", "json", 50, 52, 48).table();
        Table b = new RunsTable("rps").experiment("b").group("web", "json", 200, 212, 190)
                .group("api", "json", 101, 103, 95).table();
        Reconciliation r = Reconcile.of(List.of(new Reconcile.Input(record("a"), a), new Reconcile.Input(record("b"), b)),
                "rps", null, CompareOptions.defaults());
        List<String> rankings = r.rankings().columnNames();
        assertEquals(List.of("workload", "experiments", "engines", "order_a", "order_b", "same_order", "swapped",
                "only_in_a", "only_in_b"), rankings);
        assertEquals(Set.of(), notNamedHere(rankings));
        List<String> pairs = r.pairs().columnNames();
        assertEquals(List.of("workload", "subject", "baseline", "ratio_a", "ratio_b", "ratio_of_ratios", "ci_low",
                "ci_high", "agree", "verdict", "p", "n_a", "n_b", "test_a", "test_b", "engines", "experiment_a",
                "experiment_b", "note", "differences"), pairs);
        assertEquals(Reconciliation.PAIR_COLUMNS, pairs, "compare --format csv writes the pairs table's columns");
        assertEquals(Set.of(), notNamedHere(pairs));
    }

    /** A name defined twice (here, or here and in runs.csv) would let two tables drift apart under one name. */
    @Test
    void everyNameIsDefinedOnce() {
        List<String> ids = Arrays.stream(StatsColumn.values()).map(StatsColumn::id).toList();
        assertEquals(ids.size(), Set.copyOf(ids).size(), "a name twice in StatsColumn: " + ids);
        Set<String> inRuns = Arrays.stream(RunColumn.values()).map(RunColumn::id).collect(Collectors.toSet());
        assertEquals(List.of(), ids.stream().filter(inRuns::contains).toList(), "StatsColumn repeats runs.csv's names");
    }

    private static ExperimentRecord record(String name) {
        return new ExperimentRecord(Path.of(name), name, "", false, Map.of());
    }

    /** The names that are neither a group column nor one of {@link StatsColumn}. */
    private static Set<String> notNamedHere(List<String> names) {
        Set<String> known = Arrays.stream(StatsColumn.values()).map(StatsColumn::id).collect(Collectors.toSet());
        return names.stream().filter(n -> !GROUP.contains(n) && !known.contains(n)).collect(Collectors.toSet());
    }
}
