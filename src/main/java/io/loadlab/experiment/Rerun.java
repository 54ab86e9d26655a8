package io.loadlab.experiment;

import io.loadlab.data.DataException;
import io.loadlab.data.EnvironmentSection;
import io.loadlab.data.ExperimentJson;
import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import io.loadlab.data.SpecSection;
import io.loadlab.engine.Engine;
import io.loadlab.project.Catalog;
import io.loadlab.subject.Subject;
import io.loadlab.subject.SubjectSources;
import io.loadlab.subject.Subjects;
import io.loadlab.workload.Workload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import tech.tablesaw.api.Table;

/**
 * An experiment recorded elsewhere (or earlier), made ready to run again here: the stored spec
 * with a new name, checked against this machine's subjects and engines, planned, and the plan
 * held against the recorded one run by run, so that the rerun makes exactly the same runs in the
 * same order. The recorded folder is only read.
 *
 * @param from         the recorded experiment's folder
 * @param spec         the spec to run: the recorded one, named after the new folder (and its
 *                     subject pattern narrowed to the recorded subjects when it matches more here)
 * @param recordedPlan the recorded runs as {@code experiment.json} stores a plan (from its plan, or
 *                     from {@code runs.csv} for experiments stored before plans were)
 * @param plan         the plan here, whose runs equal {@code recordedPlan}
 * @param notes        what differs here that does not stop the rerun: subjects whose manifest or
 *                     sources differ from the recorded hashes, hashes not recorded, a narrowed pattern
 * @param origin       the recorded experiment.json
 */
