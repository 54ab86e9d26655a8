package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.RunColumn;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class StatsColumnTest {

    private static final Set<String> GROUP = Set.of(RunColumn.SUBJECT.id(), RunColumn.VARIANT.id(),
            RunColumn.WORKLOAD.id());

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
                "test", "p_test"), names);
        assertEquals(Set.of(), notNamedHere(names));
    }

    /** The names that are neither a group column nor one of {@link StatsColumn}. */
    private static Set<String> notNamedHere(List<String> names) {
        Set<String> known = Arrays.stream(StatsColumn.values()).map(StatsColumn::id).collect(Collectors.toSet());
        return names.stream().filter(n -> !GROUP.contains(n) && !known.contains(n)).collect(Collectors.toSet());
    }
}
