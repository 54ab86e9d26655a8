package io.loadlab.plot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.knowm.xchart.internal.chartpart.Chart;
import org.w3c.dom.Document;

/** Every chart renders without a display to a real PNG and a well-formed SVG. */
class ChartsRenderTest {

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    static Stream<Arguments> charts() {
        return Stream.of(
                chart("throughput", () -> Charts.throughput(Fixtures.summary(), null)),
                chart("throughput of one workload", () -> Charts.throughput(Fixtures.summary(), "json")),
                chart("per server CPU", () -> Charts.perServerCpu(Fixtures.summary())),
                chart("latency spectrum", () -> Charts.latencySpectrum(
                        Fixtures.histograms(Palette.BUNDLED, 50_000), "plaintext")),
                chart("time series", () -> Charts.timeSeries(
                        Fixtures.intervals(List.of("java-netty", "go-nethttp", "nginx"), 3), "rps")),
                chart("per round", () -> Charts.perRound(Fixtures.runs(), "rps", "plaintext")),
                chart("peak RSS", () -> Charts.peakRss(Fixtures.runs())));
    }

    private static Arguments chart(String name, Supplier<Chart<?, ?>> chart) {
        return Arguments.of(name, chart);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("charts")
    void rendersToAPngThatIsAPicture(String name, Supplier<Chart<?, ?>> chart) throws IOException {
        byte[] png = ChartFiles.pngBytes(chart.get());

        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(png, PNG_SIGNATURE.length), name);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertNotNull(image, name);
        assertEquals(Look.WIDTH, image.getWidth(), name);
        assertEquals(Look.HEIGHT, image.getHeight(), name);
        assertTrue(distinctColours(image) > 10, name + ": too few colours to be a chart");
        assertEquals(0xFFFFFF, image.getRGB(2, 2) & 0xFFFFFF, name + ": background must be white");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("charts")
    void rendersToWellFormedSvg(String name, Supplier<Chart<?, ?>> chart, @TempDir Path dir) throws Exception {
        Path file = ChartFiles.saveSvg(chart.get(), dir.resolve("nested/folder/chart.svg"));

        assertEquals(dir.resolve("nested/folder/chart.svg"), file);
        Document svg = xmlParser().parse(file.toFile());
        assertEquals("svg", svg.getDocumentElement().getNodeName(), name);
        assertTrue(svg.getElementsByTagName("path").getLength() + svg.getElementsByTagName("rect").getLength() > 10,
                name + ": the SVG draws almost nothing");
    }

    @Test
    void savesPngUnderTheGivenNameCreatingFolders(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("a/b/throughput.chart");

        Path written = ChartFiles.savePng(Charts.throughput(Fixtures.summary(), null), target);

        assertEquals(target, written);
        byte[] bytes = Files.readAllBytes(target);
        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(bytes, PNG_SIGNATURE.length));
        assertFalse(Files.exists(dir.resolve("a/b/throughput.chart.png")), "no extension may be appended");
    }

    @Test
    void spectrumSvgCarriesThePercentileLabels(@TempDir Path dir) throws IOException {
        Path file = ChartFiles.saveSvg(
                Charts.latencySpectrum(Fixtures.histograms(List.of("nginx"), 20_000), "json"), dir.resolve("s.svg"));

        String svg = Files.readString(file);
        for (String label : List.of("50%", "90%", "99%", "99.9%", "99.99%")) {
            assertTrue(svg.contains(">" + label + "<"), "missing x label " + label);
        }
    }

    @Test
    void writingToAnImpossiblePathIsAPlotException(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");

        PlotException e = assertThrows(PlotException.class,
                () -> ChartFiles.savePng(Charts.peakRss(Fixtures.runs()), file.resolve("chart.png")));
        assertTrue(e.getMessage().contains("chart.png"), e.getMessage());
    }

    private static int distinctColours(BufferedImage image) {
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }

    private static DocumentBuilder xmlParser() throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        // The SVG names the W3C DTD; a test must not fetch it from the network.
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder();
    }
}
