package io.loadlab.experiment;

import io.loadlab.data.RunRow;
import io.loadlab.engine.EngineException;
import io.loadlab.engine.EngineResult;
import io.loadlab.engine.RunSpec;
import io.loadlab.load.Expectation;
import io.loadlab.load.IntervalSample;
import io.loadlab.load.LoadException;
import io.loadlab.load.LoadModel;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.Protocol;
import io.loadlab.load.TlsOptions;
import io.loadlab.load.RequestTemplate;
import io.loadlab.load.Target;
import io.loadlab.host.Cpus;
import io.loadlab.subject.ServedProtocol;
import io.loadlab.subject.ServerSampler;
import io.loadlab.workload.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * One planned run measured against its running subject: the preload, the run's spec for its
 * engine, the engine's run with the server sampled over the window, and the row. Knows nothing of
 * which engine it is.
 */
final class Measurement {

    /**
     * A run's row, the per-second samples that go to the hlog, its latency histogram if any, and the
     * {@code agents.csv} values of each of its load generators when it had several.
     */
    record Measured(RunRow row, List<IntervalSample> intervals, Optional<Histogram> latency,
                    List<Map<String, String>> parts) {
        static Measured failed(RunRow row) {
            return new Measured(row, List.of(), Optional.empty(), List.of());
        }
    }

    /** Runs a wait that a stop may interrupt (the runner's guard). */
    interface Waits {
        <T> T interruptibly(Supplier<T> wait);
    }

    private final ExperimentSpec spec;
    private final Optional<Cpus.Split> split;
    private final int threads;
    private final Waits waits;
    /** The experiment's throw-away CA, which every TLS run trusts; empty when no variant serves TLS. */
    private final Optional<Path> caCert;
    private final Runner.Progress progress;

    Measurement(ExperimentSpec spec, Optional<Cpus.Split> split, int threads, Waits waits, Optional<Path> caCert,
                Runner.Progress progress) {
        this.progress = progress;
        this.spec = spec;
        this.split = split;
        this.threads = threads;
        this.waits = waits;
        this.caCert = caCert;
    }

    /**
     * Measures {@code run} on the subject {@code p}, wherever it runs; a failure of the run (or the
     * subject's death) gives a failed row with the reason.
     *
     * @param rate    the run's fixed rate in requests/s; empty for a closed loop
     * @param planned the row's planned values
     * @param log     the subject's log, next to which a tool keeps its output
     */
    Measured measure(Plan.Run run, OptionalDouble rate, Server p, Map<String, String> planned, Path log) {
        Path scratch = log.resolveSibling("run-" + run.runId() + "-" + run.engine().label());
        try {
            LoadSpec load = load(run, rate, p.host(), p.port(), p.age());
            run.workload().preload().ifPresent(pre -> Preload.write(pre, load.request().target(), load.protocol(),
                    load.tls()));
            RunSpec rs = new RunSpec(load, split.map(Cpus.Split::load), scratch,
                    log.resolveSibling("run-" + run.runId() + "-" + run.engine().label() + ".txt"));
            Server.Sampler sampler = heard(run, p.sampler(cpusInUse()));
            EngineResult r = waits.interruptibly(() -> run.engine().run(rs, sampler));
            Optional<String> failed = died(run, p).or(r::failure).or(() -> unanswered(run, r, log));
            return new Measured(RunRows.of(planned, r, sampler.reading(), failed), r.intervals(),
                    failed.isEmpty() ? r.histogram() : Optional.empty(),
                    r.parts().stream().map(EngineResult.Part::values).toList());
        } catch (LoadException | EngineException e) {
            String why = p.isAlive() ? e.getMessage() : "subject " + run.instance().label()
                    + " died; its log ends with:\n" + p.logTail(10);
            return Measured.failed(RunRows.failed(planned, why));
        } finally {
            ScratchFolders.deleteQuietly(scratch);
        }
    }

