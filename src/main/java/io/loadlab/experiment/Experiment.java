package io.loadlab.experiment;

import io.loadlab.data.EnvironmentSection;
import io.loadlab.data.ExperimentJson;
import io.loadlab.data.ExperimentStore;
import io.loadlab.host.Cpus;
import io.loadlab.project.Catalog;
import io.loadlab.subject.SubjectLauncher;
import io.loadlab.workload.Workload;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An experiment ready to run: its plan, its folder and its runner. {@link #create} starts a new
 * one, {@link #resume} completes an interrupted one without repeating its recorded runs.
 */
public final class Experiment {

    private final ExperimentSpec spec;
    private final Plan plan;
    private final ExperimentStore store;
    private final ExperimentJson json;
    private final Set<Integer> done;
    private final List<String> warnings;
    private final Runner runner;

    private Experiment(Path home, ExperimentSpec spec, Plan plan, ExperimentStore store, ExperimentJson json,
                       Set<Integer> done, List<String> warnings, Runner.Progress progress) {
        this.spec = spec;
        this.plan = plan;
        this.store = store;
        this.json = json;
        this.done = Set.copyOf(done);
        this.warnings = List.copyOf(warnings);
        this.runner = new Runner(home, spec, plan, progress);
    }

    /**
     * Plans a new experiment and creates its folder.
     *
     * @throws ExperimentException for patterns that match nothing
     * @throws io.loadlab.data.DataException when the folder exists or cannot be written
     */
    public static Experiment create(Path home, ExperimentSpec spec, Path dir, List<String> commandLine,
                                    Runner.Progress progress) {
        Plan plan = plan(home, spec);
        SubjectLauncher launcher = new SubjectLauncher(home);
        Map<String, String> versions = new LinkedHashMap<>();
        // A subject host's versions are its own, which this host cannot read: none is claimed for it.
        Placement where = spec.placement();
        plan.instances().forEach(i -> versions.computeIfAbsent(i.subject().name(), n -> where.subjectHost()
                .map(h -> "not recorded (runs on subject host " + h.address() + ")")
                .orElseGet(() -> version(launcher, i.subject().manifest()))));
        String pinning = where.subjectHost().isPresent() ? "none here: the subjects run unpinned on subject host "
                + where.subjectHost().get().address() + ", the load has this host's CPUs"
                : where.serverCpus().map(s -> "server CPUs " + s + ", load CPUs " + where.loadCpus().orElseThrow())
                .orElseGet(() -> Cpus.defaultSplit().map(s -> "server CPUs " + s.server() + ", load CPUs " + s.load())
                        .orElse("none: one CPU or no taskset; server and load share the CPUs"));
        long start = System.currentTimeMillis();
        // The external engines' versions, next to the subjects': a wrk update can change figures too.
        Map<String, String> engineVersions = new LinkedHashMap<>();
        spec.generators().engines().stream().filter(io.loadlab.engine.Engine::external)
                .forEach(e -> engineVersions.put(e.label(), e.version().orElse("unknown")));
        // What each subject was made of, so that a rerun elsewhere can say whose sources differ.
        Map<String, EnvironmentSection.Sources> sources = new LinkedHashMap<>();
        plan.instances().stream().filter(i -> i.subject().manifest().attached().isEmpty())
                .forEach(i -> sources.computeIfAbsent(i.subject().name(),
                        n -> sources(io.loadlab.subject.SubjectSources.of(i.subject().manifest()))));
        List<String> warnings = warnings(spec);
        ExperimentJson json = ExperimentJson.planned(new ExperimentJson.Planned(spec.toJson(), commandLine,
                Environment.capture(home, versions, pinning).toSection(engineVersions, sources), start,
                plan.runs().stream().map(Experiment::describe).toList(), plan.skipped(), warnings));
        ExperimentStore store = ExperimentStore.create(dir, json, start);
        return new Experiment(home, spec, plan, store, json, Set.of(), warnings, progress);
    }

    /** A subject's version: its command's, else a revision's commit, else unknown. */
    private static String version(SubjectLauncher launcher, io.loadlab.subject.SubjectManifest m) {
        if (m.attached().isPresent()) {
            return "not recorded (started outside Loadlab, at " + m.attached().get().url() + ")";
        }
        return launcher.version(m).or(() -> m.commit().map(c -> "git commit " + c)).orElse("unknown");
    }

    private static EnvironmentSection.Sources sources(io.loadlab.subject.SubjectSources s) {
        return new EnvironmentSection.Sources(s.manifest(), s.sources(), s.files());
    }

    /**
     * Records where a rerun's spec came from in {@code experiment.json} before the experiment
     * runs, and writes the file.
     *
     * @throws IllegalStateException when the file records an origin already
     */
    void recordRerunOf(ExperimentJson.RerunOrigin origin) {
        json.rerunOf(origin);
        store.writeJson(json);
    }

    /**
     * Reopens an experiment folder and plans the runs it still lacks, with the spec stored in it.
     */
    public static Experiment resume(Path home, Path dir, Runner.Progress progress) {
        ExperimentStore.Opened opened = ExperimentStore.open(dir);
        try {
            return resume(home, dir, opened, progress);
        } catch (RuntimeException e) {
            try {
                opened.store().close(); // refused: the folder is free for the next try
            } catch (RuntimeException notReleased) {
                e.addSuppressed(notReleased);
            }
            throw e;
        }
    }

    private static Experiment resume(Path home, Path dir, ExperimentStore.Opened opened, Runner.Progress progress) {
        if (opened.experimentJson().header().imported()) {
            // Its spec section is empty by design: without this, the reader said the file was damaged.
            throw new ExperimentException("cannot resume " + dir + ": it was imported from tool outputs (loadlab import)"
                    + " and records no spec to run; import more outputs into it, or loadlab run a new experiment");
        }
        ExperimentSpec spec = ExperimentSpec.fromJson(opened.experimentJson().spec());
        Plan plan = plan(home, spec);
        // Run ids come from planning again: refuse when the catalog changed what they mean.
        Optional<List<String>> recorded = opened.experimentJson().header().plan();
        if (recorded.isPresent()) {
            List<String> stored = recorded.get();
            List<String> now = plan.runs().stream().map(Experiment::describe).toList();
            for (int i = 0; i < Math.max(stored.size(), now.size()); i++) {
                String was = i < stored.size() ? stored.get(i) : "(nothing)";
                String is = i < now.size() ? now.get(i) : "(nothing)";
                if (!was.equals(is)) {
                    throw new ExperimentException("cannot resume " + dir + ": the plan changed since it started (run "
                            + (i + 1) + " was '" + was + "', now '" + is + "'); the subjects, their availability or"
                            + " the workloads differ here, so resume where the toolchains and subjects/ are the same");
                }
            }
        }
        // Scratch folders of subjects that a killed session left: each process gets a fresh one.
        deleteTree(dir.resolve("work"));
        ExperimentJson json = opened.experimentJson();
        List<String> warnings = warnings(spec);
        json.addWarnings(warnings);
        return new Experiment(home, spec, plan, opened.store(), json, opened.doneRunIds(), warnings, progress);
    }

    /** What makes this machine's results less trustworthy: for now, CPUs that cannot be split. */
    private static List<String> warnings(ExperimentSpec spec) {
        return spec.placement().serverCpus().isPresent() ? List.of() : Cpus.sharingWarning().stream().toList();
    }

    private static void deleteTree(Path dir) {
        try {
            ScratchFolders.deleteRecursively(dir);
        } catch (IOException e) {
            throw new ExperimentException("cannot remove the scratch folders a stopped session left in " + dir + " ("
                    + e.getMessage() + "): remove it, then resume again", e);
        }
    }

    /**
     * One planned run as stored in experiment.json: id, round, position, subject, variant,
     * workload, the engine when it is not the built-in one (so plans stored before engines
     * existed still match), and a sweep's point ({@code capacity}, {@code 50%}, {@code 1000/s}).
     */
    static String describe(Plan.Run r) {
        return r.runId() + " r" + r.round() + " p" + r.position() + " " + r.instance().subject().name() + " "
                + (r.instance().variantLabel().isEmpty() ? "-" : r.instance().variantLabel()) + " " + r.workload().name()
                + (r.engine().external() ? " " + r.engine().label() : "")
                + r.point().map(p -> " " + p.label()).orElse("");
    }

    private static Plan plan(Path home, ExperimentSpec spec) {
        return plan(Catalog.of(home, spec.selection().project()), spec);
    }

    /** The spec's plan over {@code catalog}'s subjects and workloads. */
    static Plan plan(Catalog catalog, ExperimentSpec spec) {
        Pattern wp = Pattern.compile(spec.selection().workloads());
        List<Workload> workloads = catalog.workloads().stream().filter(w -> wp.matcher(w.name()).matches()).toList();
        if (workloads.isEmpty()) {
            throw new ExperimentException("no workload matches '" + spec.selection().workloads() + "'; workloads: "
                    + String.join(", ", catalog.workloads().stream().map(Workload::name).toList()));
        }
        return Plan.of(spec, catalog.subjects().matching(spec.selection().subjects()), workloads);
    }

    public ExperimentSpec spec() {
        return spec;
    }

    public Plan plan() {
        return plan;
    }

    public Path dir() {
        return store.dir();
    }

    /** {@code Experiment[data/tmp/quickstart-1: 12 runs planned, 0 recorded]}. */
    @Override
    public String toString() {
        return "Experiment[" + dir() + ": " + plan.runs().size() + " runs planned, " + done.size() + " recorded]";
    }

    /**
     * Warnings about this machine for the user, also stored in {@code experiment.json}: such as
     * one CPU only, where subject and load generator cannot be pinned apart.
     */
    public List<String> warnings() {
        return warnings;
    }

    /** Runs already recorded (non-empty when resuming). */
    public Set<Integer> done() {
        return done;
    }

    /**
     * Runs the remaining runs on the calling thread. The experiment joins the calling thread's
     * {@link ExperimentScope}, if there is one, while it executes: a notebook kernel stops it
     * through that scope on an interrupt. The folder stays locked against another run or
     * {@code --resume} from {@link #create} or {@link #resume} until this returns or throws; an
     * experiment is executed once.
     */
    public Runner.Outcome execute() {
        Runnable leave = ExperimentScope.join(this);
        try (store) {
            return runner.execute(store, json, done);
        } finally {
            leave.run();
        }
    }

    /** Stops a running {@link #execute} (from another thread) and waits for its clean-up. */
    public boolean stop(Duration wait) {
        return runner.stop(wait);
    }
}
