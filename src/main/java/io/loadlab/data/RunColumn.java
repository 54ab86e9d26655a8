package io.loadlab.data;

import io.loadlab.data.RunColumns.Type;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The columns of {@code runs.csv}, the one definition of their names, order and types: every
 * reader and writer (the runner, the importers, the agents' rows, stats, plot, the CLI and the
 * notebooks) names a column through this enum, never by a string literal. Units are in the
 * suffixes ({@code _s} seconds, {@code _us} microseconds, {@code _bytes}); a value that was not
 * measured is empty, never 0. The order is the file's: notebooks and users' scripts depend on it,
 * so a new column is only ever added at the end.
 *
 * <p>The values of the columns that hold one of a few words are {@link Status},
 * {@link SweepRole} and {@link LoadModel}.
 */
public enum RunColumn {
    EXPERIMENT("experiment", Type.TEXT, true),
    RUN_ID("run_id", Type.INT, true),
    ROUND("round", Type.INT, true),
    POSITION("position", Type.INT, true),
    SUBJECT("subject", Type.TEXT, true),
    VARIANT("variant", Type.TEXT, true),
    WORKLOAD("workload", Type.TEXT, true),
    ENGINE("engine", Type.TEXT, true),
    CONNECTIONS("connections", Type.INT, true),
    THREADS("threads", Type.INT, true),
    TARGET_RPS("target_rps", Type.DOUBLE, true),
    DURATION_S("duration_s", Type.DOUBLE, true),
    REQUESTS("requests", Type.LONG, true),
    RPS("rps", Type.DOUBLE, true),
    BYTES_READ("bytes_read", Type.LONG, true),
    ERRORS_CONNECT("errors_connect", Type.LONG, true),
    ERRORS_READ("errors_read", Type.LONG, true),
    ERRORS_WRITE("errors_write", Type.LONG, true),
    ERRORS_TIMEOUT("errors_timeout", Type.LONG, true),
    ERRORS_STATUS("errors_status", Type.LONG, true),
    ERRORS_PROTOCOL("errors_protocol", Type.LONG, true),
    LAT_MEAN_US("lat_mean_us", Type.DOUBLE, true),
    LAT_STDEV_US("lat_stdev_us", Type.DOUBLE, true),
    LAT_P50_US("lat_p50_us", Type.LONG, true),
    LAT_P75_US("lat_p75_us", Type.LONG, true),
    LAT_P90_US("lat_p90_us", Type.LONG, true),
    LAT_P99_US("lat_p99_us", Type.LONG, true),
    LAT_P999_US("lat_p999_us", Type.LONG, true),
    LAT_MAX_US("lat_max_us", Type.LONG, true),
    SERVER_CPU_USER_S("server_cpu_user_s", Type.DOUBLE, true),
    SERVER_CPU_SYS_S("server_cpu_sys_s", Type.DOUBLE, true),
    SERVER_CPU_S("server_cpu_s", Type.DOUBLE, true),
    RPS_PER_SERVER_CPU_S("rps_per_server_cpu_s", Type.DOUBLE, true),
    SERVER_PEAK_RSS_BYTES("server_peak_rss_bytes", Type.LONG, true),
    LOAD_CPU_S("load_cpu_s", Type.DOUBLE, true),
    RPS_PER_LOAD_CPU_S("rps_per_load_cpu_s", Type.DOUBLE, true),
    LOAD_BOUND("load_bound", Type.BOOLEAN, true),
    STATUS("status", Type.TEXT, true),
    ERROR("error", Type.TEXT, true),
    LOAD_MODEL("load_model", Type.TEXT, false),
    WARMUP_S("warmup_s", Type.DOUBLE, false),
    BYTES_WRITTEN("bytes_written", Type.LONG, false),
    SVC_P50_US("svc_p50_us", Type.LONG, false),
    SVC_P90_US("svc_p90_us", Type.LONG, false),
    SVC_P99_US("svc_p99_us", Type.LONG, false),
    SVC_P999_US("svc_p999_us", Type.LONG, false),
    PROCESS_CPU_S("process_cpu_s", Type.DOUBLE, false),
    LOAD_CPUS("load_cpus", Type.TEXT, false),
    SERVER_CPUS("server_cpus", Type.TEXT, false),
    STARTED_AT("started_at", Type.TEXT, false),
    STEADY("steady", Type.BOOLEAN, false),
    MISSED("missed", Type.LONG, false),
    NOISE_CPU_S("noise_cpu_s", Type.DOUBLE, false),
    STEAL_S("steal_s", Type.DOUBLE, false),
    SWEEP_ROLE("sweep_role", Type.TEXT, false),
    CAPACITY_RPS("capacity_rps", Type.DOUBLE, false),
    CAPACITY_FRACTION("capacity_fraction", Type.DOUBLE, false),
    ERRORS_TLS("errors_tls", Type.LONG, false),
    PROTOCOL("protocol", Type.TEXT, false),
    /** {@link ServerLaunch}: whether Loadlab started (and pinned) the server; empty in rows before it existed (started). */
    SERVER_LAUNCH("server_launch", Type.TEXT, false),
    /** Answers whose body lacked the workload's {@code body-contains}; empty where bodies were not looked into. */
    ERRORS_BODY("errors_body", Type.LONG, false);

