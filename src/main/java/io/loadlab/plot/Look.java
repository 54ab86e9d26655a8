package io.loadlab.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.Locale;
import java.util.TreeSet;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/**
 * The one look of every Loadlab chart: white background, light grid, large type, the legend
 * outside the plot so it never hides data. Kept in one place so the charts cannot drift apart.
 */
final class Look {

    /**
     * Chart size in pixels. 1200 is the width of the report's content (its page is at most
     * {@value #WIDTH} px plus margins, see notebooks/report.ipynb), so a chart fills it at its own
     * size; narrower notebook cells scale it down (nbconvert and Jupyter give images
     * {@code max-width: 100%}).
     */
    static final int WIDTH = 1200;
    static final int HEIGHT = 600;

    static final Color TEXT = new Color(0x222222);
    private static final Color GRID = new Color(0xE3E3E3);
    private static final Color BORDER = new Color(0xBBBBBB);
    private static final Color ERROR_BARS = new Color(0x333333);

    static final Font TICK_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 14);
    private static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 18);
    private static final Font AXIS_TITLE_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 15);
    private static final Font LEGEND_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 14);

    // Up to this many evenly spaced points (rounds, say), a tick on every point reads well.
    private static final int MAX_TICKS_AT_POINTS = 12;

    // Solid for a subject's plain form, then dashes for its variants; colour alone stays the subject's.
    private static final float[][] DASHES = {null, {9f, 5f}, {2f, 4f}, {9f, 4f, 2f, 4f}};

    private Look() {
    }

    /** A styled line chart with its titles. */
    static <C extends XYChart> C xy(C chart, String title, String xTitle, String yTitle) {
        label(chart, title, xTitle, yTitle);
        style(chart.getStyler());
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        return chart;
    }

    /**
     * A styled bar chart with its titles: bars side by side, error bars dark grey. The plot has no
     * margin inside its border, so that 0 is its bottom edge and an error bar reaching below 0 is
     * cut there (XChart clips what it draws to the plot); the caller sets the top of the y axis.
     */
    static CategoryChart bars(String title, String xTitle, String yTitle) {
        CategoryChart chart = new LoadlabCategoryChart();
        chart.getStyler().setPlotContentSize(1.0);
        label(chart, title, xTitle, yTitle);
        style(chart.getStyler());
        chart.getStyler().setAvailableSpaceFill(0.85).setOverlapped(false);
        chart.getStyler().setPlotGridVerticalLinesVisible(false);
        return chart;
    }

    /**
     * The stroke of a series line.
     *
     * @param width   line width in pixels
     * @param variant the variant's index within its subject: 0 solid, then dashed patterns
     */
    static BasicStroke stroke(float width, int variant) {
        float[] dash = DASHES[variant % DASHES.length];
        return dash == null
                ? new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND)
                : new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, dash, 0f);
    }

    /**
     * Keeps x ticks at round numbers when the points are evenly spaced. XChart 3.8.8 then puts a
     * tick on every point, thinning them only until labels touch (30 one-second samples give
     * "1011121314…"). Ending the axis half a step after the last point breaks the even spacing,
     * and XChart falls back to its usual 0, 5, 10 … ticks.
     */
    static void roundTicksOnly(XYChart chart) {
        TreeSet<Double> xs = new TreeSet<>();
        chart.getSeriesMap().values().forEach(series -> {
            for (double x : series.getXData()) {
                xs.add(x);
            }
        });
        if (xs.size() <= MAX_TICKS_AT_POINTS) {
            return;
        }
        double step = (xs.last() - xs.first()) / (xs.size() - 1);
        double previous = xs.first();
        for (double x : xs.tailSet(xs.first(), false)) {
            if (Math.abs(x - previous - step) > 1e-4) {
                return; // uneven: XChart already picks round ticks
            }
            previous = x;
        }
        chart.getStyler().setXAxisMax(xs.last() + step / 2);
    }

    /** The y-axis number pattern: grouped integers for large values, decimals for small ones. */
    static String yPattern(double maxValue) {
        return maxValue >= 100 ? "#,##0" : "#,##0.###";
    }

    private static void label(Chart<?, ?> chart, String title, String xTitle, String yTitle) {
        chart.setTitle(title);
        chart.setXAxisTitle(xTitle);
        chart.setYAxisTitle(yTitle);
    }

    private static void style(AxesChartStyler s) {
        s.setLocale(Locale.ROOT);
        s.setAntiAlias(true);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderVisible(true);
        s.setPlotBorderColor(BORDER);
        s.setPlotGridLinesColor(GRID);
        s.setPlotGridLinesStroke(new BasicStroke(1f));
        s.setChartFontColor(TEXT);
        s.setAxisTickLabelsColor(TEXT);
        s.setAxisTickMarksColor(BORDER);
        s.setChartTitleFont(TITLE_FONT);
        s.setChartTitleBoxVisible(false);
        s.setChartTitlePadding(10);
        s.setAxisTitleFont(AXIS_TITLE_FONT);
        s.setAxisTickLabelsFont(TICK_FONT);
        s.setAxisTitlePadding(8);
        s.setLegendFont(LEGEND_FONT);
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setLegendBackgroundColor(Color.WHITE);
        s.setLegendBorderColor(BORDER);
        s.setLegendSeriesLineLength(28);
        s.setChartPadding(12);
        s.setErrorBarsColor(ERROR_BARS);
        s.setErrorBarsColorSeriesColor(false);
        s.setMarkerSize(8);
        s.setToolTipsEnabled(false);
    }
}
