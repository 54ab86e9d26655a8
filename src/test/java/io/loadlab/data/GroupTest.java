package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class GroupTest {

    private static RunRow row(String engine, String role, String share, String rate) {
        return new RunRow(Map.of("subject", "nginx", "variant", "tuned", "workload", "plaintext", "engine", engine,
                "connections", "64", "sweep_role", role, "capacity_fraction", share, "target_rps", rate));
    }

    /** A latency sweep's rows with the built-in engine and with agents. */
    private static List<RunRow> sweep() {
        List<RunRow> rows = new ArrayList<>();
        for (String engine : List.of("builtin", "agents")) {
            rows.add(row(engine, "capacity", "", ""));
            rows.add(row(engine, "fraction", "0.5", "5000"));
            rows.add(row(engine, "fraction", "0.9", "9000"));
            rows.add(row(engine, "rate", "", "1000"));
        }
        return rows;
    }

    @Test
    void aRowsGroupIsTheGroupTheAnalysesGiveItAmongItsExperimentsRuns() {
        List<RunRow> rows = sweep();
        Table runs = Table.create("runs");
        for (String c : List.of("subject", "variant", "workload", "engine", "connections", "sweep_role",
                "capacity_fraction", "target_rps")) {
            runs.addColumns(StringColumn.create(c, rows.stream().map(r -> r.get(c)).toList()));
        }
        AnalysisGroups labels = AnalysisGroups.of(runs);
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(new Group("nginx", labels.variant(i), "plaintext"), Group.of(rows.get(i)), "row " + i);
        }
        assertEquals("tuned,engine=agents,rate=50%", Group.of(rows.get(5)).variant());
        assertEquals(8, new TreeSet<>(rows.stream().map(Group::of).toList()).size(), "no two points pooled");
    }

    @Test
    void theEngineOfARowSetsItApartUnlessItIsTheBuiltInOne() {
        RunRow builtin = row("builtin", "", "", "");
        assertEquals(new Group("nginx", "tuned", "plaintext"), Group.of(builtin));
        assertEquals(new Group("nginx", "tuned,engine=agents", "plaintext"), Group.of(row("agents", "", "", "")));
        assertNotEquals(Group.of(builtin), Group.of(row("wrk", "", "", "")));
    }

    @Test
    void oneLabelReadBackInBothSpellings() {
        Group g = new Group("nginx", "tuned", "plaintext");
        assertEquals("nginx [tuned]", g.subjectLabel());
        assertEquals("nginx [tuned] / plaintext", g.label());
        assertEquals("nginx / json", new Group("nginx", "", "json").label());
        for (String label : List.of("nginx [tuned]", "nginx[tuned]")) {
            assertEquals("nginx", Group.subjectOf(label), label);
            assertEquals(Optional.of("tuned"), Group.variantOf(label), label);
        }
        assertEquals("nginx", Group.subjectOf("nginx"));
        assertEquals(Optional.empty(), Group.variantOf("nginx"));
        assertEquals(Optional.empty(), Group.variantOf("[tuned]"), "a label that names no subject");
    }

    @Test
    void groupsOrderBySubjectVariantWorkloadAndRefuseNull() {
        List<Group> sorted = new ArrayList<>(new TreeSet<>(List.of(new Group("b", "", "a"), new Group("a", "x", "a"),
                new Group("a", "", "b"), new Group("a", "", "a"))));
        assertEquals(List.of(new Group("a", "", "a"), new Group("a", "", "b"), new Group("a", "x", "a"),
                new Group("b", "", "a")), sorted);
        assertThrows(DataException.class, () -> new Group("a", null, "w"));
    }
}