public record Rerun(Path from, ExperimentSpec spec, List<String> recordedPlan, Plan plan, List<String> notes,
                    ExperimentJson origin) {

    public Rerun {
        recordedPlan = List.copyOf(recordedPlan);
        notes = List.copyOf(notes);
    }

    /**
     * Reads the experiment in {@code from} and prepares its rerun as {@code name}.
     *
     * @throws ExperimentException when {@code from} holds no runnable experiment (none, or an
     *                             imported one), when a recorded subject, workload or engine is
     *                             missing here (all of them named), or when the plan here differs
     */
    public static Rerun prepare(Path home, Path from, String name) {
        ExperimentJson origin = readJson(from);
        SpecSection specJson = origin.spec().with(SpecSection.NAME, name);
        Table rows = Results.load(from).runs();
        TreeSet<String> subjects = recordedSubjects(origin, rows);
        ExperimentSpec recorded = ExperimentSpec.fromJson(specJson);
        Catalog whole = Catalog.of(home, recorded.selection().project());
        Subjects catalog = whole.subjects();
        checkPresent(from, whole, subjects, recordedWorkloads(rows), recorded.generators().engines());
        List<String> notes = new ArrayList<>();
        List<String> matching = catalog.matching(recorded.selection().subjects()).stream().map(Subject::name).toList();
        if (!subjects.isEmpty() && !subjects.containsAll(matching)) {
            // A subject added here since would join the rounds and move every run after it.
            specJson = specJson.with(SpecSection.SUBJECTS, String.join("|", subjects));
            notes.add("the subject pattern '" + recorded.selection().subjects() + "' matches " + String.join(", ", matching)
                    + " here; the rerun keeps to the recorded " + String.join(", ", subjects));
        }
        ExperimentSpec spec = ExperimentSpec.fromJson(specJson);
        Plan plan = Experiment.plan(whole, spec);
        List<String> was = recordedPlan(origin, rows);
        ExperimentJson.Header header = origin.header();
        checkSamePlan(from, was, plan, header.plannedRuns().orElse(was.size()), header.plan().isPresent());
        notes.addAll(sourceNotes(origin.environment().subjectSources(), catalog, subjects));
        return new Rerun(from, spec, was, plan, notes, origin);
    }

    /**
     * Creates the new experiment in {@code dir}, with {@code rerun_of} in its experiment.json
     * (the recorded folder, name, start, commit and the notes).
     */
    public Experiment create(Path home, Path dir, List<String> commandLine, Runner.Progress progress) {
        Experiment e = Experiment.create(home, spec, dir, commandLine, progress);
        e.recordRerunOf(new ExperimentJson.RerunOrigin(from.toAbsolutePath().normalize().toString(),
                origin.spec().name().orElse(""), origin.header().started(),
                origin.environment().fact(EnvironmentSection.GIT_COMMIT), notes));
        return e;
    }

    /** {@code Rerun[data/sample as sample-rerun: 45 runs, 1 note]}. */
    @Override
    public String toString() {
        return "Rerun[" + from + " as " + spec.name() + ": " + plan.runs().size() + " runs, " + notes.size() + " note"
                + (notes.size() == 1 ? "" : "s") + "]";
    }

    private static ExperimentJson readJson(Path from) {
        ExperimentJson json;
        try {
            json = ExperimentJson.read(from);
        } catch (DataException e) {
            throw new ExperimentException(e.getMessage(), e);
        }
        if (json.header().imported()) {
            throw new ExperimentException("cannot rerun " + from + ": it was imported from tool outputs (loadlab import)"
                    + " and records no spec to run; run the tool again, or loadlab run with the same settings");
        }
        return json;
    }

    /** The subjects the experiment ran: those it recorded versions of, and those of its rows. */
    private static TreeSet<String> recordedSubjects(ExperimentJson origin, Table rows) {
        TreeSet<String> out = new TreeSet<>(origin.environment().subjectVersions().keySet());
        out.addAll(rows.stringColumn(RunColumn.SUBJECT.id()).unique().asList());
        return out;
    }

    private static TreeSet<String> recordedWorkloads(Table rows) {
        return new TreeSet<>(rows.stringColumn(RunColumn.WORKLOAD.id()).unique().asList());
    }

    /** Refuses, naming everything missing at once, when a recorded subject, workload or engine is not here. */
    private static void checkPresent(Path from, Catalog whole, TreeSet<String> subjects, TreeSet<String> workloads,
                                     List<Engine> engines) {
        Subjects catalog = whole.subjects();
        List<String> missing = new ArrayList<>();
        for (String s : subjects) {
            Optional<Subject> here = catalog.byName(s);
            if (here.isEmpty()) {
                missing.add("subject " + s + " (no subjects/" + s + "/subject.yaml here)");
            } else if (!here.get().available()) {
                missing.add("subject " + s + " (" + here.get().unavailableReason().orElseThrow() + ")");
            }
        }
        List<String> known = whole.workloads().stream().map(Workload::name).toList();
        workloads.stream().filter(w -> !known.contains(w)).forEach(w -> missing.add("workload " + w
                + (whole.project().isPresent() ? " (not in the recorded project file)" : " (not a workload of this Loadlab)")));
        for (Engine e : engines) {
            e.unavailableReason().ifPresent(why -> missing.add("engine " + e.label() + " (" + why + ")"));
        }
        if (!missing.isEmpty()) {
            throw new ExperimentException("cannot rerun " + from + " here: missing " + String.join("; ", missing)
                    + "; install or add them, then rerun");
        }
    }

    /** The stored plan, or the recorded rows in the same form (experiments stored before plans were). */
    static List<String> recordedPlan(ExperimentJson origin, Table rows) {
        Optional<List<String>> stored = origin.header().plan();
        if (stored.isPresent()) {
            return stored.get();
        }
        List<String> out = new ArrayList<>();
        Table sorted = rows.sortAscendingOn(RunColumn.RUN_ID.id());
        for (int i = 0; i < sorted.rowCount(); i++) {
            String variant = sorted.stringColumn(RunColumn.VARIANT.id()).get(i);
            String engine = sorted.stringColumn(RunColumn.ENGINE.id()).get(i);
            out.add(sorted.intColumn(RunColumn.RUN_ID.id()).get(i) + " r" + sorted.intColumn(RunColumn.ROUND.id()).get(i) + " p"
                    + sorted.intColumn(RunColumn.POSITION.id()).get(i) + " " + sorted.stringColumn(RunColumn.SUBJECT.id()).get(i) + " "
                    + (variant.isEmpty() ? "-" : variant) + " " + sorted.stringColumn(RunColumn.WORKLOAD.id()).get(i)
                    + (engine.isEmpty() || engine.equals(Engine.BUILTIN.label()) ? "" : " " + engine));
        }
        return out;
    }

    /**
     * Holds the plan here against the recorded one. A stored plan must be equal as a whole; runs
     * recovered from {@code runs.csv} must each be the run of their id here, and the counts equal.
     */
    private static void checkSamePlan(Path from, List<String> was, Plan plan, int plannedRuns, boolean stored) {
        List<String> now = plan.runs().stream().map(Experiment::describe).toList();
        for (String run : was) {
            int id = Integer.parseInt(run.substring(0, run.indexOf(' ')));
            String is = id <= now.size() ? now.get(id - 1) : "(nothing)";
            if (!run.equals(is)) {
                throw new ExperimentException("cannot rerun " + from + " as recorded: its run " + id + " was '" + run
                        + "', here it would be '" + is + "' (the subjects' variants or workloads differ here)");
            }
        }
        int expected = stored ? was.size() : plannedRuns;
        if (now.size() != expected) {
            throw new ExperimentException("cannot rerun " + from + " as recorded: it planned " + expected
                    + " runs, here the same spec plans " + now.size() + " (the subjects' variants or workloads differ here)");
        }
    }

    /** Subjects whose manifest or sources differ from the recorded hashes, and those without a record. */
    private static List<String> sourceNotes(Map<String, EnvironmentSection.Sources> recorded, Subjects catalog,
                                            TreeSet<String> subjects) {
        List<String> notes = new ArrayList<>();
        List<String> unrecorded = new ArrayList<>();
        for (String s : subjects) {
            EnvironmentSection.Sources was = recorded.get(s);
            if (was == null) {
                unrecorded.add(s);
                continue;
            }
            SubjectSources here = SubjectSources.of(catalog.byName(s).orElseThrow().manifest());
            if (!was.manifest().equals(here.manifest())) {
                notes.add(s + ": its manifest differs from the recorded one (subject.yaml " + was.manifest()
                        + " then, " + here.manifest() + " here)");
            }
            if (!was.sources().equals(here.sources())) {
                notes.add(s + ": its sources differ from the recorded ones (" + was.sources() + " then, "
                        + here.sources() + " here; files here: " + String.join(", ", here.files()) + ")");
            }
        }
        if (!unrecorded.isEmpty()) {
            notes.add("sources of " + String.join(", ", unrecorded) + " were not recorded (the experiment predates"
                    + " source hashes): whether they differ is unknown");
        }
        return notes;
    }
}