    /**
     * A run in which the subject answered nothing measured nothing: a row of 0 requests/s would read
     * as a throughput, so it fails, with the errors the engine counted.
     */
    private static Optional<String> unanswered(Plan.Run run, EngineResult r, Path log) {
        if (r.requests() > 0) {
            return Optional.empty();
        }
        String errors = r.errors().entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
        return Optional.of(String.format(Locale.ROOT, "subject '%s' answered no request in the %.1f s window (%s);"
                + " its log: %s", run.instance().label(), r.durationSeconds(),
                errors.isEmpty() ? "no error counted: every request was still waiting" : "errors: " + errors, log));
    }

    /**
     * The run's load: its workload's request at the experiment's settings and its rate, its subject's
     * warm-up for a process that old, over the protocol of its variant, to the subject at {@code host}
     * (127.0.0.1 here, a subject host's address there). TLS runs go to the same host, which the server
     * certificate names (127.0.0.1 here, the {@code --subject-host} host there: SNI for a name, none for
     * an address), verified against the experiment's CA, resuming sessions as clients do.
     */
    private LoadSpec load(Plan.Run run, OptionalDouble rate, String host, int port, Duration processAge) {
        Workload w = run.workload();
        ServedProtocol served = ServedProtocol.of(run.instance().variant());
        Target target = new Target(served.tls(), host, port, w.path());
        RequestTemplate req = w.body() instanceof Workload.Literal given
                ? RequestTemplate.withBody(w.method(), target, w.headers(), given.bytes())
                : new RequestTemplate(w.method(), target, w.headers(), w.bodySize());
        RunLoad each = spec.load();
        return LoadSpec.builder().request(req).protocol(protocolOf(served)).streams(served.http2() ? each.streams() : 1)
                .tls(new TlsOptions(caCert, false, true, Optional.empty(), List.of(), List.of(), TlsOptions.Provider.AUTO))
                .model(rate.isPresent() ? new LoadModel.FixedRate(rate.getAsDouble(), each.paceSlack())
                        : new LoadModel.ClosedLoop(1))
                .connections(each.connections()).threads(Math.min(threads, each.connections()))
                .duration(each.duration()).warmup(each.warmupFor(run.instance().subject().manifest(), processAge))
                .seed(spec.seed() * 31 + run.runId())
                .expect(new Expectation(w.expectedStatus(), w.expectedBody(), w.bodyContains()))
                .build();
    }

    /** The sampler, with the progress told of the window's start and end right after it read the server. */
    private Server.Sampler heard(Plan.Run run, Server.Sampler inner) {
        return new Server.Sampler() {
            @Override
            public void windowStarted() {
                inner.windowStarted();
                progress.windowStarted(run);
            }

            @Override
            public void windowEnded() {
                inner.windowEnded();
                progress.windowEnded(run);
            }

            @Override
            public void started() {
                inner.started();
            }

            @Override
            public OptionalDouble serverCompilerSeconds() {
                return inner.serverCompilerSeconds();
            }

            @Override
            public void interval(io.loadlab.load.IntervalSample sample) {
                inner.interval(sample);
            }

            @Override
            public ServerSampler.Window reading() {
                return inner.reading();
            }
        };
    }

    /** The HTTP version a variant's protocol is spoken in (TLS is the URL's). */
    static Protocol protocolOf(ServedProtocol served) {
        return switch (served) {
            case H1, H1_TLS -> Protocol.HTTP_1_1;
            case H2_TLS -> Protocol.H2;
            case H2C -> Protocol.H2C;
        };
    }

    /** The CPUs whose other use is the window's noise: the server's and the load's; empty when not pinned. */
    private List<Integer> cpusInUse() {
        return split.map(s -> {
            TreeSet<Integer> all = new TreeSet<>(Cpus.parse(s.server()));
            all.addAll(Cpus.parse(s.load()));
            return List.copyOf(all);
        }).orElse(List.of());
    }

    /** Why a run must not count: its subject died during it. */
    static Optional<String> died(Plan.Run run, Server p) {
        return p.isAlive() ? Optional.empty()
                : Optional.of("subject " + run.instance().label() + " died during the run; its log ends with:\n"
                + p.logTail(10));
    }
}
