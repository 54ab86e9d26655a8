package io.loadlab.experiment;

import io.loadlab.data.ExperimentJson;
import io.loadlab.data.ExperimentStore;
import io.loadlab.data.Group;
import io.loadlab.data.RunRow;
import io.loadlab.load.LoadException;
import io.loadlab.host.Cpus;
import io.loadlab.subject.ServedProtocol;
import io.loadlab.subject.ThrowawayCa;
import io.loadlab.subject.SubjectException;
import io.loadlab.subject.Subject;
import io.loadlab.subject.SubjectLauncher;
import io.loadlab.subject.SubjectProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * Runs a {@link Plan}: plan → subject lifecycle → engine → store. For each round and each subject
 * instance in the round's order, a fresh subject process (pinned to the server CPUs here, or started
 * by the agent of the spec's subject host there: a {@link Server} either way), then each of
 * its runs measured by {@link Measurement} with the run's engine, each row and its histograms
 * written as soon as it ends. A subject that fails to build or start, or dies, gives failed rows
 * and the experiment goes on. {@link #stop()} (Ctrl-C) ends the run in flight, stops the subject
 * and leaves the files consistent. One runner per experiment; {@link #execute} runs on the calling
 * thread.
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

        /**
         * The run's measured window starts, right after the server's CPU was read for it; on the
         * runner's thread, inside the run: keep it quick. Not called for a run on an agent.
         */
        default void windowStarted(Plan.Run run) {
        }

        /** The run's measured window has ended, right after the server's CPU was read for it. */
        default void windowEnded(Plan.Run run) {
        }
    }

    /**
     * What an {@link #execute} call did: its status, the rows it recorded, and the latency of its
     * successful runs merged per {@link Group#of(RunRow) group of their rows} (only what the summary
     * table needs: one histogram a group, never every run's intervals).
     */
    public record Outcome(Path dir, String status, List<RunRow> rows, Map<Group, Histogram> latency) {
        public Outcome {
            rows = List.copyOf(rows);
            latency = Collections.unmodifiableMap(new LinkedHashMap<>(latency));
        }

        /** One line: the histograms' full text is what JShell would build for a stored value. */
        @Override
        public String toString() {
            return "Outcome[" + dir + ": " + status + ", " + rows.size() + " runs recorded]";
        }
    }

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
            return finished.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** What this execution has recorded so far, and where. */
    private static final class Tally {
        final ExperimentStore store;
        final int total;
        final List<RunRow> rows = new ArrayList<>();
        final Map<Group, Histogram> latency = new LinkedHashMap<>();
        /** The rate each run offers; a sweep's shares need their round's recorded capacity run. */
        Offers offers;
        int done;

        Tally(ExperimentStore store, int total, int done) {
            this.store = store;
            this.total = total;
            this.done = done;
        }
    }

    /**
     * Runs every planned run not in {@code done}, writing into {@code store}.
     *
     * @param experimentJson the document to keep in {@code experiment.json}; status and end time
     *                       are updated in it
     */
    public Outcome execute(ExperimentStore store, ExperimentJson experimentJson, Set<Integer> done) {
        worker = Thread.currentThread();
        Tally tally = new Tally(store, plan.runs().size(), done.size());
        ExperimentJson.Status status = ExperimentJson.Status.COMPLETED;
        Optional<Cpus.Split> split = Optional.empty();
        try {
            split = split();
            split.ifPresent(s -> Cpus.pinThisProcess(s.load()));
            // With the subject on its own host, this host's CPUs are all the load's.
            int threads = spec.load().threads() > 0 ? spec.load().threads() : split.map(Cpus.Split::loadCount)
                    .orElse(spec.placement().subjectHost().isPresent() ? Cpus.allowed().size() : 1);
            experimentJson.status(ExperimentJson.Status.RUNNING);
            store.writeJson(experimentJson);
            tally.offers = Offers.of(spec, store.rows());
            List<Plan.Run> todo = plan.runs().stream().filter(r -> !done.contains(r.runId())).toList();
            Optional<ThrowawayCa> ca = throwawayCa(todo, store.dir());
            // The certificate names where the engine connects: 127.0.0.1 here, or the subject host.
            List<String> names = spec.placement().subjectHost().map(Servers::altNames).orElse(ThrowawayCa.LOCAL_NAMES);
            SubjectLauncher launcher = ca.map(c -> this.launcher.withCertificate(c.issue("server", names)))
                    .orElse(this.launcher);
            Measurement measurement = new Measurement(spec, split, threads, this::interruptibly, ca.map(ThrowawayCa::caCert),
                    progress);
            if (spec.selection().project().isPresent() && done.isEmpty()) {
                Optional<Cpus.Split> cpus = split;
                try {
                    Preflight.checkAll(plan, spec.selection().project().get().file(), () -> stopRequested,
                            inst -> startForCheck(launcher, inst, cpus, store.dir()));
                } finally {
                    plan.instances().forEach(i -> ScratchFolders.deleteQuietly(store.dir().resolve("work")
                            .resolve(checkFolder(i))));
                }
            }
            // Consecutive runs of one instance in one round share one subject process.
            RoundsWatch rounds = new RoundsWatch(spec);
            boolean enough = false;
            for (List<Plan.Run> group : groups(todo)) {
                if (!stopRequested && rounds.stopBefore(group.get(0).round(), store, experimentJson)) {
                    enough = true; // --rounds auto decided: the planned rounds left are not needed
                    break;
                }
                if (stopRequested || !runGroup(group, split, threads, measurement, launcher, tally)) {
                    status = ExperimentJson.Status.INTERRUPTED;
                    break;
                }
            }
            if (status == ExperimentJson.Status.COMPLETED && !enough) {
                rounds.end(store, experimentJson);
            }
        } catch (RuntimeException e) {
            // Whatever stopped the experiment, the record must not say it completed.
            status = ExperimentJson.Status.FAILED;
            experimentJson.error(e.getMessage());
            throw e;
        } finally {
            ScratchFolders.deleteQuietly(store.dir().resolve("work").resolve("tls"));
            if (split.isPresent()) {
                // Several experiments may run in one JVM (JShell, a notebook): give the CPUs back.
                Cpus.unpinThisProcess();
            }
            finish(store, experimentJson, status, tally.rows.size());
        }
        return new Outcome(store.dir(), status.value(), tally.rows, tally.latency);
    }

    private void finish(ExperimentStore store, ExperimentJson experimentJson, ExperimentJson.Status status, int rows) {
        experimentJson.endSession(status, rows);
        try {
            store.writeJson(experimentJson);
        } finally {
            worker = null;
            finished.countDown();
        }
    }

    /**
     * The experiment's throw-away CA, made when a run to do serves TLS (in {@code work/tls}, removed at
     * the end; a resumed experiment makes a new one, as its subjects start afresh).
     */
    private static Optional<ThrowawayCa> throwawayCa(List<Plan.Run> todo, Path dir) {
        if (todo.stream().noneMatch(r -> ServedProtocol.of(r.instance().variant()).tls())) {
            return Optional.empty();
        }
        if (!ThrowawayCa.available()) {
            throw new ExperimentException("the TLS variants need openssl for the throw-away CA: apt-get install"
                    + " openssl, or leave them out (--protocols 'h1|h2c')");
        }
        return Optional.of(ThrowawayCa.create(dir.resolve("work").resolve("tls")));
    }

    /** The CPUs of subject and load here; none when the subject runs on a subject host. */
    private Optional<Cpus.Split> split() {
        Placement where = spec.placement();
        if (where.subjectHost().isPresent()) {
            return Optional.empty();
        }
        if (where.serverCpus().isPresent()) {
            Cpus.requireAvailable("--server-cpus", where.serverCpus().get());
            Cpus.requireAvailable("--load-cpus", where.loadCpus().orElseThrow());
            return Optional.of(new Cpus.Split(where.serverCpus().get(), where.loadCpus().orElseThrow()));
        }
        return Cpus.defaultSplit();
    }

    /** Runs one instance's runs of one round in one fresh subject process; false when stopped. */
    private boolean runGroup(List<Plan.Run> group, Optional<Cpus.Split> split, int threads, Measurement measurement,
                             SubjectLauncher launcher, Tally tally) {
        Plan.Run first = group.get(0);
        Plan.Instance inst = first.instance();
        String base = "r" + first.round() + "-" + Subject.pathSegment(inst.subject().name()
                + (inst.variant().isEmpty() ? "" : "-" + String.join("-", inst.variant().values())));
        Path log = tally.store.dir().resolve("logs").resolve(base + ".log");
        Path work = tally.store.dir().resolve("work").resolve(base);
        String serverCpus = split.map(Cpus.Split::server).orElse("");
        String loadCpus = split.map(Cpus.Split::load).orElse("");
        int next = 0;
        try {
            Files.createDirectories(log.getParent());
            progress.message("starting " + inst.label() + " (round " + first.round() + ")"
                    + spec.placement().subjectHost().map(h -> " on " + h.address()).orElse(""));
            try (Server p = startReady(launcher, inst, split, work, log)) {
                for (; next < group.size(); next++) {
                    if (stopRequested) {
                        return false;
                    }
                    Plan.Run run = group.get(next);
                    progress.runStarting(run, tally.done, tally.total);
                    Offers.Offer offer = tally.offers.offer(run);
                    Map<String, String> planned = RunRows.planned(spec, run, offer, threads, loadCpus, serverCpus);
                    Measurement.Measured m = offer.refusal().isPresent()
                            ? Measurement.Measured.failed(RunRows.failed(planned, offer.refusal().get()))
                            : p.isAlive() ? measurement.measure(run, offer.rate(), p, planned, log)
                            : Measurement.Measured.failed(RunRows.failed(planned, "subject " + inst.label()
                            + " exited (code " + p.exitCode().map(String::valueOf).orElse("?") + ") before this run;"
                            + " its log ends with:\n" + p.logTail(10)));
                    if (stopRequested) {
                        return false; // the run in flight was cut short: not recorded
                    }
                    record(run, m, tally);
                    Duration cooldown = spec.load().cooldown();
                    if (!cooldown.isZero() && tally.done < tally.total && pause(cooldown)) {
                        return false;
                    }
                }
            }
        } catch (SubjectException | IOException | LoadException e) {
            if (stopRequested) {
                return false;
            }
            for (; next < group.size(); next++) {
                Plan.Run run = group.get(next);
                record(run, Measurement.Measured.failed(RunRows.failed(
                        RunRows.planned(spec, run, tally.offers.offer(run), threads, loadCpus, serverCpus),
                        e.getMessage())), tally);
            }
        } finally {
            ScratchFolders.deleteQuietly(work);
        }
        return !stopRequested;
    }

    /**
     * A fresh subject process, ready to answer: here, or on the subject host when there is one.
     * Building and readiness can take minutes, Ctrl-C may cut both.
     */
    private Server startReady(SubjectLauncher launcher, Plan.Instance inst, Optional<Cpus.Split> split, Path work,
                              Path log) throws IOException {
        Placement where = spec.placement();
        Duration ready = where.readyTimeoutOverride().orElse(inst.subject().manifest().ready().timeout());
        if (inst.subject().manifest().attached().isPresent()) {
            return AttachedServer.await(inst, ready, this::interruptibly);
        }
        if (where.subjectHost().isPresent()) {
            return Servers.remote(where.subjectHost().get(), inst, launcher.certificate(), ready, this::interruptibly);
        }
        return Servers.local(launcher, inst, SubjectProcess.freePort(), split, work, log, ready, this::interruptibly);
    }

    private static String checkFolder(Plan.Instance inst) {
        return "check-" + Subject.pathSegment(inst.subject().name());
    }

    /** A server of {@code inst} for the expect check before the first round, in {@code dir}'s logs and work. */
    private Server startForCheck(SubjectLauncher launcher, Plan.Instance inst, Optional<Cpus.Split> split, Path dir) {
        progress.message("checking " + inst.label() + " against its workloads' expect");
        String base = checkFolder(inst);
        Path log = dir.resolve("logs").resolve(base + ".log");
        try {
            Files.createDirectories(log.getParent());
            return startReady(launcher, inst, split, dir.resolve("work").resolve(base), log);
        } catch (IOException e) {
            throw new ExperimentException("cannot start " + inst.label() + " for the expect check: " + e.getMessage(), e);
        }
    }

    /** Appends a run's row and histograms to the store and tells the progress. */
    private void record(Plan.Run run, Measurement.Measured m, Tally tally) {
        tally.store.append(m.row(), m.intervals(), m.parts());
        tally.rows.add(m.row());
        tally.offers.recorded(m.row());
        m.latency().ifPresent(h -> tally.latency.computeIfAbsent(Group.of(m.row()), k -> new Histogram(3)).add(h));
        tally.done++;
        progress.runFinished(run, m.row(), tally.done, tally.total);
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
    private <T> T interruptibly(Supplier<T> wait) {
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

}
