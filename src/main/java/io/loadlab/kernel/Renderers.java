package io.loadlab.kernel;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.RenderContext;
import io.github.spencerpark.jupyter.kernel.display.Renderer;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import io.loadlab.format.ShownTable;
import io.loadlab.format.Units;
import io.loadlab.plot.ChartFiles;
import io.loadlab.stats.Comparison;
import io.loadlab.stats.ComparisonRow;
import io.loadlab.stats.Summary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * How Loadlab's values look in a notebook. Every display has {@code text/plain}; besides it:
 * Tablesaw tables and comparison rows as HTML tables (nbconvert keeps only the richest type of
 * an output, so HTML is what reports show), XChart charts as PNG (SVG on request), HdrHistogram
 * histograms as a table of percentiles in µs, summaries as a one-row table. Numbers are rounded
 * for reading by {@link io.loadlab.format}: tables as {@link ShownTable} shows them, the text of a
 * table being the same rows aligned.
 */
public final class Renderers {

    /** Rows of a table shown at most; a note says how many more there are. */
    public static final int MAX_TABLE_ROWS = ShownTable.MAX_ROWS;
    /** The percentiles of a histogram's display. */
    static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};

    private Renderers() {
    }

    /** Registers every Loadlab renderer with a kernel's renderer. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public static void registerAll(Renderer renderer) {
        renderer.createRegistration(Table.class).preferring(MIMEType.TEXT_HTML)
                .register((t, ctx) -> table(t, ctx));
        renderer.createRegistration(Chart.class).preferring(MIMEType.IMAGE_PNG).supporting(MIMEType.IMAGE_SVG)
                .register((chart, ctx) -> chart((Chart<?, ?>) chart, ctx));
        renderer.createRegistration(AbstractHistogram.class).preferring(MIMEType.TEXT_HTML)
                .register(Renderers::histogram);
        renderer.createRegistration(ComparisonRow.class).preferring(MIMEType.TEXT_HTML)
                .register((row, ctx) -> comparison(List.of(row), ctx));
        renderer.createRegistration(Summary.class).preferring(MIMEType.TEXT_HTML)
                .register(Renderers::summary);
        // Every list reaches this function; only lists of comparison rows get more than text/plain.
        renderer.createRegistration(List.class).preferring(MIMEType.TEXT_HTML).register((list, ctx) -> {
            if (!list.isEmpty() && ((List<?>) list).stream().allMatch(ComparisonRow.class::isInstance)) {
                comparison((List<ComparisonRow>) list, ctx);
            }
        });
    }

    /** A chart as SVG (text/plain besides), e.g. the last expression {@code svg(chart)} of a cell. */
    public static DisplayData svg(Chart<?, ?> chart) {
        DisplayData d = new DisplayData(describe(chart));
        d.putSVG(svgText(chart));
        return d;
    }

    static String svgText(Chart<?, ?> chart) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode chart '" + chart.getTitle() + "' as SVG", e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void table(Table t, RenderContext ctx) {
        ctx.renderIfRequested(MIMEType.TEXT_HTML, () -> Html.table(t, MAX_TABLE_ROWS));
        ctx.renderIfRequested(MIMEType.TEXT_PLAIN, () -> ShownTable.of(t, MAX_TABLE_ROWS).text());
    }

    private static void chart(Chart<?, ?> chart, RenderContext ctx) {
        ctx.renderIfRequested(MIMEType.IMAGE_PNG, () -> Base64.getEncoder().encodeToString(ChartFiles.pngBytes(chart)));
        ctx.renderIfRequested(MIMEType.IMAGE_SVG, () -> svgText(chart));
        ctx.renderIfRequested(MIMEType.TEXT_PLAIN, () -> describe(chart));
    }

    private static String describe(Chart<?, ?> chart) {
        return io.loadlab.plot.Charts.describe(chart);
    }

    private static void histogram(AbstractHistogram h, RenderContext ctx) {
        List<String> keys = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (double p : PERCENTILES) {
            keys.add("p" + BigDecimal.valueOf(p).stripTrailingZeros().toPlainString());
            values.add(Units.count(h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p)));
        }
        keys.add("max");
        values.add(Units.count(h.getTotalCount() == 0 ? 0 : h.getMaxValue()));
        keys.add("count");
        values.add(Units.count(h.getTotalCount()));
        ctx.renderIfRequested(MIMEType.TEXT_HTML, () -> Html.keyValueTable("latency percentiles (µs)", keys, values));
        ctx.renderIfRequested(MIMEType.TEXT_PLAIN, () -> {
            StringBuilder b = new StringBuilder("latency (µs):");
            for (int i = 0; i < keys.size(); i++) {
                b.append(' ').append(keys.get(i)).append('=').append(values.get(i));
            }
            return b.toString();
        });
    }

    /** A summary of values of unknown unit: its figures to 3 significant digits (whole from 1,000), cv in %. */
    private static void summary(Summary s, RenderContext ctx) {
        List<String> keys = List.of("n", "mean", "sd", "cv", "median", "min", "max", "95% CI low", "95% CI high");
        List<String> values = List.of(Integer.toString(s.n()), Units.decimal(s.mean()), Units.decimal(s.sd()),
                Units.percent(s.cv()), Units.decimal(s.median()), Units.decimal(s.min()), Units.decimal(s.max()),
                Units.decimal(s.ciLow()), Units.decimal(s.ciHigh()));
        ctx.renderIfRequested(MIMEType.TEXT_HTML, () -> Html.keyValueTable("summary", keys, values));
        ctx.renderIfRequested(MIMEType.TEXT_PLAIN, s::toString);
    }

    private static void comparison(List<ComparisonRow> rows, RenderContext ctx) {
        Table t = Comparison.toTable(rows.get(0).metric(), rows);
        table(t, ctx);
    }
}
