package io.loadlab.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** Error bars of intervals that reach below 0 (two rounds give wide ones): cut at the axis, and said so. */
class ErrorBarsTest {

    private static final int ERROR_BARS = 0xFF00FF;
    private static final int BAR = 0x0000FF;

    @Test
    void anIntervalBelowZeroIsCutAtTheAxisAndTheTitleSaysSo() throws IOException {
        // Two rounds: mean 10,000, 95% CI from -20,000 to 40,000.
        CategoryChart chart = Charts.throughput(summary(2, 10_000, -20_000, 40_000), null);
        assertEquals("Throughput — error bars cut at 0 for n = 2", chart.getTitle());

        int[] errorRows = rowsOf(render(chart), ERROR_BARS);
        int[] barRows = rowsOf(render(chart), BAR);
        assertTrue(errorRows[0] >= 0 && barRows[0] >= 0, "no error bar or no bar drawn");
        assertTrue(errorRows[0] < barRows[0], "the error bar's top must be above the bar's");
        // The bar ends at 0; nothing of the error bar may be drawn below it.
        assertTrue(errorRows[1] <= barRows[1] + 1, "the error bar reaches row " + errorRows[1]
                + ", below the axis at row " + barRows[1]);
    }

    @Test
    void anIntervalAboveZeroIsDrawnWholeWithoutANote() throws IOException {
        CategoryChart chart = Charts.throughput(summary(5, 10_000, 9_000, 11_000), null);
        assertEquals("Throughput", chart.getTitle());
        int[] errorRows = rowsOf(render(chart), ERROR_BARS);
        int[] barRows = rowsOf(render(chart), BAR);
        assertTrue(errorRows[1] < barRows[1] - 10, "the lower end of a positive interval lies inside the bar");
    }

    @Test
    void aChartSaysWhatItIsInOneLine() {
        CategoryChart chart = Charts.throughput(summary(5, 10_000, 9_000, 11_000), null);
        assertEquals("CategoryChart Throughput (" + Look.WIDTH + "×" + Look.HEIGHT + " px)", chart.toString());
    }

    /** The first and last row holding the colour, or -1s. */
    private static int[] rowsOf(BufferedImage image, int rgb) {
        int first = -1;
        int last = -1;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
                    first = first < 0 ? y : first;
                    last = y;
                    break;
                }
            }
        }
        return new int[] {first, last};
    }

    /** Without anti-aliasing, so that the error bars and the bar keep their exact colours. */
    private static BufferedImage render(CategoryChart chart) throws IOException {
        chart.getStyler().setAntiAlias(false);
        chart.getStyler().setErrorBarsColor(new Color(ERROR_BARS));
        chart.getSeriesMap().values().forEach(s -> s.setFillColor(new Color(BAR)));
        return ImageIO.read(new ByteArrayInputStream(ChartFiles.pngBytes(chart)));
    }

    private static Table summary(int n, double mean, double low, double high) {
        return Table.create("rps summary", StringColumn.create("subject", "nginx"), StringColumn.create("variant", ""),
                StringColumn.create("workload", "json"), StringColumn.create("metric", "rps"),
                IntColumn.create("n", new int[] {n}), DoubleColumn.create("mean", mean),
                DoubleColumn.create("ci_low", low), DoubleColumn.create("ci_high", high));
    }
}
