package io.loadlab.experiment;

import io.loadlab.load.LoadListener;
import io.loadlab.subject.ProcessTreeStats;
import java.util.Optional;

/** Reads the subject's process tree at the start and end of the measured window. */
final class ServerSampler implements LoadListener {
    private final ProcessHandle server;
    private ProcessTreeStats.Reading start;
    private ProcessTreeStats.Reading end;

    ServerSampler(ProcessHandle server) {
        this.server = server;
    }

    @Override
    public void windowStarted() {
        start = ProcessTreeStats.read(server);
    }

    @Override
    public void windowEnded() {
        end = ProcessTreeStats.read(server);
    }

    /** User and system CPU over the window, and the peak RSS at its end; empty if not sampled. */
    Optional<ProcessTreeStats.Reading> window() {
        if (start == null || end == null) {
            return Optional.empty();
        }
        return Optional.of(new ProcessTreeStats.Reading(end.userSeconds() - start.userSeconds(),
                end.systemSeconds() - start.systemSeconds(), end.rssBytes(), end.peakRssBytes()));
    }
}
