package io.loadlab.cli;

import io.loadlab.data.RunColumn;
import io.loadlab.data.RunRow;
import io.loadlab.experiment.Plan;
import io.loadlab.experiment.Runner;
import io.loadlab.format.Units;
import java.io.PrintWriter;
import java.util.Locale;

/** A progress line on standard error: updated in place on a terminal, a line per run otherwise. */
final class ConsoleProgress implements Runner.Progress {
    private final PrintWriter err;
    private final boolean terminal = System.console() != null;
    private long startNanos;
    private int startDone;
    private int total;
    private double perRunSeconds;

    ConsoleProgress(PrintWriter err) {
        this.err = err;
    }

    void begin(Plan plan, int done) {
        startNanos = System.nanoTime();
        startDone = done;
        total = plan.runs().size();
    }

    @Override
    public void message(String text) {
        if (!terminal) {
            err.println(text);
            err.flush();
        }
    }

    @Override
    public void runStarting(Plan.Run run, int done, int total) {
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        int doneHere = done - startDone;
        String remaining = doneHere == 0 ? "?" : clock(elapsed / doneHere * (total - done));
        String line = String.format(Locale.ROOT, "[%d/%d] round %d, %s, %s%s%s  elapsed %s, remaining ~%s",
                done + 1, total, run.round(), run.instance().label(), run.workload().name(),
                run.engine().external() ? " (" + run.engine().label() + ")" : "",
                run.point().map(pt -> ", " + pt.label()).orElse(""),
                clock(elapsed), remaining);
        if (terminal) {
            err.print("\r\033[K" + line);
        } else {
            err.println(line);
        }
        err.flush();
    }

    @Override
    public void runFinished(Plan.Run run, RunRow row, int done, int total) {
        if (!terminal && row.get(RunColumn.STATUS).equals(RunColumn.Status.OK.value()) && !row.get(RunColumn.RPS).isEmpty()) {
            String steady = row.get(RunColumn.STEADY);
            // At a fixed rate, what was offered and what could not be sent in time say whether it kept up.
            String offered = row.get(RunColumn.TARGET_RPS).isEmpty() ? "" : " of " + Units.integer(Double.parseDouble(
                    row.get(RunColumn.TARGET_RPS))) + " offered, " + (row.get(RunColumn.MISSED).isEmpty() ? "?" : row.get(RunColumn.MISSED))
                    + " missed,";
            String cut = row.get(RunColumn.WARMUP_CUT_SHORT);
            err.printf(Locale.ROOT, "      %s rps%s after a %s s warm-up%s%n", Units.integer(Double.parseDouble(row.get(RunColumn.RPS))),
                    offered, row.get(RunColumn.WARMUP_S).isEmpty() ? "?" : Units.decimal(Double.parseDouble(row.get(RunColumn.WARMUP_S))),
                    !cut.isEmpty() ? " (cut short: " + cut + ")"
                            : steady.isEmpty() ? "" : steady.equals("true") ? " (steady)" : " (NOT steady)");
            err.flush();
        }
        if (row.get(RunColumn.STATUS).equals(RunColumn.Status.FAILED.value())) {
            String msg = row.get(RunColumn.ERROR);
            err.printf(Locale.ROOT, "%srun %s (%s, %s, round %d) failed: %s%n", terminal ? "\r\033[K" : "",
                    row.get(RunColumn.RUN_ID), run.instance().label(), run.workload().name(), run.round(),
                    msg.length() > 300 ? msg.substring(0, 300) + "..." : msg);
            err.flush();
        }
    }

    void end() {
        if (terminal) {
            err.print("\r\033[K");
            err.flush();
        }
    }

    private static String clock(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
