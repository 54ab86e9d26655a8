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
    EXPERIMENT("experiment", Type.TEXT, true,
            "the experiment's name"),
    RUN_ID("run_id", Type.INT, true,
            "the run's number in the plan, from 1 (a resume runs the numbers that are missing)"),
    ROUND("round", Type.INT, true,
            "the round, from 1: each planned subject, workload and engine runs once a round"),
    POSITION("position", Type.INT, true,
            "the subject's place in its round's rotated order, from 1"),
    SUBJECT("subject", Type.TEXT, true,
            "the subject's name"),
    VARIANT("variant", Type.TEXT, true,
            "the variant's settings, such as durability=memory (empty: none)"),
    WORKLOAD("workload", Type.TEXT, true,
            "the workload's name"),
    ENGINE("engine", Type.TEXT, true,
            "what made the load: builtin, wrk, h2load, oha or agents; an imported run's tool"),
    CONNECTIONS("connections", Type.INT, true,
            "connections, in total"),
    THREADS("threads", Type.INT, true,
            "the engine's event-loop threads (the tool's threads for an external engine)"),
    TARGET_RPS("target_rps", Type.DOUBLE, true,
            "requests/s offered at a fixed rate (empty: a closed loop)"),
    DURATION_S("duration_s", Type.DOUBLE, true,
            "the measured window, s, without the warm-up"),
    REQUESTS("requests", Type.LONG, true,
            "requests the engine counted in the window"),
    RPS("rps", Type.DOUBLE, true,
            "requests/s over the window"),
    BYTES_READ("bytes_read", Type.LONG, true,
            "bytes received in the window"),
    ERRORS_CONNECT("errors_connect", Type.LONG, true,
            "connections that could not be opened"),
    ERRORS_READ("errors_read", Type.LONG, true,
            "reads that failed (a reset or closed connection)"),
    ERRORS_WRITE("errors_write", Type.LONG, true,
            "writes that failed"),
    ERRORS_TIMEOUT("errors_timeout", Type.LONG, true,
            "requests not answered within the timeout"),
    ERRORS_STATUS("errors_status", Type.LONG, true,
            "answers with a status the workload does not expect"),
    ERRORS_PROTOCOL("errors_protocol", Type.LONG, true,
            "answers that broke HTTP's framing"),
    LAT_MEAN_US("lat_mean_us", Type.DOUBLE, true,
            "mean latency, µs; at a fixed rate counted from each request's due time, so coordinated omission is corrected"),
    LAT_STDEV_US("lat_stdev_us", Type.DOUBLE, true,
            "standard deviation of the latency, µs"),
    LAT_P50_US("lat_p50_us", Type.LONG, true,
            "latency's 50th percentile, µs"),
    LAT_P75_US("lat_p75_us", Type.LONG, true,
            "latency's 75th percentile, µs"),
    LAT_P90_US("lat_p90_us", Type.LONG, true,
            "latency's 90th percentile, µs"),
    LAT_P99_US("lat_p99_us", Type.LONG, true,
            "latency's 99th percentile, µs"),
    LAT_P999_US("lat_p999_us", Type.LONG, true,
            "latency's 99.9th percentile, µs"),
    LAT_MAX_US("lat_max_us", Type.LONG, true,
            "the highest latency, µs"),
    SERVER_CPU_USER_S("server_cpu_user_s", Type.DOUBLE, true,
            "the server's user CPU time in the window, s (its whole process tree)"),
    SERVER_CPU_SYS_S("server_cpu_sys_s", Type.DOUBLE, true,
            "the server's system CPU time in the window, s (its whole process tree)"),
    SERVER_CPU_S("server_cpu_s", Type.DOUBLE, true,
            "server_cpu_user_s + server_cpu_sys_s, s"),
    RPS_PER_SERVER_CPU_S("rps_per_server_cpu_s", Type.DOUBLE, true,
            "requests per second of server CPU: requests / server_cpu_s"),
    SERVER_PEAK_RSS_BYTES("server_peak_rss_bytes", Type.LONG, true,
            "the server's peak resident memory within the window, bytes (its whole process tree)"),
    LOAD_CPU_S("load_cpu_s", Type.DOUBLE, true,
            "CPU time of the engine's event-loop threads in the window, s"),
    RPS_PER_LOAD_CPU_S("rps_per_load_cpu_s", Type.DOUBLE, true,
            "requests per second of the engine's CPU: requests / load_cpu_s"),
    LOAD_BOUND("load_bound", Type.BOOLEAN, true,
            "true when the engine's threads were busy at least 90% of the window: the figure may be the engine's limit, not the server's"),
    STATUS("status", Type.TEXT, true,
            "ok, or failed (nothing measured; see error)"),
    ERROR("error", Type.TEXT, true,
            "why a failed run failed, in one line"),
    LOAD_MODEL("load_model", Type.TEXT, false,
            "closed_loop or fixed_rate"),
    WARMUP_S("warmup_s", Type.DOUBLE, false,
            "how long the warm-up before the window lasted, s"),
    BYTES_WRITTEN("bytes_written", Type.LONG, false,
            "bytes sent in the window"),
    SVC_P50_US("svc_p50_us", Type.LONG, false,
            "service time's 50th percentile, µs: at a fixed rate, counted from each request's actual send (empty: a closed loop)"),
    SVC_P90_US("svc_p90_us", Type.LONG, false,
            "service time's 90th percentile, µs"),
    SVC_P99_US("svc_p99_us", Type.LONG, false,
            "service time's 99th percentile, µs"),
    SVC_P999_US("svc_p999_us", Type.LONG, false,
            "service time's 99.9th percentile, µs"),
    PROCESS_CPU_S("process_cpu_s", Type.DOUBLE, false,
            "CPU time of the whole load-generating process in the window, s (the JVM's other threads included)"),
    LOAD_CPUS("load_cpus", Type.TEXT, false,
            "the CPUs the engine was pinned to, as taskset lists them"),
    SERVER_CPUS("server_cpus", Type.TEXT, false,
            "the CPUs the server was pinned to (empty: not pinned, as an attached server)"),
    STARTED_AT("started_at", Type.TEXT, false,
            "when the run started, UTC (ISO 8601)"),
    STEADY("steady", Type.BOOLEAN, false,
            "whether the warm-up was steady at its end: throughput flat and JIT compilers quiet, and at a fixed rate not above the"
                    + " target (the built-in engine records it after a"
                    + " fixed warm-up too; empty for an external tool's fixed warm-up or a run of -n requests)"),
    MISSED("missed", Type.LONG, false,
            "at a fixed rate, requests that were due but never sent"),
    NOISE_CPU_S("noise_cpu_s", Type.DOUBLE, false,
            "CPU time that other programs took on the run's CPUs during the window, s"),
    STEAL_S("steal_s", Type.DOUBLE, false,
            "CPU time that the hypervisor took from the machine during the window, s"),
    SWEEP_ROLE("sweep_role", Type.TEXT, false,
            "in a latency sweep: capacity, fraction or rate (empty: not a sweep)"),
    CAPACITY_RPS("capacity_rps", Type.DOUBLE, false,
            "in a latency sweep, the closed-loop capacity that the fixed-rate windows are shares of, requests/s"),
    CAPACITY_FRACTION("capacity_fraction", Type.DOUBLE, false,
            "in a latency sweep, target_rps / capacity_rps"),
    ERRORS_TLS("errors_tls", Type.LONG, false,
            "TLS handshakes that failed"),
    PROTOCOL("protocol", Type.TEXT, false,
            "the protocol spoken: http/1.1 or h2"),
    SERVER_LAUNCH("server_launch", Type.TEXT, false,
            "started (Loadlab built, started, pinned and stopped the server) or attached (someone else started it: not pinned; CPU and memory only with its pid)"),
    ERRORS_BODY("errors_body", Type.LONG, false,
            "answers whose body lacked the workload's body-contains (empty: bodies were not looked into)"),
    WARMUP_CUT_SHORT("warmup_cut_short", Type.TEXT, false,
            "why the warm-up ended early: no good answer for a second, and what came instead (empty: it ran its course)");

    private final String id;
    private final Type type;
    private final boolean fixed;
    private final String meaning;

    RunColumn(String id, Type type, boolean fixed, String meaning) {
        this.id = id;
        this.type = type;
        this.fixed = fixed;
        this.meaning = meaning;
    }

    /** The column's name in the header of {@code runs.csv} and in a runs table, such as {@code load_bound}. */
    public String id() {
        return id;
    }

    /** What the column holds, with its unit, for people: the reference page of the data files is made from it. */
    public String meaning() {
        return meaning;
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

    /** One of the few words a column such as {@link #STATUS} or {@link #LOAD_MODEL} holds. */
    public interface Value {
        /** The value as written in runs.csv. */
        String value();
    }

    /** The values of {@link #STATUS}: whether the run measured something. */
    public enum Status implements Value {
        OK("ok"), FAILED("failed");

        private final String value;

        Status(String value) {
            this.value = value;
        }

        @Override
        public String value() {
            return value;
        }
    }

    /**
     * The values of {@link #SWEEP_ROLE}, empty outside a latency sweep: the closed-loop run that
     * measured the capacity, a fixed-rate window at a share of it, or one at an absolute rate.
     */
    public enum SweepRole implements Value {
        CAPACITY("capacity"), FRACTION("fraction"), RATE("rate");

        private final String value;

        SweepRole(String value) {
            this.value = value;
        }

        @Override
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
    public enum LoadModel implements Value {
        CLOSED_LOOP("closed_loop"), FIXED_RATE("fixed_rate");

        private final String value;

        LoadModel(String value) {
            this.value = value;
        }

        @Override
        public String value() {
            return value;
        }
    }

    /** The values of {@link #SERVER_LAUNCH}. */
    public enum ServerLaunch implements Value {
        /** Loadlab built, started, pinned and stopped it. */
        STARTED("started"),
        /** Someone else started it ({@code url:} in a project): not pinned, CPU and RSS only with a pid. */
        ATTACHED("attached");

        private final String value;

        ServerLaunch(String value) {
            this.value = value;
        }

        @Override
        public String value() {
            return value;
        }
    }
}
