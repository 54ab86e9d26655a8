package io.loadlab.kernel;

import io.loadlab.data.RunColumn;
import io.loadlab.data.RunRow;
import io.loadlab.experiment.Plan;
import io.loadlab.experiment.Runner;

/**
 * An experiment's progress as one line in a notebook that updates in place:
 * {@code Experiment.create(home, spec, dir, List.of(), new NotebookProgress("my experiment"))}.
 * Create it in a cell (it shows its bar at once); the runner's calls may then come from any
 * thread.
 */
public final class NotebookProgress implements Runner.Progress {

    private final Progress bar;
    private int done;
    private int total;

    /**
     * Shows an empty bar below the running cell.
     *
     * @param label what the experiment is, shown before the bar
     * @throws IllegalStateException when no Loadlab kernel cell is running
     */
    public NotebookProgress(String label) {
        this.bar = Progress.bar(label);
    }

    NotebookProgress(Progress bar) {
        this.bar = bar;
    }

    @Override
    public synchronized void message(String text) {
        bar.update(done, total, text);
    }

    @Override
    public synchronized void runStarting(Plan.Run run, int done, int total) {
        this.done = done;
        this.total = total;
        bar.update(done, total, "run " + run.runId() + ": round " + run.round() + ", " + run.instance().label() + ", "
                + run.workload().name());
    }

    @Override
    public synchronized void runFinished(Plan.Run run, RunRow row, int done, int total) {
        this.done = done;
        this.total = total;
        String outcome = RunColumn.Status.FAILED.value().equals(row.get(RunColumn.STATUS)) ? "failed: " + shorten(row.get(RunColumn.ERROR))
                : row.get(RunColumn.RPS).isEmpty() ? "done"
                : io.loadlab.format.Units.integer(Double.parseDouble(row.get(RunColumn.RPS))) + " requests/s";
        bar.update(done, total, "run " + run.runId() + " (" + run.instance().label() + ", " + run.workload().name()
                + ") " + outcome);
    }

    private static String shorten(String s) {
        return s.length() > 120 ? s.substring(0, 120) + "…" : s;
    }
}
