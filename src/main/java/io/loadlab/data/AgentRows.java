package io.loadlab.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code agents.csv}: one row per agent of each run whose load ran on agents, beside that run's merged
 * row in {@code runs.csv} (joined on {@code experiment} and {@code run_id}). Fixed columns, units in
 * the suffixes; an unmeasured value is empty.
 */
public final class AgentRows {

    public static final String FILE = "agents.csv";

    /**
     * The columns of {@code agents.csv}, in the file's order: the one definition of their names, for
     * the store that writes the file and the agents' engine that fills each row. A column that means
     * for one agent what a {@code runs.csv} column means for the run takes that column's name from
     * {@link RunColumn}; {@code experiment} and {@code run_id} are the join on {@code runs.csv}.
     */
    public enum Column {
        EXPERIMENT(RunColumn.EXPERIMENT.id()),
        RUN_ID(RunColumn.RUN_ID.id()),
        /** The agent's address, {@code host:port}. */
        AGENT("agent"),
        /** The weight of the agent's share of the load. */
        WEIGHT("weight"),
        CONNECTIONS(RunColumn.CONNECTIONS.id()),
        THREADS(RunColumn.THREADS.id()),
        TARGET_RPS(RunColumn.TARGET_RPS.id()),
        REQUESTS(RunColumn.REQUESTS.id()),
        RPS(RunColumn.RPS.id()),
        /** All the agent's errors together. */
        ERRORS("errors"),
        LOAD_CPU_S(RunColumn.LOAD_CPU_S.id()),
        LOAD_BOUND(RunColumn.LOAD_BOUND.id()),
        /** The agent's clock minus the coordinator's, µs, and the round trip of the probe that measured it, µs. */
        CLOCK_OFFSET_US("clock_offset_us"),
        CLOCK_RTT_US("clock_rtt_us"),
        /** How much later than the common instant the agent's first interval began, ms. */
        START_LAG_MS("start_lag_ms"),
        /**
         * The agent's outcome: {@code ok}, {@code lost}, {@code failed}, {@code refused},
         * {@code unreachable} or {@code stopped}.
         */
        STATUS("status"),
        ERROR(RunColumn.ERROR.id());

        private final String id;

        Column(String id) {
            this.id = id;
        }

        /** The column's name in the file, such as {@code clock_offset_us}. */
        public String id() {
            return id;
        }
    }

    /** The columns' names, in order. */
    public static final List<String> COLUMNS = Arrays.stream(Column.values()).map(Column::id).toList();

    private AgentRows() {
    }

    /** The header line. */
    public static String header() {
        return String.join(",", COLUMNS);
    }

    /**
     * One agent's line (without line end).
     *
     * @param values the agent's values by {@link Column#id()}; experiment and run_id come from the arguments
     * @throws IllegalArgumentException for a column that is not one of {@link #COLUMNS}
     */
    public static String line(String experiment, String runId, Map<String, String> values) {
        for (String k : values.keySet()) {
            if (!COLUMNS.contains(k)) {
                throw new IllegalArgumentException("unknown agents.csv column '" + k + "'");
            }
        }
        List<String> out = new ArrayList<>();
        for (Column c : Column.values()) {
            String v = switch (c) {
                case EXPERIMENT -> experiment;
                case RUN_ID -> runId;
                default -> values.getOrDefault(c.id(), "");
            };
            out.add(RunRow.escape(v));
        }
        return String.join(",", out);
    }
}
