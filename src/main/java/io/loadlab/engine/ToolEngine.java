package io.loadlab.engine;

import io.loadlab.data.RunColumn;
import io.loadlab.host.Cpus;
import io.loadlab.host.Executables;
import io.loadlab.host.LoadlabCache;
import io.loadlab.importer.ImportedRun;
import io.loadlab.importer.Tool;
import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadModel;
import io.loadlab.load.LoadResult;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.NettyLoad;
import io.loadlab.load.Warmed;
import io.loadlab.load.Warmup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * wrk, h2load or oha as an {@link Engine}: the tool runs as a separate process pinned to the load
 * CPUs ({@link ExternalEngines}), its output is read back by the importers and kept. What the tool
 * can run (a fixed rate, protocols, durations, paths), how it is installed and how its output is read
 * are its {@link Tool}'s rules; this class adds only its command line ({@link Arguments}). A fixed
 * warm-up is a run of the tool; a steady-state warm-up is the built-in engine's (a tool cannot say
 * when the throughput settles) followed by a second of the tool, which warms its own connections.
 * A tool is looked for on the PATH, then in Loadlab's tools folder ({@link LoadlabCache#toolsBin()}).
 */
public final class ToolEngine implements Engine {

    /**
     * A tool's command line after the executable, with the input files it needs written to
     * {@code scratch}: the one thing about a tool that is the engine's, not the {@link Tool}'s.
     */
    interface Arguments {
        void append(ExternalLoad load, Path scratch, List<String> cmd) throws IOException;
    }

    /** The tool's own run after the built-in engine's steady-state warm-up. */
    private static final Duration TOOL_WARMUP = Duration.ofSeconds(1);
    private static final String ERRORS_PREFIX = "errors_";

    private final Tool tool;
    private final Tool.Command command;
    private final Arguments arguments;

    /**
     * @throws EngineException for a tool Loadlab only imports (it has no {@link Tool#command()})
     */
    ToolEngine(Tool tool, Arguments arguments) {
        this.tool = tool;
        this.command = tool.command().orElseThrow(() -> new EngineException(tool.label() + " is imported only,"
                + " not run as an engine"));
        this.arguments = arguments;
    }

    /** Which tool this is, with its rules. */
    public Tool tool() {
        return tool;
    }

    /** Its command line. */
    Arguments arguments() {
        return arguments;
    }

    @Override
    public String label() {
        return tool.label();
    }

    @Override
    public boolean external() {
        return true;
    }

    @Override
    public boolean fixedRate() {
        return tool.fixedRate();
    }

    /**
     * The tool's executable: found on the PATH or in Loadlab's tools folder, else the bare command
     * name (which then fails to start with the OS's message).
     */
    Path executable() {
        return Executables.find(label()).orElse(Path.of(label()));
    }

