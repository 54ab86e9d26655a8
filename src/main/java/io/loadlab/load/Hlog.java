package io.loadlab.load;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes a run's interval histograms as an HdrHistogram log ({@link HistogramLogWriter} format),
 * readable by HdrHistogram's {@code HistogramLogReader}, its HistogramLogProcessor and
 * hdrhistogram-py. Values are µs. Latency intervals carry {@code tag}; at a fixed rate the
 * service-time intervals follow with {@code tag + "-service"}.
 */
public final class Hlog {

    private Hlog() {
    }

    /**
     * Writes the header (version, start time, legend) and every interval of {@code result}.
     *
     * @param tag run identifier, without spaces or commas
     */
    public static void write(LoadResult result, String tag, OutputStream out) {
        if (tag.isEmpty() || tag.contains(",") || tag.contains(" ")) {
            throw LoadException.usage("hlog tag '" + tag + "' must be non-empty, without spaces or commas");
        }
        PrintStream ps = new PrintStream(out, false, StandardCharsets.US_ASCII);
        HistogramLogWriter writer = new HistogramLogWriter(ps);
        long base = result.start().toEpochMilli();
        writer.outputComment("Loadlab latency log, values in microseconds, " + result.spec().request().method()
                + " " + result.spec().request().target().url());
        writer.outputLogFormatVersion();
        writer.outputStartTime(base);
        writer.setBaseTime(base);
        writer.outputLegend();
        writeIntervals(writer, result.intervals(), tag, false, base);
        if (result.spec().isFixedRate()) {
            writeIntervals(writer, result.intervals(), tag + "-service", true, base);
        }
        ps.flush();
    }

    private static void writeIntervals(HistogramLogWriter writer, List<IntervalSample> intervals,
                                       String tag, boolean service, long base) {
        for (IntervalSample s : intervals) {
            Histogram h = service ? s.serviceTime().orElseThrow() : s.latency();
            h.setTag(tag);
            // Seconds relative to the base time; the max column in ms, as for µs values.
            writer.outputIntervalHistogram((s.startEpochMs() - base) / 1000.0,
                    (s.endEpochMs() - base) / 1000.0, h, 1000.0);
        }
    }
}
