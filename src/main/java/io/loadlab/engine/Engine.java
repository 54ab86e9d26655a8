package io.loadlab.engine;

import io.loadlab.subject.Subjects;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The load generators that can drive an experiment's runs: Loadlab's own engine, or wrk or h2load
 * run as a separate process whose output is read back by {@link io.loadlab.importer.Importers}.
 * The label is the value of the {@code engine} column of {@code runs.csv}.
 */
public enum Engine {
    /** The built-in Netty engine: histograms per second, service time, engine-thread CPU. */
    BUILTIN("builtin", "", "", ""),
    /** wrk 4 (closed loop, latency percentiles from {@code --latency}). */
    WRK("wrk", "wrk", "wrk", "-v"),
    /** nghttp2's h2load over HTTP/1.1 (closed loop; mean, sd, min and max latency only). */
    H2LOAD("h2load", "h2load", "nghttp2-client", "--version");

    private final String label;
    private final String command;
    private final String aptPackage;
    private final String versionFlag;

    Engine(String label, String command, String aptPackage, String versionFlag) {
        this.label = label;
        this.command = command;
        this.aptPackage = aptPackage;
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
            Process p = new ProcessBuilder(command, versionFlag).redirectErrorStream(true).start();
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

    /** Why the engine cannot run here (its command is not on the PATH), or empty when it can. */
    public Optional<String> unavailableReason() {
        if (!external() || Subjects.onPath(command)) {
            return Optional.empty();
        }
        return Optional.of("engine " + label + ": '" + command + "' is not on the PATH; install it with"
                + " apt-get install " + aptPackage);
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

    /** The labels, as in {@code builtin, wrk, h2load}. */
    public static String labels() {
        return Arrays.stream(values()).map(Engine::label).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return label.toLowerCase(Locale.ROOT);
    }
}
