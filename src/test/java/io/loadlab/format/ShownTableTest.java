package io.loadlab.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.Results;
import io.loadlab.stats.Stats;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** Tables as a person reads them: the summary of data/sample, and tables made by hand. */
class ShownTableTest {

    private static final Path SAMPLE = Path.of(System.getProperty("user.dir"), "data/sample");

    @Test
    void aSummaryOfThroughputShowsWholeRequestsAndAPercentCv() {
        Table summary = Stats.summarize(Results.load(SAMPLE).runs(), "rps");
        ShownTable shown = ShownTable.of(summary, 50);
        List<String> header = shown.header();
        List<String> netty = shown.rows().stream().filter(r -> r.get(0).equals("java-netty") && r.get(2).equals("json"))
                .findFirst().orElseThrow();
        // The expected figures are computed here from the runs themselves, then rounded as a person
        // reads them: whole requests with separators, the CV to 3 significant digits.
        double[] rps = Results.load(SAMPLE).okRuns().where(t -> t.stringColumn("subject").isEqualTo("java-netty")
                .and(t.stringColumn("workload").isEqualTo("json"))).doubleColumn("rps").asDoubleArray();
        double mean = java.util.Arrays.stream(rps).average().orElseThrow();
        double sd = Math.sqrt(java.util.Arrays.stream(rps).map(v -> (v - mean) * (v - mean)).sum() / (rps.length - 1));
        assertEquals(String.valueOf(rps.length), netty.get(header.indexOf("n")));
        assertEquals(String.format(Locale.ROOT, "%,d", Math.round(mean)), netty.get(header.indexOf("mean")));
        assertEquals(new java.math.BigDecimal(100 * sd / mean).round(new java.math.MathContext(3)).toPlainString() + "%",
                netty.get(header.indexOf("cv")));
        assertTrue(shown.numeric().get(header.indexOf("mean")) && !shown.numeric().get(header.indexOf("subject")));
    }

    @Test
    void theTextIsAlignedAndSaysWhatWasLeftOut() {
        Table t = Table.create("runs", StringColumn.create("subject", "a", "bb", "c"),
                DoubleColumn.create("rps", 117541.4, 9.6, Double.NaN), IntColumn.create("round", 1, 2, 3),
                DoubleColumn.create("ratio", 0.613655, 1, 2));
        assertEquals("runs (3 rows × 4 columns)\n"
                + "subject      rps  round  ratio\n"
                + "a        117,541      1  0.614\n"
                + "bb            10      2   1.00\n"
                + "… 1 more rows\n", ShownTable.of(t, 2).text());
        assertEquals(1, ShownTable.of(t, 2).hiddenRows());
    }

    @Test
    void aColumnsOwnPrintFormatterIsKept() {
        DoubleColumn share = DoubleColumn.create("share", 0.123456);
        share.setPrintFormatter(new DecimalFormat("0.0%", DecimalFormatSymbols.getInstance(Locale.ROOT)), "");
        LongColumn requests = LongColumn.create("requests", 1234567L);
        ShownTable shown = ShownTable.of(Table.create("t", share, requests), 5);
        assertEquals(List.of("12.3%", "1,234,567"), shown.rows().get(0));
    }

    @Test
    void aFigureFormatterGivesAColumnItsKindInTablesawsPrintToo() {
        DoubleColumn half = DoubleColumn.create("± 95% CI", 652.349, 12.5);
        half.setPrintFormatter(Figure.COUNT.formatter());
        Table t = Table.create("t", half);
        assertEquals(List.of(List.of("652"), List.of("13")), ShownTable.of(t, 5).rows());
        assertTrue(t.print().contains("652 ") && !t.print().contains("652.3"), t.print());
    }

    @Test
    void aCappedFormatterShowsWhatLiesAboveTheCapAsMoreThanIt() {
        DoubleColumn rounds = DoubleColumn.create("rounds_advised", 19, 1400, Double.POSITIVE_INFINITY, 20_000, Double.NaN);
        rounds.setPrintFormatter(Figure.COUNT.formatter(10_000));
        assertEquals(List.of(List.of("19"), List.of("1,400"), List.of("> 10,000"), List.of("> 10,000"), List.of("")),
                ShownTable.of(Table.create("t", rounds), 5).rows());
    }
}
