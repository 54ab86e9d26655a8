package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class AnalysisGroupsTest {

    private static List<String> variants(Table runs) {
        AnalysisGroups g = AnalysisGroups.of(runs);
        return IntStream.range(0, runs.rowCount()).mapToObj(g::variant).toList();
    }

    @Test
    void onlyTheSettingThatDiffersIsAppendedAndOnlyInItsGroup() {
        Table runs = Table.create("runs",
                StringColumn.create("subject", "s", "s", "s", "t", "t"),
                StringColumn.create("variant", "durability=fsync", "durability=fsync", "durability=fsync", "", ""),
                StringColumn.create("workload", "w", "w", "w", "w", "w"),
                StringColumn.create("engine", "builtin", "wrk", "builtin", "builtin", "builtin"),
                IntColumn.create("connections", 256, 16, 16, 64, 64),
                DoubleColumn.create("target_rps", 1000, 1000, 1000, 1000, 1000));
        assertEquals(List.of("durability=fsync,connections=256", "durability=fsync,engine=wrk,connections=16",
                "durability=fsync,connections=16", "", ""), variants(runs));
        AnalysisGroups g = AnalysisGroups.of(runs);
        assertEquals(List.of(new AnalysisGroups.Split("s", "durability=fsync", "w", List.of("16", "256"), List.of())),
                g.splits(), "numbers in numeric order, the rate did not differ");
        assertEquals("durability=fsync,connections=16", g.label(1).variantWithoutEngine());
        assertEquals("connections=16,rate=1000", g.label(1).settings());
    }

    @Test
    void missingSettingsAreValuesOfTheirOwn() {
        IntColumn connections = IntColumn.create("connections", 64, 64, 64);
        connections.setMissing(2);
        DoubleColumn rate = DoubleColumn.create("target_rps", 2500.5, 2500.5, 2500.5);
        rate.setMissing(0);
        Table runs = Table.create("runs", StringColumn.create("subject", "s", "s", "s"),
                StringColumn.create("workload", "w", "w", "w"), connections, rate);
        assertEquals(List.of("connections=64,rate=none", "connections=64,rate=2500.5",
                "connections=unknown,rate=2500.5"), variants(runs));
    }

    @Test
    void aTableWithoutSettingColumnsIsNeverSplit() {
        Table runs = Table.create("runs", StringColumn.create("subject", "s", "s"),
                StringColumn.create("variant", "v", "v"), StringColumn.create("workload", "w", "w"));
        assertEquals(List.of("v", "v"), variants(runs));
        assertEquals(List.of(), AnalysisGroups.of(runs).splits());
        assertThrows(DataException.class, () -> AnalysisGroups.of(Table.create("runs", StringColumn.create("subject"))));
    }
}
