package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadlab.data.ExperimentRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/**
 * Reconciling experiments whose subjects have variants: the labels are the group's
 * ({@code web [tuned]}), the pairs and the default baseline follow subject, then variant, and
 * {@code --baseline} names a variant in either spelling.
 */
class ReconcileTest {

    private static final CompareOptions O = CompareOptions.defaults();

    /** api, web and web [tuned] in both; cache in A only, db [fast] in B only. */
    private static List<Reconcile.Input> twoExperiments() {
        Table a = new RunsTable("rps").experiment("a").group("web", "", "json", 100, 110, 90)
                .group("web", "tuned", "json", 150, 160, 140).group("api", "", "json", 50, 52, 48)
                .group("cache", "", "json", 10, 11, 9).table();
        Table b = new RunsTable("rps").experiment("b").group("web", "", "json", 200, 212, 190)
                .group("web", "tuned", "json", 310, 318, 284).group("api", "", "json", 101, 103, 95)
                .group("db", "fast", "json", 10, 11, 9).table();
        return List.of(new Reconcile.Input(record("a"), a), new Reconcile.Input(record("b"), b));
    }

    private static ExperimentRecord record(String name) {
        return new ExperimentRecord(Path.of(name), name, "", false, Map.of());
    }

    private static List<String> pairs(Reconciliation r) {
        return r.rows().stream().map(p -> p.subject() + " / " + p.baseline()).toList();
    }

    @Test
    void everyPairIsLabelledAsTheGroupWithTheFirstBySubjectThenVariantAsBaseline() {
        Reconciliation r = Reconcile.of(twoExperiments(), "rps", null, O);
        assertEquals(List.of("web / api", "web [tuned] / api", "web [tuned] / web"), pairs(r));
        Table rankings = r.rankings();
        assertEquals("web [tuned] > web > api", rankings.stringColumn("order_a").get(0));
        assertEquals("cache", rankings.stringColumn("only_in_a").get(0));
        assertEquals("db [fast]", rankings.stringColumn("only_in_b").get(0));
    }

    @Test
    void aBaselineWithAVariantIsReadInEitherSpelling() {
        List<String> expected = List.of("api / web [tuned]", "web / web [tuned]");
        assertEquals(expected, pairs(Reconcile.of(twoExperiments(), "rps", "web [tuned]", O)));
        assertEquals(expected, pairs(Reconcile.of(twoExperiments(), "rps", "web[tuned]", O)));
    }

    @Test
    void aBaselineWithoutAVariantIsTheSubjectsDefaultVariant() {
        assertEquals(List.of("api / web", "web [tuned] / web"), pairs(Reconcile.of(twoExperiments(), "rps", "web", O)));
    }
}
