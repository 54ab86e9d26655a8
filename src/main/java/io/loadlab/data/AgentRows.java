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
        EXPERIMENT(RunColumn.EXPERIMENT.id(), "the experiment's name"),
        RUN_ID(RunColumn.RUN_ID.id(), "the run's run_id in runs.csv"),
        AGENT("agent", "the agent's address, host:port"),
        WEIGHT("weight", "the weight of the agent's share of the load"),
        CONNECTIONS(RunColumn.CONNECTIONS),
        THREADS(RunColumn.THREADS),
        TARGET_RPS(RunColumn.TARGET_RPS),
        REQUESTS(RunColumn.REQUESTS),
        RPS(RunColumn.RPS),
        ERRORS("errors", "all the agent's errors together"),
        LOAD_CPU_S(RunColumn.LOAD_CPU_S),
        LOAD_BOUND(RunColumn.LOAD_BOUND),
        CLOCK_OFFSET_US("clock_offset_us", "the agent's clock minus the coordinator's, µs"),
        CLOCK_RTT_US("clock_rtt_us", "the round trip of the probe that measured clock_offset_us, µs"),
        START_LAG_MS("start_lag_ms", "how much later than the common instant the agent's first interval began, ms"),
        STATUS("status", "the agent's outcome: ok, lost, failed, refused, unreachable or stopped"),
        ERROR(RunColumn.ERROR.id(), "why the agent's part failed, in one line"),
        // New columns go at the end, as in runs.csv: users' scripts read by position.
        STEAL_S(RunColumn.STEAL_S.id(), "the hypervisor's steal on the CPUs the agent may use during the window, s"
                + " (empty where the agent could not read /proc/stat or is of an older version)");

        private final String id;
        private final String meaning;

        Column(String id, String meaning) {
            this.id = id;
            this.meaning = meaning;
        }

        /** A column runs.csv has too: its name, and its meaning for this agent's part of the run. */
        Column(RunColumn shared) {
            this(shared.id(), "for this agent: " + shared.meaning());
        }

        /** What the column holds, with its unit, for people. */
        public String meaning() {
            return meaning;
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
