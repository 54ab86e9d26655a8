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
        long base = result.start().toEpochMilli();
        HistogramLogWriter writer = writeHeader(ps, base, "Loadlab latency log, values in microseconds, "
                + result.spec().request().method() + " " + result.spec().request().target().url());
        writeRun(writer, result.intervals(), tag, base);
        ps.flush();
    }

    /**
     * Writes a log's header (a comment, the format version, the start time, the legend).
     *
     * @param baseEpochMs start time; interval times are written in seconds relative to it
     * @return a writer for the intervals that follow
     */
    public static HistogramLogWriter writeHeader(PrintStream out, long baseEpochMs, String comment) {
        HistogramLogWriter writer = new HistogramLogWriter(out);
        writer.outputComment(comment);
        writer.outputLogFormatVersion();
        writer.outputStartTime(baseEpochMs);
        writer.setBaseTime(baseEpochMs);
        writer.outputLegend();
        return writer;
    }

    /**
     * Writes one run's intervals tagged {@code tag}; when they carry service time, its intervals
     * follow tagged {@code tag-service}. Times are seconds relative to {@code baseEpochMs}.
     */
    public static void writeRun(HistogramLogWriter writer, List<IntervalSample> intervals, String tag,
                                long baseEpochMs) {
        writeIntervals(writer, intervals, tag, false, baseEpochMs);
        if (!intervals.isEmpty() && intervals.get(0).serviceTime().isPresent()) {
            writeIntervals(writer, intervals, tag + "-service", true, baseEpochMs);
        }
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
