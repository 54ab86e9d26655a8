package io.loadlab.stats;

import io.loadlab.data.RunColumn;
import io.loadlab.format.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * What was cold in a run, from the runs table alone, for the {@code slow_first_round} warning.
 * A run is the <em>experiment's first</em> when it has the lowest run_id of its experiment: the
 * load engine's own JIT had run nothing yet. It is its <em>process's first workload</em> when it
 * has the lowest run_id among the runs of the same experiment, round, subject and variant (the
 * variant as recorded: the runs of every engine share the subject process): the server's JIT and
 * caches were cold. Both are judged over the rows of the table given. Stateless.
 */
final class ColdStart {

    private ColdStart() {
    }

    /** A clause for a warning message: what was cold, then the run's warm-up and whether it became steady, when known. */
    static String describe(RunData data, int row) {
        List<String> parts = new ArrayList<>();
        OptionalDouble id = data.number(RunColumn.RUN_ID.id(), row);
        if (id.isEmpty()) {
            parts.add("what was cold in that run is not known (no run_id)");
        } else {
            parts.add(cold(isFirst(data, row, id.getAsDouble(), false), isFirst(data, row, id.getAsDouble(), true)));
        }
        OptionalDouble warmup = data.number(RunColumn.WARMUP_S.id(), row);
        if (warmup.isPresent()) {
            parts.add("its warm-up was " + Units.decimal(warmup.getAsDouble()) + " s");
        }
        int steady = data.flag(RunColumn.STEADY.id(), row);
        if (steady >= 0) {
            parts.add(steady == 1 ? "it became steady" : "it never became steady");
        }
        return String.join("; ", parts);
    }

    private static String cold(boolean engine, boolean server) {
        if (engine && server) {
            return "cold in that run: the load engine (the experiment's first run) and the server (the first workload"
                    + " of its process)";
        }
        if (engine) {
            return "cold in that run: the load engine (the experiment's first run); the server process had run other"
                    + " workloads before";
        }
        if (server) {
            return "cold in that run: the server (the first workload of its process); the load engine had run before";
        }
        return "neither the load engine nor the server was fresh in that run (not the experiment's first run, nor"
                + " the first workload of its process)";
    }

    /**
     * Whether no row of the same experiment (and, for {@code sameProcess}, the same round, subject
     * and variant) has a lower run_id.
     */
    private static boolean isFirst(RunData data, int row, double id, boolean sameProcess) {
        String experiment = data.experiment(row);
        for (int i = 0; i < data.table().rowCount(); i++) {
            OptionalDouble other = data.number(RunColumn.RUN_ID.id(), i);
            if (other.isEmpty() || !(other.getAsDouble() < id) || !data.experiment(i).equals(experiment)) {
                continue;
            }
            if (!sameProcess || (data.round(i) == data.round(row) && sameSubjectProcess(data, i, row))) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameSubjectProcess(RunData data, int a, int b) {
        return data.label(a).subject().equals(data.label(b).subject())
                && data.label(a).variant().equals(data.label(b).variant());
    }
}
