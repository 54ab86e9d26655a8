package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** The sentences a report opens with, and the variant settings it says once. */
class HeadlineTest {

    private static ComparisonRow row(String subject, String workload, int n, double mean, double ratio, double lo,
                                     double hi, Verdict verdict) {
        return new ComparisonRow(subject, workload, "rps", n, mean, 1, mean - 1, mean + 1, ratio, lo, hi, 0.01, 0.01,
                verdict, "", "go-nethttp", "", Design.PAIRED, 0.01, 0.01, Adjustment.HOLM, 0.01, Double.NaN, Double.NaN);
    }

    @Test
    void fastestPerWorkloadThenEachVerdictDifferencesFirst() {
        List<ComparisonRow> rows = List.of(
                row("go-nethttp", "json", 5, 100_000, 1, Double.NaN, Double.NaN, Verdict.BASELINE),
                row("java-netty", "json", 5, 57_600, 0.576, 0.396, 0.744, Verdict.SLOWER),
                row("nginx", "json", 5, 98_000, 0.98, 0.95, 1.01, Verdict.UNDECIDED),
                row("rust-axum", "json", 5, 123_456.7, 1.2345, 1.2, 1.27, Verdict.FASTER),
                row("go-nethttp", "plaintext", 1, 90_000, 1, Double.NaN, Double.NaN, Verdict.BASELINE));
        List<String> s = Headline.sentences(rows, List.of(), new SharedVariant(List.of()));
        assertEquals(List.of(
                "On json, rust-axum was the fastest: 123,457 rps (mean of 5 rounds).",
                "Against go-nethttp on json: rust-axum faster (ratio 1.23 [1.20, 1.27]); java-netty slower (ratio 0.576 "
                        + "[0.396, 0.744]); nginx undecided (ratio 0.980 [0.950, 1.01]).",
                "On plaintext, go-nethttp was the fastest: 90,000 rps (mean of 1 round)."), s);
    }

    @Test
    void warningsAreCountedByKindNamingTheFirstGroups() {
        List<Warning> warnings = List.of(
                new Warning("high_cv", "a", "", "json", List.of(1, 2), "m"),
                new Warning("high_cv", "b", "tuned", "json", List.of(1), "m"),
                new Warning("high_cv", "c", "", "json", List.of(1), "m"),
                new Warning("high_cv", "d", "", "json", List.of(1), "m"),
                new Warning("drift", "a", "", "plaintext", List.of(1, 2, 3), "m"));
        List<String> s = Headline.warningSentences(warnings);
        assertEquals(List.of("Warning drift on 1 group (a / plaintext): the figures rose or fell with the round number: "
                        + "the machine changed while they ran.",
                "Warning high_cv on 4 groups (a / json, b [tuned] / json, c / json and 1 more): their rounds vary by more "
                        + "than 5%, so small differences are not to be trusted."), s);
    }

    @Test
    void everyKindOfWarningHasAMeaning() {
        assertEquals(Warning.KINDS, Headline.MEANING.keySet());
    }

    @Test
    void aSettingEveryRunHasIsSaidOnceAndLeftOutOfLabels() {
        Table runs = Table.create("runs", StringColumn.create(RunColumn.VARIANT.id(),
                "durability=memory", "durability=memory,protocol=h2-tls", "protocol=h1-tls,durability=memory"));
        SharedVariant shared = SharedVariant.of(runs);
        assertEquals(List.of("durability=memory"), shared.settings());
        assertEquals(List.of("", "protocol=h2-tls", "protocol=h1-tls"),
                shared.strip(runs).stringColumn(RunColumn.VARIANT.id()).asList());
        assertEquals("go-nethttp", shared.label("go-nethttp [durability=memory]"));
        assertEquals("go-nethttp", shared.label("go-nethttp[durability=memory]"));
        assertEquals("go-nethttp [protocol=h2-tls]", shared.label("go-nethttp [durability=memory,protocol=h2-tls]"));
        assertEquals(Map.of("nginx", 1), shared.relabel(Map.of("nginx [durability=memory]", 1)));
        assertEquals("Every run had durability=memory; the labels below leave it out.", shared.sentence());
    }

    @Test
    void settingsThatTellRunsApartStay() {
        Table runs = Table.create("runs", StringColumn.create(RunColumn.VARIANT.id(), "durability=memory",
                "durability=fsync", ""));
        SharedVariant shared = SharedVariant.of(runs);
        assertEquals(List.of(), shared.settings());
        assertEquals("", shared.sentence());
        assertEquals("x [durability=fsync]", shared.label("x [durability=fsync]"));
    }

    @Test
    void theSampleOpensWithItsAnswerAndSaysDurabilityOnce() {
        Results results = Results.load(Path.of("data/sample"));
        SharedVariant shared = SharedVariant.of(results.runs());
        Table runs = shared.strip(results.runs());
        List<ComparisonRow> rows = Comparison.rows(runs, "rps", Comparison.defaultBaseline(runs), CompareOptions.defaults());
        List<String> s = Headline.sentences(rows, Warnings.find(runs, "rps", WarningOptions.defaults()), shared);
        assertTrue(s.get(0).startsWith("On json, ") && s.get(0).contains(" was the fastest: "), s.toString());
        assertTrue(s.get(1).startsWith("Against go-nethttp on json: "), s.toString());
        assertEquals("Every run had durability=memory; the labels below leave it out.", s.get(s.size() - 1));
        assertTrue(s.stream().noneMatch(x -> x.contains("[durability=memory]")), s.toString());
    }
}
