package io.loadlab.plot;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Writes charts as PNG or SVG.
 *
 * <p>Rendering needs no display: charts are painted into an in-memory image or vector document,
 * never a window. The JDK already runs headless on Linux when {@code DISPLAY} is unset, so this
 * class does not set {@code java.awt.headless}, which would change AWT for the whole JVM.
 * Thread-safe; charts themselves are not, so do not render one chart from two threads at once.
 */
public final class ChartFiles {

    private ChartFiles() {
    }

    /**
     * Saves a chart as a PNG of its own size in pixels, creating missing parent folders.
     *
     * @param file the file to write, replaced if it exists; its name is used as given (no
     *             extension is added)
     * @return {@code file}
     * @throws PlotException when the file cannot be written
     */
    public static Path savePng(Chart<?, ?> chart, Path file) {
        byte[] png = pngBytes(chart);
        return write(file, out -> out.write(png));
    }

    /**
     * Saves a chart as SVG, creating missing parent folders.
     *
     * @param file the file to write, replaced if it exists; used as given
     * @return {@code file}
     * @throws PlotException when the file cannot be written
     */
    public static Path saveSvg(Chart<?, ?> chart, Path file) {
        Objects.requireNonNull(chart, "chart");
        return write(file, out -> VectorGraphicsEncoder.saveVectorGraphic(
                chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG));
    }

    /**
     * The chart as PNG bytes, for a notebook or an HTML report.
     *
     * @return a PNG of {@code chart.getWidth()} × {@code chart.getHeight()} pixels
     * @throws PlotException if encoding fails
     */
    public static byte[] pngBytes(Chart<?, ?> chart) {
        Objects.requireNonNull(chart, "chart");
        try {
            return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new PlotException("cannot encode chart '" + chart.getTitle() + "' as PNG: " + e.getMessage(), e);
        }
    }

    private static Path write(Path file, Writer writer) {
        Objects.requireNonNull(file, "file");
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (OutputStream out = Files.newOutputStream(file)) {
                writer.write(out);
            }
            return file;
        } catch (IOException e) {
            throw new PlotException("cannot write chart to " + file + ": " + e, e);
        }
    }

    @FunctionalInterface
    private interface Writer {
        void write(OutputStream out) throws IOException;
    }
}
