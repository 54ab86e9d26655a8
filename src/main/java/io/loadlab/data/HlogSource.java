package io.loadlab.data;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Table;

/**
 * One experiment's {@code latency.hlog} and the rows of the runs table its intervals belong to:
 * an interval tagged {@code T} is the run whose run_id is T. So a run's service-time intervals
 * ({@code T-service}) belong to no row and are left out (analyses use latency), and so are the
 * intervals of a run without a row (cut off by a kill before its row was written). Immutable.
 *
 * @param hlog     the log; empty when the folder has none
 * @param rowByTag the row of the runs table for each run_id of this experiment, as text
 */
record HlogSource(Optional<Path> hlog, Map<String, Integer> rowByTag) {

    HlogSource {
        rowByTag = Map.copyOf(rowByTag);
    }

    /** The log of a folder whose runs are rows {@code [from, to)} of the runs table. */
    static HlogSource of(Path dir, Table runs, int from, int to) {
        Path hlog = dir.resolve(ExperimentStore.HLOG_FILE);
        IntColumn ids = runs.intColumn(RunColumn.RUN_ID.id());
        Map<String, Integer> rows = new HashMap<>();
        for (int i = from; i < to; i++) {
            if (!ids.isMissing(i)) {
                rows.put(Integer.toString(ids.getInt(i)), i); // a run_id given twice: the later row, as before
            }
        }
        return new HlogSource(Files.isRegularFile(hlog) ? Optional.of(hlog) : Optional.empty(), rows);
    }

    /** The row of a tag's run, or -1 when no row has that run_id. */
    int row(String tag) {
        Integer row = rowByTag.get(tag);
        return row == null ? -1 : row;
    }
}