    private final String id;
    private final Type type;
    private final boolean fixed;

    RunColumn(String id, Type type, boolean fixed) {
        this.id = id;
        this.type = type;
        this.fixed = fixed;
    }

    /** The column's name in the header of {@code runs.csv} and in a runs table, such as {@code load_bound}. */
    public String id() {
        return id;
    }

    /** How the column's text becomes a value in a runs table. */
    Type type() {
        return type;
    }

    /** Whether the column is one of the fixed ones, which every version of runs.csv has had. */
    boolean fixed() {
        return fixed;
    }

    /** Every column's name, in the order of the file. */
    static List<String> ids() {
        return Arrays.stream(values()).map(RunColumn::id).toList();
    }

    /** The column of a name, empty for one this version does not know. */
    public static Optional<RunColumn> of(String id) {
        return Arrays.stream(values()).filter(c -> c.id.equals(id)).findFirst();
    }

    /** The values of {@link #STATUS}: whether the run measured something. */
    public enum Status {
        OK("ok"), FAILED("failed");

        private final String value;

        Status(String value) {
            this.value = value;
        }

        /** The value as written in runs.csv. */
        public String value() {
            return value;
        }
    }

    /**
     * The values of {@link #SWEEP_ROLE}, empty outside a latency sweep: the closed-loop run that
     * measured the capacity, a fixed-rate window at a share of it, or one at an absolute rate.
     */
    public enum SweepRole {
        CAPACITY("capacity"), FRACTION("fraction"), RATE("rate");

        private final String value;

        SweepRole(String value) {
            this.value = value;
        }

        /** The value as written in runs.csv. */
        public String value() {
            return value;
        }

        /** The role a value of the column names; empty for "" (outside a sweep) and for a value this version does not know. */
        public static Optional<SweepRole> of(String value) {
            return Arrays.stream(values()).filter(r -> r.value.equals(value)).findFirst();
        }

        /** The values of the fixed-rate windows ({@code fraction} and {@code rate}), for a table's {@code isIn}. */
        public static String[] windows() {
            return new String[] {FRACTION.value, RATE.value};
        }
    }

    /** The values of {@link #LOAD_MODEL}: how the load was offered. */
    public enum LoadModel {
        CLOSED_LOOP("closed_loop"), FIXED_RATE("fixed_rate");

        private final String value;

        LoadModel(String value) {
            this.value = value;
        }

        /** The value as written in runs.csv. */
        public String value() {
            return value;
        }
    }

    /** The values of {@link #SERVER_LAUNCH}. */
    public enum ServerLaunch {
        /** Loadlab built, started, pinned and stopped it. */
        STARTED("started"),
        /** Someone else started it ({@code url:} in a project): not pinned, CPU and RSS only with a pid. */
        ATTACHED("attached");

        private final String value;

        ServerLaunch(String value) {
            this.value = value;
        }

        /** The value as written in runs.csv. */
        public String value() {
            return value;
        }
    }
}