    @Override
    public Optional<String> version() {
        try {
            Process p = new ProcessBuilder(executable().toString(), command.versionFlag()).redirectErrorStream(true)
                    .start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readNBytes(4096), StandardCharsets.UTF_8);
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
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

    @Override
    public Optional<String> unavailableReason() {
        if (Executables.find(label()).isPresent()) {
            return Optional.empty();
        }
        return Optional.of("engine " + label() + ": '" + label() + "' is neither on the PATH nor in "
                + LoadlabCache.toolsBin() + "; install it with " + command.install());
    }

    @Override
    public Optional<String> cannotRun(String path, List<Duration> durations) {
        return tool.cannotRun(path, durations);
    }

    @Override
    public Optional<String> cannotSpeak(io.loadlab.load.Protocol protocol, boolean tls) {
        return tool.cannotSpeak(protocol); // each tool Loadlab runs speaks TLS
    }

    @Override
    public EngineResult run(RunSpec spec, LoadListener window) {
        ExternalLoad load = load(spec);
        Warmed warmed = warmUp(spec, load);
        ExternalRun r = ExternalEngines.run(load, spec.scratch(), spec.output(), window::windowStarted,
                window::windowEnded);
        int loadCpus = spec.loadCpus().map(c -> Cpus.parse(c).size()).orElse(Runtime.getRuntime().availableProcessors());
        return of(r, warmed, loadCpus, load.wire());
    }

    /** The tool's form of the run's load. */
    private ExternalLoad load(RunSpec spec) {
        LoadSpec l = spec.load();
        OptionalDouble rate = l.model() instanceof LoadModel.FixedRate f ? OptionalDouble.of(f.requestsPerSecond())
                : OptionalDouble.empty();
        Duration d = l.duration().orElseThrow(() -> new EngineException(label() + " runs for a duration, not a"
                + " request count"));
        ToolProtocol wire = new ToolProtocol(l.protocol(), l.request().target().tls(), l.streams(), l.tls().caCert(),
                l.tls().insecure());
        return new ExternalLoad(this, l.request().method(), l.request().target().host(), l.request().target().port(),
                l.request().target().path(), l.request().bodySize(), l.connections(), l.threads(), d, spec.loadCpus(),
                l.seed(), rate, wire);
    }

    private Warmed warmUp(RunSpec spec, ExternalLoad load) {
        Warmup w = spec.load().warmup();
        if (w.isNone()) {
            return new Warmed(0, Optional.of(false), List.of());
        }
        Path warmupOutput = spec.scratch().resolve("warmup.txt");
        if (w instanceof Warmup.Fixed f) {
            ExternalEngines.run(load.withDuration(f.length()), spec.scratch(), warmupOutput, () -> { }, () -> { });
            return new Warmed(f.length().toMillis() / 1000.0, Optional.empty(), List.of());
        }
        LoadResult builtin = NettyLoad.run(spec.load().withWindow(Duration.ofMillis(500)));
        ExternalEngines.run(load.withDuration(TOOL_WARMUP), spec.scratch(), warmupOutput, () -> { }, () -> { });
        return new Warmed(builtin.warmupSeconds() + builtin.durationSeconds() + TOOL_WARMUP.toMillis() / 1000.0,
                builtin.steady(), builtin.warmup().intervalRps());
    }

    /**
     * What the tool reported, in the engine-neutral form; figures it does not print stay empty. The
     * protocol is the one the tool says it negotiated (h2load), else the one it was told to speak (wrk
     * and oha speak it or fail). TLS errors are counted apart by oha only (0 when it printed none); wrk
     * counts a failed handshake as a connect error and h2load as an errored request.
     */
    private EngineResult of(ExternalRun r, Warmed warmed, int loadCpus, ToolProtocol wire) {
        ImportedRun t = r.reported();
        Map<String, Long> errors = new LinkedHashMap<>();
        for (RunColumn c : List.of(RunColumn.ERRORS_CONNECT, RunColumn.ERRORS_READ, RunColumn.ERRORS_WRITE,
                RunColumn.ERRORS_TIMEOUT, RunColumn.ERRORS_STATUS, RunColumn.ERRORS_PROTOCOL)) {
            // The category is the column's name without its prefix: errors_connect counts connect errors.
            longValue(t, c).ifPresent(n -> errors.put(c.id().substring(ERRORS_PREFIX.length()), n));
        }
        if (wire.tls() && tool.countsTlsErrorsApart()) {
            errors.put("tls", longValue(t, RunColumn.ERRORS_TLS).orElse(0));
        }
        String protocol = t.get(RunColumn.PROTOCOL.id()).isEmpty() ? wire.protocol().label()
                : t.get(RunColumn.PROTOCOL.id());
        Optional<Latency> service = t.get(RunColumn.SVC_P50_US.id()).isEmpty() ? Optional.empty()
                : Optional.of(new Latency(OptionalDouble.empty(), OptionalDouble.empty(), longValue(t, RunColumn.SVC_P50_US),
                OptionalLong.empty(), longValue(t, RunColumn.SVC_P90_US), longValue(t, RunColumn.SVC_P99_US),
                longValue(t, RunColumn.SVC_P999_US), OptionalLong.empty()));
        double cpu = r.toolCpuSeconds();
        OptionalDouble toolCpu = Double.isFinite(cpu) ? OptionalDouble.of(cpu) : OptionalDouble.empty();
        Optional<Boolean> bound = toolCpu.isPresent() ? Optional.of(r.wallSeconds() > 0
                && cpu >= LoadResult.LOAD_BOUND_SHARE * loadCpus * r.wallSeconds()) : Optional.empty();
        return new EngineResult(label(), longValue(t, RunColumn.REQUESTS).orElse(0),
                doubleValue(t, RunColumn.DURATION_S).orElse(0), doubleValue(t, RunColumn.RPS), longValue(t, RunColumn.BYTES_READ), OptionalLong.empty(), errors, latency(t), service,
                toolCpu, toolCpu, bound, warmed, OptionalLong.empty(), List.of(), Optional.empty(),
                Optional.of(r.output()), Optional.of(protocol));
    }

    private static Latency latency(ImportedRun t) {
        return new Latency(doubleValue(t, RunColumn.LAT_MEAN_US), doubleValue(t, RunColumn.LAT_STDEV_US),
                longValue(t, RunColumn.LAT_P50_US), longValue(t, RunColumn.LAT_P75_US), longValue(t, RunColumn.LAT_P90_US),
                longValue(t, RunColumn.LAT_P99_US), longValue(t, RunColumn.LAT_P999_US), longValue(t, RunColumn.LAT_MAX_US));
    }

    private static OptionalLong longValue(ImportedRun t, RunColumn field) {
        String v = t.get(field.id());
        try {
            return v.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Math.round(Double.parseDouble(v)));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static OptionalDouble doubleValue(ImportedRun t, RunColumn field) {
        String v = t.get(field.id());
        try {
            return v.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(v));
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }

    @Override
    public String toString() {
        return label();
    }
}
