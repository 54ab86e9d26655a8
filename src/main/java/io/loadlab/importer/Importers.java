package io.loadlab.importer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the text output of wrk, wrk2, oha (text and {@code --json}), hey, h2load and ab into
 * run rows. The tool is recognised from the content. UnitParser (us/ms/s, KB/MB/GB, KiB/MiB, k/M)
 * are converted to the columns' units; values a tool does not report stay empty. Stateless and
 * thread-safe.
 */
public final class Importers {

    /**
     * The largest output file read (bytes): 64 MiB. A tool's summary is a few KiB and wrk2's full
     * percentile spectrum well under 1 MiB, so a larger file is not one run's output; the cap keeps
     * a wrong file (a log, a capture, {@code /dev/zero}) from exhausting the heap before it is refused.
     */
    public static final int MAX_FILE_BYTES = 64 << 20;

    private Importers() {
    }

    /**
     * The tool that wrote this output.
     *
     * @throws ImportException when the text is the output of none of the tools
     */
    public static Tool detect(String text) {
        String t = text.strip();
        if (t.startsWith("{") && t.contains("\"summary\"")) {
            return Tool.OHA;
        }
        if (t.contains("ApacheBench") || t.contains("Complete requests:") && t.contains("Requests per second:")) {
            return Tool.AB;
        }
        if (t.contains("finished in") && t.contains("req/s") && t.contains("requests:")) {
            return Tool.H2LOAD;
        }
        if (t.contains("requests in") && t.contains("Requests/sec:")) {
            boolean wrk2 = t.contains("HdrHistogram") || t.contains("Detailed Percentile spectrum")
                    || t.contains("Thread calibration") || t.contains("Uncorrected Latency");
            return wrk2 ? Tool.WRK2 : Tool.WRK;
        }
        if (t.contains("Success rate:") && t.contains("Requests/sec:")) {
            return Tool.OHA;
        }
        if (t.contains("Summary:") && t.contains("Requests/sec:")) {
            return Tool.HEY;
        }
        String first = t.lines().findFirst().orElse("");
        throw new ImportException("cannot tell which load tool wrote this output (expected wrk, wrk2, oha, hey,"
                + " h2load or ab); its first line is '" + (first.length() > 120 ? first.substring(0, 120) + "..." : first)
                + "'");
    }

    /** Reads an output, recognising its tool. */
    public static ImportedRun parse(String text) {
        return parse(detect(text), text);
    }

    /**
     * Reads an output of the given tool, with the tool's own reader.
     *
     * @throws ImportException when the text is not what that tool prints
     */
    public static ImportedRun parse(Tool tool, String text) {
        return tool.parse(text);
    }

    /**
     * Reads an output file, recognising its tool.
     *
     * @throws ImportException naming the file when it cannot be read or understood, or is larger
     *                         than {@link #MAX_FILE_BYTES}
     */
    public static ImportedRun parse(Path file) {
        String text;
        // Read at most one byte past the cap, not Files.size first: a device or a pipe has no size.
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            if (bytes.length > MAX_FILE_BYTES) {
                throw new ImportException(file + " is larger than " + (MAX_FILE_BYTES >> 20) + " MiB: it is not the"
                        + " output of one run of a load tool; give the tool's output file");
            }
            text = new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ImportException("cannot read " + file + ": " + e.getMessage(), e);
        }
        try {
            return parse(text);
        } catch (ImportException e) {
            throw new ImportException(file + ": " + e.getMessage(), e);
        }
    }
}
