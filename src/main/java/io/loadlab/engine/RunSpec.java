package io.loadlab.engine;

import io.loadlab.load.LoadSpec;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * One run for an {@link Engine}: the load (request, model, connections, threads, window, warm-up,
 * seed, expectation), where a separate load process may run, and where a tool keeps its files.
 *
 * @param load     the run's load; the built-in engine runs it as it is, a tool translates it
 * @param loadCpus CPUs a tool is pinned to (taskset list); empty for none (this JVM is pinned by the runner)
 * @param scratch  a folder for a tool's input files (created when needed, the caller removes it)
 * @param output   the file a tool's output is kept in (the run can be imported from it again)
 */
public record RunSpec(LoadSpec load, Optional<String> loadCpus, Path scratch, Path output) {

    public RunSpec {
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(loadCpus, "loadCpus");
        Objects.requireNonNull(scratch, "scratch");
        Objects.requireNonNull(output, "output");
    }

    /** A run of the built-in engine alone: no tool files. */
    public static RunSpec inProcess(LoadSpec load) {
        Path none = Path.of("");
        return new RunSpec(load, Optional.empty(), none, none);
    }
}
