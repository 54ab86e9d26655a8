package io.loadlab.stats;

import static io.loadlab.stats.GoldenData.assertRel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SummaryTest {

    private static final double REL = 1e-9;

    @Test
    void goldenSampleAMatchesScipy() {
        Summary s = Summary.of(GoldenData.A);
        assertEquals(8, s.n());
        assertRel(GoldenData.A_MEAN, s.mean(), REL, "mean");
        assertRel(GoldenData.A_SD, s.sd(), REL, "sd");
        assertRel(GoldenData.A_CV, s.cv(), REL, "cv");
        assertRel(GoldenData.A_MEDIAN, s.median(), REL, "median");
        assertRel(GoldenData.A_CI_LOW, s.ciLow(), REL, "ci low");
        assertRel(GoldenData.A_CI_HIGH, s.ciHigh(), REL, "ci high");
        assertEquals(10198.3, s.min());
        assertEquals(10455.2, s.max());
    }

    @Test
    void goldenSampleBMatchesScipy() {
        Summary s = Summary.of(GoldenData.B);
        assertRel(GoldenData.B_MEAN, s.mean(), REL, "mean");
        assertRel(GoldenData.B_SD, s.sd(), REL, "sd");
        assertRel(GoldenData.B_CV, s.cv(), REL, "cv");
        assertRel(GoldenData.B_MEDIAN, s.median(), REL, "median");
        assertRel(GoldenData.B_CI_LOW, s.ciLow(), REL, "ci low");
        assertRel(GoldenData.B_CI_HIGH, s.ciHigh(), REL, "ci high");
    }

    @Test
    void inputIsNotReordered() {
        double[] values = GoldenData.A.clone();
        Summary.of(values);
        assertEquals(10234.5, values[0]);
        assertEquals(10263.4, values[7]);
    }

    @Test
    void singleValueHasNoSpreadOrInterval() {
        Summary s = Summary.of(new double[] {42.5});
        assertEquals(1, s.n());
        assertEquals(42.5, s.mean());
        assertEquals(42.5, s.median());
        assertEquals(42.5, s.min());
        assertEquals(42.5, s.max());
        assertTrue(Double.isNaN(s.sd()));
        assertTrue(Double.isNaN(s.cv()));
        assertTrue(Double.isNaN(s.ciLow()));
        assertTrue(Double.isNaN(s.ciHigh()));
        assertEquals("Summary[n=1: value 42.5]", s.toString());
    }

    @Test
    void constantDataHasZeroSpreadAndPointInterval() {
        Summary s = Summary.of(new double[] {7.25, 7.25, 7.25, 7.25});
        assertEquals(7.25, s.mean());
        assertEquals(0.0, s.sd());
        assertEquals(0.0, s.cv());
        assertEquals(7.25, s.ciLow());
        assertEquals(7.25, s.ciHigh());
    }

    @Test
    void zeroMeanHasNoCoefficientOfVariation() {
        Summary s = Summary.of(new double[] {-1, 1});
        assertEquals(0.0, s.mean());
        assertTrue(Double.isNaN(s.cv()));
    }

    @Test
    void evenCountMedianIsMeanOfMiddlePair() {
        assertEquals(2.5, Summary.of(new double[] {4, 1, 3, 2}).median());
    }

    @Test
    void emptyOrNullInputIsRejected() {
        StatsException empty = assertThrows(StatsException.class, () -> Summary.of(new double[0]));
        assertTrue(empty.getMessage().contains("empty sample"), empty.getMessage());
        assertThrows(StatsException.class, () -> Summary.of(null));
    }

    @Test
    void nanInputIsRejectedNamingTheIndex() {
        StatsException e = assertThrows(StatsException.class, () -> Summary.of(new double[] {1, Double.NaN, 3}));
        assertTrue(e.getMessage().contains("NaN") && e.getMessage().contains("index 1"), e.getMessage());
        assertThrows(StatsException.class, () -> Summary.of(new double[] {1, Double.POSITIVE_INFINITY}));
    }

    @Test
    void constructorRejectsImpossibleSummaries() {
        assertThrows(StatsException.class, () -> new Summary(0, 1, 0, 0, 1, 1, 1, 1, 1));
        assertThrows(StatsException.class, () -> new Summary(2, 1, 0, 0, 5, 1, 2, 1, 1));
        assertThrows(StatsException.class, () -> new Summary(2, 1, -1, 0, 1, 1, 1, 1, 1));
    }

    @Test
    void toStringUsesDotDecimalsAndPercentCv() {
        String text = Summary.of(new double[] {100, 110}).toString();
        assertEquals("Summary[n=2: mean 105 ± 63.5 (95% CI), sd 7.07 (cv 6.73%), median 105, range 100 to 110]", text);
    }
}
