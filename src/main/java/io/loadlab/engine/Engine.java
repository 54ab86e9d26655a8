package io.loadlab.engine;

import io.loadlab.subject.LoadlabCache;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The load generators that can drive an experiment's runs: Loadlab's own engine, or wrk, h2load or
 * oha run as a separate process whose output is read back by {@link io.loadlab.importer.Importers}.
 * The label is the value of the {@code engine} column of {@code runs.csv}. A tool is looked for on
 * the PATH, then in Loadlab's tools folder ({@link LoadlabCache#toolsBin()}, where
 * {@code scripts/setup} installs oha).
 */
public enum Engine {
    /** The built-in Netty engine: histograms per second, service time, engine-thread CPU. */
    BUILTIN("builtin", "", "", ""),
    /** wrk 4 (closed loop, latency percentiles from {@code --latency}). */
    WRK("wrk", "wrk", "apt-get install wrk", "-v"),
    /** nghttp2's h2load over HTTP/1.1 (closed loop; mean, sd, min and max latency only). */
    H2LOAD("h2load", "h2load", "apt-get install nghttp2-client", "--version"),
    /**
     * oha (closed loop, or a fixed rate with {@code -q} and {@code --latency-correction}; latency
     * percentiles, status codes and errors from {@code --output-format json}).
     */
    OHA("oha", "oha", "scripts/setup test (cargo install oha --locked, into ~/.cache/loadlab/tools)", "--version");

    private final String label;
    private final String command;
    private final String install;
    private final String versionFlag;

    Engine(String label, String command, String install, String versionFlag) {
        this.label = label;
        this.command = command;
        this.install = install;
        this.versionFlag = versionFlag;
    }

    /**
     * The tool's version line, such as {@code wrk debian/4.1.0-3+b2 [epoll] Copyright ...}, for
     * {@code experiment.json}; {@code builtin} for the built-in engine, empty when the tool does
     * not say within 5 s.
     */
    public Optional<String> version() {
        if (!external()) {
            return Optional.of("builtin");
        }
        try {
            Process p = new ProcessBuilder(executable().toString(), versionFlag).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readNBytes(4096), java.nio.charset.StandardCharsets.UTF_8);
            if (!p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.empty();
            }
            // wrk -v exits with 1 after printing its version and usage: the first line is what counts.
            return out.lines().findFirst().map(String::strip).filter(l -> !l.isEmpty());
        } catch (java.io.IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The name users type and the {@code engine} column holds. */
    public String label() {
        return label;
    }

    /** Whether the engine runs as a separate process. */
    public boolean external() {
        return this != BUILTIN;
    }

    /** Whether the engine can load at a fixed rate ({@code run --rate}); wrk and h2load cannot. */
    public boolean fixedRate() {
        return this == BUILTIN || this == OHA;
    }

    /**
     * The tool's executable: found on the PATH or in Loadlab's tools folder, else the bare command
     * name (which then fails to start with the OS's message).
     */
    Path executable() {
        return LoadlabCache.find(command).orElse(Path.of(command));
    }

    /** Why the engine cannot run here (its command is not found), or empty when it can. */
    public Optional<String> unavailableReason() {
        if (!external() || LoadlabCache.find(command).isPresent()) {
            return Optional.empty();
        }
        return Optional.of("engine " + label + ": '" + command + "' is neither on the PATH nor in "
                + LoadlabCache.toolsBin() + "; install it with " + install);
    }

    /** The engine named {@code label}, case-insensitively. */
    public static Engine of(String label) {
        for (Engine e : values()) {
            if (e.label.equalsIgnoreCase(label.trim())) {
                return e;
            }
        }
        throw new EngineException("unknown engine '" + label + "': choose from " + labels());
    }

    /**
     * Engines from a comma-separated list such as {@code builtin,wrk}, in the order given.
     *
     * @throws EngineException for an unknown, repeated or empty name
     */
    public static List<Engine> list(String commaSeparated) {
        List<Engine> out = new ArrayList<>();
        for (String part : commaSeparated.split(",", -1)) {
            if (part.isBlank()) {
                throw new EngineException("engine list '" + commaSeparated + "' has an empty name; write for"
                        + " example builtin,wrk");
            }
            Engine e = of(part);
            if (out.contains(e)) {
                throw new EngineException("engine list '" + commaSeparated + "' names " + e.label + " twice");
            }
            out.add(e);
        }
        return List.copyOf(out);
    }

    /** The labels, as in {@code builtin, wrk, h2load, oha}. */
    public static String labels() {
        return Arrays.stream(values()).map(Engine::label).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return label.toLowerCase(Locale.ROOT);
    }
}
