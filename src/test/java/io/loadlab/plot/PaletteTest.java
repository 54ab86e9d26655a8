package io.loadlab.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class PaletteTest {

    @Test
    void bundledSubjectsHaveDistinctFixedColours() {
        Set<Color> colours = new HashSet<>();
        for (String subject : Palette.BUNDLED) {
            colours.add(Palette.colorFor(subject));
        }
        assertEquals(8, colours.size());
        assertEquals(new Color(0x0072B2), Palette.colorFor("java-netty"));
        assertEquals(new Color(0x000000), Palette.colorFor("nginx"));
    }

    @Test
    void bundledColoursAreFarApart() {
        for (String a : Palette.BUNDLED) {
            for (String b : Palette.BUNDLED) {
                if (!a.equals(b)) {
                    assertTrue(distance(Palette.colorFor(a), Palette.colorFor(b)) > 60, a + " vs " + b);
                }
            }
        }
    }

    @Test
    void otherSubjectsGetAStableHashedColour() {
        // Golden value: the colour of a name must not change between releases or machines.
        assertEquals(Palette.colorFor("my-server"), Palette.colorFor("my-server"));
        assertEquals(new Color(0x406580), Palette.colorFor("my-server"));
        assertNotEquals(Palette.colorFor("my-server"), Palette.colorFor("my-server-v2"));
    }

    @Test
    void aSubjectHasTheSameColourInEveryChart() {
        Table runs = Fixtures.runs();
        CategoryChart bars = Charts.throughput(Fixtures.summary(), null);
        CategoryChart memory = Charts.peakRss(runs);
        XYChart rounds = Charts.perRound(runs, "rps", "json");
        XYChart spectrum = Charts.latencySpectrum(Fixtures.histograms(Palette.BUNDLED, 2_000), "json");
        XYChart time = Charts.timeSeries(Fixtures.intervals(Palette.BUNDLED, 2), "lat_p99_us");

        for (String subject : Palette.BUNDLED) {
            Color expected = Palette.colorFor(subject);
            assertEquals(expected, bars.getSeriesMap().get(subject).getFillColor(), subject);
            assertEquals(expected, memory.getSeriesMap().get(subject).getFillColor(), subject);
            assertEquals(expected, rounds.getSeriesMap().get(subject).getLineColor(), subject);
            assertEquals(expected, spectrum.getSeriesMap().get(subject).getLineColor(), subject);
            assertEquals(expected, time.getSeriesMap().get(subject + " r1").getLineColor(), subject);
            assertEquals(expected, time.getSeriesMap().get(subject + " r2").getLineColor(), subject);
        }
    }

    @Test
    void variantsKeepTheirSubjectsColourAndLabel() {
        XYChart spectrum = Charts.latencySpectrum(
                Fixtures.histograms(List.of("go-nethttp [gc-off]", "go-nethttp", "nginx"), 1_000), "json");

        assertEquals(List.of("go-nethttp", "go-nethttp [gc-off]", "nginx"), List.copyOf(spectrum.getSeriesMap().keySet()));
        assertEquals(Palette.colorFor("go-nethttp"), spectrum.getSeriesMap().get("go-nethttp [gc-off]").getLineColor());
        assertEquals(null, spectrum.getSeriesMap().get("go-nethttp").getLineStyle().getDashArray());
        assertTrue(spectrum.getSeriesMap().get("go-nethttp [gc-off]").getLineStyle().getDashArray() != null,
                "a variant is drawn dashed");
    }

    @Test
    void subjectOfStripsTheVariant() {
        assertEquals("java-netty", Palette.subjectOf("java-netty [epoll]"));
        assertEquals("java-netty", Palette.subjectOf("java-netty"));
    }

    @Test
    void tintsLightenTowardsWhite() {
        Color base = Palette.colorFor("java-netty");
        assertEquals(base, Palette.tint(base, 0));
        Color tint = Palette.tint(base, 1);
        assertTrue(tint.getRed() > base.getRed() && tint.getGreen() > base.getGreen());
        assertEquals(Palette.tint(base, 3), Palette.tint(base, 9), "tinting stops at 70% white");
    }

    private static double distance(Color a, Color b) {
        int dr = a.getRed() - b.getRed();
        int dg = a.getGreen() - b.getGreen();
        int db = a.getBlue() - b.getBlue();
        return Math.sqrt(dr * dr + dg * dg + db * db);
    }
}
