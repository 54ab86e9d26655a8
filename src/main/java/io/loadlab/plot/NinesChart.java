package io.loadlab.plot;

import java.awt.Color;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.util.List;
import org.knowm.xchart.XYSeries;

/**
 * An XY chart whose logarithmic x axis is labelled in percentiles (see {@link Nines}).
 *
 * <p>XChart 3.8.8 can either place ticks on a log axis or format them with a function, not both:
 * a formatting function switches to a linear tick calculator whose ticks no longer match the
 * log-scaled data. So XChart keeps its log ticks and grid, draws its own labels invisibly (they
 * still reserve the space), and this class paints the percentile labels over that space.
 */
final class NinesChart extends LoadlabXYChart {

    private static final Color INVISIBLE = new Color(0, 0, 0, 0);
    private static final Color MINOR_GRID = new Color(0xEEEEEE);
    private static final int LABEL_GAP = 12;

    NinesChart() {
        getStyler().setXAxisLogarithmic(true);
        getStyler().setXAxisLogarithmicDecadeOnly(true);
    }

    /** Hides XChart's own x labels and lightens the grid; call after the common styling. */
    void styleNinesAxis() {
        getStyler().setXAxisTickLabelsColor(INVISIBLE);
        // A log axis grids every integer multiple of each decade; lighter lines keep that texture
        // behind the data instead of over it.
        getStyler().setPlotGridLinesColor(MINOR_GRID);
    }

    @Override
    public void paint(Graphics2D g, int width, int height) {
        super.paint(g, width, height);
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (XYSeries series : getSeriesMap().values()) {
            for (double x : series.getXData()) {
                min = Math.min(min, x);
                max = Math.max(max, x);
            }
        }
        if (min > max) {
            return;
        }
        paintPercentileLabels(g, Nines.ticks(min, max));
    }

    private void paintPercentileLabels(Graphics2D g, List<Double> ticks) {
        Rectangle2D area = plot.getBounds();
        g.setFont(getStyler().getAxisTickLabelsFont());
        g.setColor(Look.TEXT);
        FontMetrics metrics = g.getFontMetrics();
        float baseline = (float) (area.getMaxY() + getStyler().getAxisTickMarkLength()
                + getStyler().getAxisTickPadding() + metrics.getAscent());
        double lastRight = Double.NEGATIVE_INFINITY;
        for (double x : ticks) {
            double screenX = getScreenXFromChart(x);
            if (screenX < area.getMinX() - 1 || screenX > area.getMaxX() + 1) {
                continue;
            }
            String label = Nines.label(x);
            double labelWidth = metrics.stringWidth(label);
            double left = screenX - labelWidth / 2;
            // Long runs reach many nines; skip a label rather than let two collide.
            if (left < lastRight + LABEL_GAP) {
                continue;
            }
            g.drawString(label, (float) left, baseline);
            lastRight = left + labelWidth;
        }
    }
}
