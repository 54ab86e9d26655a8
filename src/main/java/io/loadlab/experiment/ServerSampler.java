package io.loadlab.experiment;

import io.loadlab.load.LoadListener;
import io.loadlab.subject.ProcessTreeStats;
import java.util.Optional;

/** Reads a subject's process tree at the start and end of the measured window. */
public final class ServerSampler implements LoadListener {
    private final ProcessHandle server;
    private Optional<ProcessTreeStats.Reading> start = Optional.empty();
    private Optional<ProcessTreeStats.Reading> end = Optional.empty();

    /** @param server the root of the subject's process tree */
    public ServerSampler(ProcessHandle server) {
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

    /**
     * User and system CPU over the window (s), and the peak RSS at its end (bytes); empty when not
     * measured, or when a process of the tree exited meanwhile and took its CPU time with it.
     */
    public Optional<ProcessTreeStats.Reading> window() {
        if (start.isEmpty() || end.isEmpty()) {
            return Optional.empty();
        }
        ProcessTreeStats.Reading a = start.get();
        ProcessTreeStats.Reading b = end.get();
        double user = b.userSeconds() - a.userSeconds();
        double sys = b.systemSeconds() - a.systemSeconds();
        if (user < 0 || sys < 0) {
            return Optional.empty();
        }
        return Optional.of(new ProcessTreeStats.Reading(user, sys, b.rssBytes(), b.peakRssBytes()));
    }
}
