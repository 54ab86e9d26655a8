package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class EnginesTest {

    private final StringColumn subject = StringColumn.create("subject");
    private final StringColumn variant = StringColumn.create("variant");
    private final StringColumn workload = StringColumn.create("workload");
    private final StringColumn engine = StringColumn.create("engine");
    private final StringColumn status = StringColumn.create("status");
    private final IntColumn round = IntColumn.create("round");
    private final DoubleColumn rps = DoubleColumn.create("rps");

    private EnginesTest add(String s, String e, double... values) {
        return add(s, "", e, values);
    }

    private EnginesTest add(String s, String v, String e, double... values) {
        for (int i = 0; i < values.length; i++) {
            subject.append(s);
            variant.append(v);
            workload.append("plaintext");
            engine.append(e);
            status.append("ok");
            round.append(i + 1);
            rps.append(values[i]);
        }
        return this;
    }

    private Table table() {
        return Table.create("runs", subject, variant, workload, engine, status, round, rps);
    }

    private Table threeSubjects() {
        return add("a", "builtin", 100, 101, 99).add("a", "wrk", 100.5, 99.5, 100)
                .add("b", "builtin", 200, 202, 198).add("b", "wrk", 150, 151, 149)
                .add("c", "builtin", 150, 151, 149).add("c", "wrk", 160, 161, 159)
                .add("c", "h2load", 149, 151, 150).table();
    }

    @Test
    void eachEngineIsHeldAgainstTheBuiltInOneOnTheSameSubject() {
        Table t = Engines.compare(threeSubjects(), "rps");
        assertEquals(4, t.rowCount());
        assertEquals(List.of("a", "b", "c", "c"), t.stringColumn("subject").asList());
        assertEquals(List.of("wrk", "wrk", "h2load", "wrk"), t.stringColumn("engine").asList());
        // a/wrk and c/h2load are within 1-2% of builtin over 3 rounds: too few to show a difference or equivalence.
        assertEquals(List.of("undecided", "lower", "undecided", "higher"),
                t.stringColumn("verdict").asList());
        assertEquals(0.75, t.doubleColumn("ratio").get(1), 1e-12);
        assertEquals(200, t.doubleColumn("builtin_mean").get(1), 1e-12);
        double low = t.doubleColumn("ratio_ci_low").get(1);
        double high = t.doubleColumn("ratio_ci_high").get(1);
        assertTrue(low < 0.75 && 0.75 < high && high < 0.77 && low > 0.73, low + " .. " + high);
        assertTrue(t.doubleColumn("p_welch").get(1) < 0.001);
        assertEquals(List.of("paired", "paired", "paired", "paired"), t.stringColumn("test").asList(),
                "each subject process is loaded by every engine in the same rounds");
        assertTrue(t.stringColumn("note").get(1).contains("25.0% less"), t.stringColumn("note").get(1));
    }

    @Test
    void enginesFollowTheComparisonsRuleAndWords() {
        // Regression (issue 11): Engines had a rule and words of its own; now Verdicts decides for both.
        Table t = add("a", "builtin", 1000, 1100, 950).add("a", "wrk", 1005, 1105.5, 954.75)
                .add("b", "builtin", 100, 101).add("b", "wrk", 150, 151).table();
        Table e = Engines.compare(t, "rps");
        assertEquals(List.of("a", "b"), e.stringColumn("subject").asList());
        assertEquals(List.of("equivalent", "too few rounds"), e.stringColumn("verdict").asList());
        assertEquals("equivalent: the ratio's 90% CI [1.005, 1.005] lies inside 1 ± 1% (TOST p < 0.001)",
                e.stringColumn("note").get(0), "+0.5% in every round: certain, and within the noise band");
        assertEquals(0.0, e.doubleColumn("p_test").get(0));
        assertEquals("paired", e.stringColumn("test").get(0));
        assertEquals("too few rounds: n=2, builtin n=2; a verdict needs 3 rounds each", e.stringColumn("note").get(1));
        assertEquals("", e.stringColumn("test").get(1));
        // The same rounds as a comparison of subjects give the same verdict.
        Table asSubjects = Table.create("runs", StringColumn.create("subject", "x", "x", "x", "y", "y", "y"),
                StringColumn.create("variant", "", "", "", "", "", ""), StringColumn.create("workload", "w", "w", "w",
                        "w", "w", "w"), StringColumn.create("status", "ok", "ok", "ok", "ok", "ok", "ok"),
                IntColumn.create("round", 1, 2, 3, 1, 2, 3), DoubleColumn.create("rps", 1000, 1100, 950, 1005, 1105.5,
                        954.75));
        ComparisonRow y = Comparison.rows(asSubjects, "rps", "x", CompareOptions.defaults()).get(1);
        assertEquals(Verdict.EQUIVALENT, y.verdict());
        assertEquals(e.stringColumn("note").get(0), y.note());
    }

    @Test
    void rankingsSayWhetherAnEngineOrdersTheSubjectsAlike() {
        Table t = Engines.rankings(threeSubjects(), "rps");
        assertEquals(2, t.rowCount());
        int wrk = t.stringColumn("engine").indexOf("wrk");
        assertEquals("c > b > a", t.stringColumn("order").get(wrk));
        assertEquals("b > c > a", t.stringColumn("builtin_order").get(wrk));
        assertFalse(t.booleanColumn("same_order").get(wrk));
        // Both engines tell b and c apart (about 1% noise), in opposite directions.
        assertEquals("c / b", t.stringColumn("clear_swaps").get(wrk));
        assertEquals(0.5, t.doubleColumn("spearman").get(wrk), 1e-12);
        assertEquals(1.6, t.doubleColumn("spread").get(wrk), 1e-12);
        assertEquals(2.0, t.doubleColumn("builtin_spread").get(wrk), 1e-12);
        int h2 = t.stringColumn("engine").indexOf("h2load");
        assertEquals(1, t.intColumn("subjects").get(h2), "only c was run by h2load");
        assertTrue(t.booleanColumn("same_order").get(h2));
    }

    @Test
    void aSwapWithinTheNoiseIsNotAClearOne() {
        // x and y swap places, but neither engine can tell them apart (rounds spread by 10%);
        // z is far behind under both.
        add("x", "builtin", 100, 120, 90).add("x", "wrk", 95, 115, 100)
                .add("y", "builtin", 98, 110, 97).add("y", "wrk", 100, 118, 96)
                .add("z", "builtin", 50, 51, 49).add("z", "wrk", 50, 49, 51);
        Table t = Engines.rankings(table(), "rps");
        assertEquals("y > x > z", t.stringColumn("order").get(0));
        assertEquals("x > y > z", t.stringColumn("builtin_order").get(0));
        assertFalse(t.booleanColumn("same_order").get(0));
        assertEquals("", t.stringColumn("clear_swaps").get(0));
    }

    @Test
    void aSwapThatOneEngineTellsApartIsClear() {
        // Under wrk y is clearly ahead of x; under the built-in engine x leads within its noise.
        add("x", "builtin", 100, 120, 90).add("x", "wrk", 100, 101, 99)
                .add("y", "builtin", 98, 110, 97).add("y", "wrk", 120, 121, 119);
        Table t = Engines.rankings(table(), "rps");
        assertEquals("y > x", t.stringColumn("order").get(0));
        assertEquals("x > y", t.stringColumn("builtin_order").get(0));
        assertEquals("y / x", t.stringColumn("clear_swaps").get(0));
    }

    @Test
    void rankingsLabelAVariantAsTheGroupDoes() {
        // x's tuned variant leads under the built-in engine and falls behind y under wrk, clearly.
        add("x", "builtin", 100, 101, 99).add("x", "wrk", 100, 101, 99)
                .add("x", "tuned", "builtin", 200, 202, 198).add("x", "tuned", "wrk", 120, 121, 119)
                .add("y", "builtin", 150, 151, 149).add("y", "wrk", 150, 151, 149);
        Table t = Engines.rankings(table(), "rps");
        assertEquals("y > x [tuned] > x", t.stringColumn("order").get(0));
        assertEquals("x [tuned] > y > x", t.stringColumn("builtin_order").get(0));
        assertEquals("y / x [tuned]", t.stringColumn("clear_swaps").get(0));
        assertEquals(3, t.intColumn("subjects").get(0));
    }

    @Test
    void equalMeansAreOrderedBySubjectThenVariant() {
        add("x", "tuned", "builtin", 100, 100, 100).add("x", "tuned", "wrk", 100, 100, 100)
                .add("x", "builtin", 100, 100, 100).add("x", "wrk", 100, 100, 100)
                .add("w", "builtin", 100, 100, 100).add("w", "wrk", 100, 100, 100);
        Table t = Engines.rankings(table(), "rps");
        assertEquals("w > x > x [tuned]", t.stringColumn("order").get(0));
        assertEquals("w > x > x [tuned]", t.stringColumn("builtin_order").get(0));
    }

    @Test
    void latencyIsOrderedLowestFirst() {
        add("a", "builtin", 100, 100).add("a", "wrk", 110, 110).add("b", "builtin", 300, 300).add("b", "wrk", 200, 200);
        Table t = Table.create("runs", subject, variant, workload, engine, status, round, rps.setName("lat_p99_us"));
        Table r = Engines.rankings(t, "lat_p99_us");
        assertEquals("a > b", r.stringColumn("order").get(0));
    }

    @Test
    void otherAnalysesKeepEnginesApart() {
        Table s = Stats.summarize(threeSubjects(), "rps");
        assertEquals(7, s.rowCount());
        assertEquals(List.of("", "engine=wrk", "", "engine=wrk", "", "engine=h2load", "engine=wrk"),
                s.stringColumn("variant").asList());
        assertEquals(150, s.doubleColumn("mean").get(3), 1e-12);
    }

    @Test
    void withoutBuiltInRunsItSaysWhatToRun() {
        Table t = add("a", "wrk", 1, 2).table();
        StatsException e = assertThrows(StatsException.class, () -> Engines.compare(t, "rps"));
        assertTrue(e.getMessage().contains("--engine builtin,wrk") && e.getMessage().contains("engines in these runs: wrk"),
                e.getMessage());
        Table noEngine = Table.create("runs", subject.copy(), variant.copy(), workload.copy(), status.copy(),
                round.copy(), rps.copy());
        assertThrows(StatsException.class, () -> Engines.rankings(noEngine, "rps"));
    }
}
