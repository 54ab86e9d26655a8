package io.loadlab.engine;

import io.loadlab.importer.ImportedRun;
import java.nio.file.Path;
import java.util.List;

/**
 * What one external tool run reported, and what Loadlab measured around it.
 *
 * @param reported    the tool's output read as run columns (requests, rps, latency, errors...)
 * @param toolCpuSeconds user plus system CPU time of the tool's process, s; NaN when not measured
 *                    (no Linux {@code /proc})
 * @param wallSeconds time from starting the tool to its exit, s (start-up and connecting included)
 * @param command     the command line that ran
 * @param output      the file holding the tool's output
 */
public record ExternalRun(ImportedRun reported, double toolCpuSeconds, double wallSeconds, List<String> command,
                          Path output) {

    public ExternalRun {
        command = List.copyOf(command);
    }
}
