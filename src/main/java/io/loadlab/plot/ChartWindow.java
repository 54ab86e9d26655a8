package io.loadlab.plot;

import java.awt.GraphicsEnvironment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.SwingWrapper;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Shows a chart from JShell: in a window where a display exists, otherwise as a PNG file under
 * {@code data/tmp/charts/}, whose path is returned (and printed by the caller).
 */
public final class ChartWindow {

    private static final AtomicInteger COUNTER = new AtomicInteger();

    private ChartWindow() {
    }

    /**
     * @return a line saying where the chart went: "shown in a window" or the PNG's path
     */
    public static String show(Chart<?, ?> chart) {
        if (!GraphicsEnvironment.isHeadless()) {
            new SwingWrapper<>(chart).displayChart();
            return "shown in a window: " + chart.getTitle();
        }
        String name = chart.getTitle().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
        Path file = Path.of("data", "tmp", "charts",
                String.format(Locale.ROOT, "%02d-%s.png", COUNTER.incrementAndGet(), name.isEmpty() ? "chart" : name));
        try {
            Files.createDirectories(file.getParent());
            BitmapEncoder.saveBitmapWithDPI(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG, 144);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return "no display: chart written to " + file.toAbsolutePath();
    }
}
