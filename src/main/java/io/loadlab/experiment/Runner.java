package io.loadlab.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.data.ExperimentStore;
import io.loadlab.data.RunRow;
import io.loadlab.engine.EngineException;
import io.loadlab.engine.ExternalEngines;
import io.loadlab.engine.ExternalLoad;
import io.loadlab.engine.ExternalRun;
import io.loadlab.load.Expectation;
import io.loadlab.load.IntervalSample;
import io.loadlab.load.LoadEngine;
import io.loadlab.load.LoadException;
import io.loadlab.load.LoadModel;
import io.loadlab.load.LoadResult;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.RequestTemplate;
import io.loadlab.load.Target;
import io.loadlab.load.Warmup;
import io.loadlab.subject.Cpus;
import io.loadlab.subject.SubjectException;
import io.loadlab.subject.SubjectLauncher;
import io.loadlab.subject.SubjectProcess;
import io.loadlab.workload.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * Runs a {@link Plan}: for each round and each subject instance in the round's order, a fresh
 * subject process (pinned to the server CPUs), then each workload (preload, warm-up, measured
 * window, server CPU sampled over the window), each run's row and histograms written as soon as
 * it ends. A subject that fails to build or start, or dies, gives failed rows and the experiment
 * goes on. {@link #stop()} (Ctrl-C) ends the run in flight, stops the subject and leaves the
 * files consistent. One runner per experiment; {@link #execute} runs on the calling thread.
 */
public final class Runner {

    /** Hears the runner's progress (for a progress bar). */
    public interface Progress {
        default void message(String text) {
        }

        default void runStarting(Plan.Run run, int done, int total) {
        }

        default void runFinished(Plan.Run run, RunRow row, int done, int total) {
        }
    }

    /** What an {@link #execute} call did. */
    public record Outcome(Path dir, String status, List<RunRow> rows, Map<String, List<LoadResult>> results) {
        /** One line: the results hold histograms, whose full text JShell would build for a stored value. */
        @Override
        public String toString() {
            return "Outcome[" + dir + ": " + status + ", " + rows.size() + " runs recorded]";
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path home;
    private final ExperimentSpec spec;
    private final Plan plan;
    private final Progress progress;
    private final SubjectLauncher launcher;
    private volatile boolean stopRequested;
    private volatile Thread worker;
    /**
     * Guards {@link #interruptible}: the worker is interrupted only while it waits in a load run
     * or a cool-down, never while it writes files (an interrupt closes a FileChannel mid-write).
     */
    private final Object interruptLock = new Object();
    private boolean interruptible;
    private final CountDownLatch finished = new CountDownLatch(1);

    public Runner(Path home, ExperimentSpec spec, Plan plan, Progress progress) {
        this.home = home;
        this.spec = spec;
        this.plan = plan;
        this.progress = progress;
        this.launcher = new SubjectLauncher(home);
    }

    /**
     * Asks the runner to stop: the run in flight is abandoned (not recorded), the subject is
     * stopped, {@code experiment.json} says {@code interrupted}. Waits up to {@code wait} for that.
     */
    public boolean stop(Duration wait) {
        stopRequested = true;
        synchronized (interruptLock) {
            Thread t = worker;
            if (t != null && interruptible) {
                t.interrupt();
            }
        }
        try {
            return finished.await(wait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Runs every planned run not in {@code done}, writing into {@code store}.
     *
     * @param experimentJson the document to keep in {@code experiment.json}; status and end time
     *                       are updated in it
     */
    public Outcome execute(ExperimentStore store, ObjectNode experimentJson, Set<Integer> done) {
        worker = Thread.currentThread();
        List<RunRow> rows = new ArrayList<>();
        Map<String, List<LoadResult>> results = new LinkedHashMap<>();
        String status = "completed";
        Optional<Cpus.Split> split = Optional.empty();
        try {
            split = split();
            split.ifPresent(s -> Cpus.pinThisProcess(s.load()));
            int threads = spec.threads() > 0 ? spec.threads() : split.map(Cpus.Split::loadCount).orElse(1);
            experimentJson.put("status", "running");
            store.writeJson(experimentJson);
            List<Plan.Run> todo = plan.runs().stream().filter(r -> !done.contains(r.runId())).toList();
            int total = plan.runs().size();
            int[] count = {done.size()};
            // Group consecutive runs of one instance in one round: one subject process each.
            for (List<Plan.Run> group : groups(todo)) {
                if (stopRequested) {
                    status = "interrupted";
                    break;
                }
                if (!runGroup(group, split, threads, store, rows, results, count, total)) {
                    status = "interrupted";
                    break;
                }
            }
        } catch (RuntimeException e) {
            // Whatever stopped the experiment, the record must not say it completed.
            status = "failed";
            experimentJson.put("error", e.getMessage());
            throw e;
        } finally {
            if (split.isPresent()) {
                // Several experiments may run in one JVM (JShell, a notebook): give the CPUs back.
                Cpus.unpinThisProcess();
            }
            experimentJson.put("status", status);
            experimentJson.put("ended", Instant.now().toString());
            ArrayNode sessions = experimentJson.withArray("sessions");
            sessions.addObject().put("ended", Instant.now().toString()).put("status", status).put("runs", rows.size());
            try {
                store.writeJson(experimentJson);
            } finally {
                worker = null;
                finished.countDown();
            }
        }
        return new Outcome(store.dir(), status, rows, results);
    }

    private Optional<Cpus.Split> split() {
        if (spec.serverCpus().isPresent()) {
            Cpus.requireAvailable("--server-cpus", spec.serverCpus().get());
            Cpus.requireAvailable("--load-cpus", spec.loadCpus().orElseThrow());
            return Optional.of(new Cpus.Split(spec.serverCpus().get(), spec.loadCpus().orElseThrow()));
        }
        return Cpus.defaultSplit();
    }

    /** Runs one instance's workloads of one round; false when stopped. */
    private boolean runGroup(List<Plan.Run> group, Optional<Cpus.Split> split, int threads, ExperimentStore store,
                             List<RunRow> rows, Map<String, List<LoadResult>> results, int[] count, int total) {
        Plan.Run first = group.get(0);
        Plan.Instance inst = first.instance();
        String base = "r" + first.round() + "-" + inst.subject().name()
                + (inst.variant().isEmpty() ? "" : "-" + String.join("-", inst.variant().values()));
        Path log = store.dir().resolve("logs").resolve(base + ".log");
        Path work = store.dir().resolve("work").resolve(base);
        String serverCpus = split.map(Cpus.Split::server).orElse("");
        String loadCpus = split.map(Cpus.Split::load).orElse("");
        int i = 0;
        try {
            Files.createDirectories(log.getParent());
            int port = SubjectProcess.freePort();
            progress.message("starting " + inst.label() + " (round " + first.round() + ")");
            // Building and waiting for readiness can take minutes: Ctrl-C may interrupt both.
            SubjectProcess started = interruptibly(() -> launcher.start(inst.subject().manifest(), inst.variant(),
                    port, split.map(Cpus.Split::server), work, log));
            try (SubjectProcess p = started) {
                Duration ready = spec.readyTimeoutOverride().orElse(inst.subject().manifest().ready().timeout());
                interruptibly(() -> {
                    p.awaitReady("127.0.0.1", port, inst.subject().manifest().ready().path(), ready);
                    return null;
                });
                for (; i < group.size(); i++) {
                    Plan.Run run = group.get(i);
                    if (stopRequested) {
                        return false;
                    }
                    progress.runStarting(run, count[0], total);
                    Map<String, String> v = RunRows.planned(spec, run, threads, loadCpus, serverCpus);
                    Measured m = p.isAlive() ? measure(run, port, threads, p, v, log, results, cpusInUse(split))
                            : new Measured(RunRows.failed(v, "subject " + inst.label() + " exited (code "
                            + p.exitCode().map(String::valueOf).orElse("?") + ") before this run; its log ends with:\n"
                            + SubjectProcess.tail(log, 10)), List.of());
                    if (stopRequested) {
                        return false; // the run in flight was cut short: not recorded
                    }
                    RunRow row = m.row();
                    store.append(row, m.intervals());
                    rows.add(row);
                    count[0]++;
                    progress.runFinished(run, row, count[0], total);
                    if (!spec.cooldown().isZero() && count[0] < total && pause(spec.cooldown())) {
                        return false;
                    }
                }
            }
        } catch (SubjectException | IOException | LoadException e) {
            if (stopRequested) {
                return false;
            }
            for (; i < group.size(); i++) {
                Plan.Run run = group.get(i);
                RunRow row = RunRows.failed(RunRows.planned(spec, run, threads, loadCpus, serverCpus), e.getMessage());
                store.append(row, List.of());
                rows.add(row);
                count[0]++;
                progress.runFinished(run, row, count[0], total);
            }
        } finally {
            deleteTree(work);
        }
        return !stopRequested;
    }

    /** A run's row and the per-second samples that go to the hlog. */
    private record Measured(RunRow row, List<IntervalSample> intervals) {}

    /** The CPUs whose other use is the window's noise: the server's and the load's; empty when not pinned. */
    private static List<Integer> cpusInUse(Optional<Cpus.Split> split) {
        return split.map(s -> {
            java.util.TreeSet<Integer> all = new java.util.TreeSet<>(Cpus.parse(s.server()));
            all.addAll(Cpus.parse(s.load()));
            return List.copyOf(all);
        }).orElse(List.of());
    }

    private Measured measure(Plan.Run run, int port, int threads, SubjectProcess p, Map<String, String> v, Path log,
                           Map<String, List<LoadResult>> results, List<Integer> cpus) {
        Workload w = run.workload();
        Warmup warmup = spec.warmupFor(run.instance().subject().manifest());
        try {
            w.preload().ifPresent(pre -> preload(pre, port));
            if (run.engine().external()) {
                return measureExternal(run, port, threads, p, v, log, warmup, cpus);
            }
            RequestTemplate req = new RequestTemplate(w.method(), new Target("127.0.0.1", port, w.path()), List.of(),
                    w.bodySize());
            LoadSpec ls = LoadSpec.builder().request(req)
                    .model(spec.rate().isPresent() ? new LoadModel.FixedRate(spec.rate().getAsDouble())
                            : new LoadModel.ClosedLoop(1))
                    .connections(spec.connections()).threads(Math.min(threads, spec.connections()))
                    .duration(spec.duration()).warmup(warmup).seed(runSeed(run))
                    .expect(new Expectation(w.expectedStatus(), w.expectedBody()))
                    .build();
            ServerSampler sampler = new ServerSampler(p.handle(), cpus);
            LoadResult r = interruptibly(() -> LoadEngine.run(ls, sampler));
            Optional<String> died = died(run, p, log);
            if (died.isEmpty()) {
                results.computeIfAbsent(key(run), k -> new ArrayList<>()).add(r);
            }
            return new Measured(RunRows.measured(v, r, sampler, died), r.intervals());
        } catch (LoadException | EngineException e) {
            String why = p.isAlive() ? e.getMessage() : "subject " + run.instance().label()
                    + " died; its log ends with:\n" + SubjectProcess.tail(log, 10);
            return new Measured(RunRows.failed(v, why), List.of());
        }
    }

    /**
     * A run driven by wrk, h2load or oha: a warm-up run of the tool (output not kept), then the
     * measured run with the server CPU read just before the tool starts and just after it exits.
     * The tool's output is kept next to the subject's log, so the run can be imported again.
     */
    private Measured measureExternal(Plan.Run run, int port, int threads, SubjectProcess p, Map<String, String> v,
                                     Path log, Warmup warmup, List<Integer> cpusInUse) {
        Workload w = run.workload();
        Optional<String> cpus = Optional.ofNullable(v.get("load_cpus")).filter(c -> !c.isEmpty());
        ExternalLoad load = new ExternalLoad(run.engine(), w.method(), "127.0.0.1", port, w.path(), w.bodySize(),
                spec.connections(), Math.min(threads, spec.connections()), spec.duration(), cpus,
                runSeed(run)).withRate(spec.rate());
        Path scratch = log.resolveSibling("run-" + run.runId() + "-" + run.engine().label());
        Path output = log.resolveSibling("run-" + run.runId() + "-" + run.engine().label() + ".txt");
        try {
            double[] warmed = warmUpForTool(run, port, threads, load, warmup, scratch);
            ServerSampler sampler = new ServerSampler(p.handle(), cpusInUse);
            ExternalRun r = interruptibly(() -> ExternalEngines.run(load, scratch, output, sampler::windowStarted,
                    sampler::windowEnded));
            int loadCpuCount = cpus.map(c -> Cpus.parse(c).size()).orElse(Runtime.getRuntime().availableProcessors());
            v.put("warmup_s", RunRow.num(Math.round(warmed[0] * 1000) / 1000.0));
            v.put("steady", Double.isNaN(warmed[1]) ? "" : Boolean.toString(warmed[1] > 0));
            return new Measured(RunRows.external(v, r, loadCpuCount, sampler, died(run, p, log)), List.of());
        } finally {
            deleteTree(scratch);
        }
    }

    /**
     * Warms the server and the tool up before a tool's measured run: a fixed warm-up is a run of
     * the tool itself; a steady-state warm-up is the built-in engine's (the tools cannot say when
     * the throughput settles) followed by a 1 s run of the tool, which warms the tool's own caches
     * and connections.
     *
     * @return {seconds of warm-up, 1 if steady, 0 if not, NaN if unknown}
     */
    private double[] warmUpForTool(Plan.Run run, int port, int threads, ExternalLoad load, Warmup warmup,
                                   Path scratch) {
        if (warmup.isNone()) {
            return new double[] {0, 0};
        }
        double seconds = 0;
        double steady = Double.NaN;
        Duration toolWarmup = warmup.max();
        if (warmup instanceof Warmup.Steady) {
            Workload w = run.workload();
            RequestTemplate req = new RequestTemplate(w.method(), new Target("127.0.0.1", port, w.path()), List.of(),
                    w.bodySize());
            LoadResult r = interruptibly(() -> LoadEngine.run(LoadSpec.builder().request(req)
                    .model(spec.rate().isPresent() ? new LoadModel.FixedRate(spec.rate().getAsDouble())
                            : new LoadModel.ClosedLoop(1))
                    .connections(spec.connections()).threads(Math.min(threads, spec.connections()))
                    .duration(Duration.ofMillis(500)).warmup(warmup).seed(runSeed(run))
                    .expect(new Expectation(w.expectedStatus(), w.expectedBody())).build()));
            seconds = r.warmupSeconds() + r.durationSeconds();
            steady = r.steady().orElse(false) ? 1 : 0;
            toolWarmup = Duration.ofSeconds(1);
        }
        Duration d = toolWarmup;
        interruptibly(() -> ExternalEngines.run(load.withDuration(d), scratch, scratch.resolve("warmup.txt"),
                () -> { }, () -> { }));
        return new double[] {seconds + d.toMillis() / 1000.0, steady};
    }

    /** The seed of one run's {rand} keys: the experiment's, mixed with the run id. */
    private long runSeed(Plan.Run run) {
        return spec.seed() * 31 + run.runId();
    }

    private static Optional<String> died(Plan.Run run, SubjectProcess p, Path log) {
        return p.isAlive() ? Optional.empty()
                : Optional.of("subject " + run.instance().label() + " died during the run; its log ends with:\n"
                + SubjectProcess.tail(log, 10));
    }

    /** Writes the keys a read workload reads, before its window; not measured. */
    private static void preload(Workload.Preload pre, int port) {
        RequestTemplate put = new RequestTemplate("PUT", new Target("127.0.0.1", port, pre.pathPrefix() + "{seq}"),
                List.of(), pre.bodySize());
        LoadResult r = LoadEngine.run(LoadSpec.builder().request(put).connections(Math.min(8, pre.count()))
                .threads(1).requests(pre.count()).expect(new Expectation(Set.of(200, 201, 204),
                        java.util.OptionalLong.empty())).build());
        if (r.errors().total() > 0 || r.requests() != pre.count()) {
            throw LoadException.failed("preloading " + pre.count() + " keys failed: " + r.requests()
                    + " answered, errors " + r.errors(), null);
        }
    }

    /**
     * The key under which results of one subject, variant and workload are grouped (built-in
     * engine runs only: the external tools give no histograms).
     */
    public static String key(Plan.Run run) {
        return run.instance().label() + " · " + run.workload().name();
    }

    private static List<List<Plan.Run>> groups(List<Plan.Run> runs) {
        List<List<Plan.Run>> out = new ArrayList<>();
        for (Plan.Run r : runs) {
            List<Plan.Run> last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && last.get(0).round() == r.round() && last.get(0).instance().equals(r.instance())) {
                last.add(r);
            } else {
                List<Plan.Run> g = new ArrayList<>();
                g.add(r);
                out.add(g);
            }
        }
        return out;
    }

    /** Waits for the cool-down; true when stopped meanwhile. */
    private boolean pause(Duration d) {
        try {
            return interruptibly(() -> {
                try {
                    Thread.sleep(d.toMillis());
                    return stopRequested;
                } catch (InterruptedException e) {
                    return true;
                }
            });
        } catch (LoadException stopped) {
            return true;
        }
    }

    /** Runs a wait that {@link #stop} may interrupt; the interrupt never outlives it. */
    private <T> T interruptibly(java.util.function.Supplier<T> wait) {
        synchronized (interruptLock) {
            if (stopRequested) {
                throw LoadException.failed("stopped", null);
            }
            interruptible = true;
        }
        try {
            return wait.get();
        } finally {
            synchronized (interruptLock) {
                interruptible = false;
                Thread.interrupted();
            }
        }
    }

    /** Deletes a folder and everything in it; nothing when it does not exist. */
    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            deleteRecursively(dir);
            Path parent = dir.getParent();
            try (Stream<Path> rest = Files.list(parent)) {
                if (rest.findAny().isEmpty()) {
                    Files.delete(parent);
                }
            }
        } catch (IOException e) {
            // A scratch folder that cannot be removed costs disk, not data: leave it.
        }
    }

    static ObjectMapper json() {
        return JSON;
    }
}
