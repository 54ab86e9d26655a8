package io.loadlab.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The rounding rules of "Figures for people", one figure kind at a time. */
class UnitsTest {

    @Test
    void throughputIsAWholeNumberWithSeparators() {
        assertEquals("117,541", Units.integer(117541.4));
        assertEquals("76,108", Units.integer(76108.33333333333));
        assertEquals("1,000", Units.integer(999.5));
        assertEquals("-2,500", Units.integer(-2500.2));
        assertEquals("0", Units.integer(0.4));
        assertEquals("812,345", Units.count(812345));
    }

    @Test
    void ratiosHaveThreeSignificantDigitsWithTheirTrailingZeros() {
        assertEquals("0.614", Units.ratio(0.613655));
        assertEquals("1.68", Units.ratio(1.676));
        assertEquals("1.00", Units.ratio(1));
        assertEquals("0.900", Units.ratio(0.9));
        assertEquals("0.0450", Units.ratio(0.045));
        assertEquals("12.3", Units.ratio(12.34));
        assertEquals("1,230", Units.ratio(1234.5));
        assertEquals("0", Units.ratio(0));
    }

    @Test
    void aCvIsAPercentageWithThreeSignificantDigits() {
        assertEquals("4.52%", Units.percent(0.04521));
        assertEquals("39.2%", Units.percent(0.3921588459574782));
        assertEquals("7.60%", Units.percent(0.076));
        assertEquals("10.0%", Units.percent(0.09999999999999998));
        assertEquals("100%", Units.percent(1));
    }

    @Test
    void pValuesHaveTwoSignificantDigitsAndLessThanAThousandthBelow() {
        assertEquals("0.043", Units.p(0.04291));
        assertEquals("0.11", Units.p(0.109));
        assertEquals("0.0080", Units.p(0.008));
        assertEquals("0.10", Units.p(0.1));
        assertEquals("1.0", Units.p(1));
        assertEquals("0.0010", Units.p(0.001));
        assertEquals("< 0.001", Units.p(0.00099));
        assertEquals("< 0.001", Units.p(0));
    }

    @Test
    void latenciesAreWholeMicrosecondsOrMillisecondsWithTwoDecimals() {
        assertEquals("850us", Units.latency(850.4));
        assertEquals("999us", Units.latency(999.4));
        assertEquals("1.00ms", Units.latency(999.5));
        assertEquals("1.25ms", Units.latency(1249.9));
        assertEquals("999.99ms", Units.latency(999_994));
        assertEquals("2.10s", Units.latency(2_100_000));
    }

    @Test
    void otherQuantitiesHaveThreeSignificantDigitsWithoutTrailingZeros() {
        assertEquals("1.83", Units.decimal(1.8349));
        assertEquals("2", Units.decimal(2.0));
        assertEquals("0.0123", Units.decimal(0.012345));
        assertEquals("999", Units.decimal(999.4));
        assertEquals("12,345", Units.decimal(12345.2));
        assertEquals("0", Units.decimal(0.0));
    }

    @Test
    void undefinedFiguresAreEmptyAndInfinitiesSaySo() {
        for (String s : new String[] {Units.integer(Double.NaN), Units.ratio(Double.NaN), Units.percent(Double.NaN),
            Units.p(Double.NaN), Units.latency(Double.NaN), Units.decimal(Double.NaN),
            Units.interval(Double.NaN, 1, Figure.RATIO)}) {
            assertEquals("", s);
        }
        assertEquals("inf", Units.ratio(Double.POSITIVE_INFINITY));
        assertEquals("-inf", Units.integer(Double.NEGATIVE_INFINITY));
    }

    @Test
    void intervalsShowBothEndsAlike() {
        assertEquals("[0.396, 0.744]", Units.interval(0.39581, 0.74401, Figure.RATIO));
        assertEquals("[36,860, 49,956]", Units.interval(36859.5, 49956.07, Figure.COUNT));
    }

    @Test
    void settingsAreShownExactly() {
        assertEquals("0.05", Units.exact(0.05));
        assertEquals("10", Units.exact(10.0));
        assertEquals("1%", Units.exactPercent(0.01));
        assertEquals("2.5%", Units.exactPercent(0.025));
    }

    @Test
    void bytesHaveBinaryPrefixes() {
        assertEquals("512B", Units.bytes(512));
        assertEquals("1.50KiB", Units.bytes(1536));
        assertEquals("98.30MiB", Units.bytes(98.3 * 1024 * 1024));
    }

    @Test
    void significantNeedsADigit() {
        assertThrows(IllegalArgumentException.class, () -> Units.significant(1, 0));
        assertEquals("-0.00123", Units.significant(-0.0012345, 3));
    }
}
