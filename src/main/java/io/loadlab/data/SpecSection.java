package io.loadlab.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * The {@code spec} section of {@code experiment.json}: the experiment's settings as stored, with
 * the names of their fields. {@code data} does not know an experiment spec's types (the
 * {@code experiment} package, which depends on {@code data}, does), so the section holds plain
 * JSON values under the names defined here, and {@code experiment}'s {@code SpecJson} maps a spec
 * to and from it. An imported experiment's section holds only its name and {@link #IMPORTED}.
 * Immutable: the fields are copied in and out.
 *
 * @param fields the section's JSON object, fields in the order they are written
 */
public record SpecSection(ObjectNode fields) {

    public static final String NAME = "name";
    public static final String SUBJECTS = "subjects";
    public static final String WORKLOADS = "workloads";
    public static final String VARIANTS = "variants";
    public static final String ROUNDS = "rounds";
    /**
     * {@code --rounds auto}: an object of {@link #MAX_ROUNDS} and {@link #BUDGET} ({@link #ROUNDS} is then
     * the most rounds); absent for a fixed number of rounds.
     */
    public static final String ROUNDS_AUTO = "rounds_auto";
    public static final String MAX_ROUNDS = "max_rounds";
    /** A duration as written ({@code 5m}), or null for none. */
    public static final String BUDGET = "budget";
    public static final String ORDER = "order";
    public static final String SEED = "seed";
    public static final String DURATION = "duration";
    public static final String WARMUP = "warmup";
    public static final String WARMUP_MIN = "warmup_min";
    public static final String WARMUP_MAX = "warmup_max";
    /** {@link #ROTATE} or {@link #FIXED}; experiments stored before it kept the listing order. */
    public static final String WORKLOAD_ORDER = "workload_order";
    public static final String COOLDOWN = "cooldown";
    public static final String CONNECTIONS = "connections";
    public static final String THREADS = "threads";
    /** Requests/s of a fixed rate; null for a closed loop. */
    public static final String RATE = "rate";
    /** Microseconds; absent from experiments stored before the slack (paced to the ns). */
    public static final String PACE_SLACK_US = "pace_slack_us";
    public static final String SERVER_CPUS = "server_cpus";
    public static final String LOAD_CPUS = "load_cpus";
    public static final String READY_TIMEOUT = "ready_timeout";
    /** The engines' labels; absent from experiments stored before engines could be chosen (builtin). */
    public static final String ENGINES = "engines";
    public static final String PROTOCOLS = "protocols";
    public static final String STREAMS = "streams";
    /** An object of {@link #PERCENT}, {@link #RATES}, {@link #CAPACITY} and {@link #SLO}. */
    public static final String LATENCY_SWEEP = "latency_sweep";
    /** An object of {@link #ADDRESSES}, {@link #SECRET_FILE} and {@link #WEIGHTS}. */
    public static final String AGENTS = "agents";
    /** An object of {@link #ADDRESS} and {@link #SECRET_FILE}. */
    public static final String SUBJECT_HOST = "subject_host";
    /**
     * An object of {@link #FILE}, {@link #TEXT} and {@link #COMMITS}: the user's project
     * ({@code loadlab.yaml}) the experiment's subjects and workloads came from; absent for Loadlab's
     * bundled ones.
     */
    public static final String PROJECT = "project";
    /** In {@link #PROJECT}: the project file's absolute path. */
    public static final String FILE = "file";
    /** In {@link #PROJECT}: the project file's text when the experiment was created. */
    public static final String TEXT = "text";
    /** In {@link #PROJECT}: an object of revision subject name to its git commit id. */
    public static final String COMMITS = "commits";
    /** True in the section of an imported experiment, which records no spec to run. */
    public static final String IMPORTED = "imported";

    /** The values of {@link #WORKLOAD_ORDER}. */
    public static final String ROTATE = "rotate";
    public static final String FIXED = "fixed";

    /** In {@link #LATENCY_SWEEP}: the shares of the capacity, in percent. */
    public static final String PERCENT = "percent";
    /** In {@link #LATENCY_SWEEP}: the absolute rates, requests/s. */
    public static final String RATES = "rates";
    /** In {@link #LATENCY_SWEEP}: {@link #MEASURED}, or an object of {@link #FROM} and {@link #RPS}. */
    public static final String CAPACITY = "capacity";
    public static final String MEASURED = "measured";
    public static final String FROM = "from";
    public static final String RPS = "rps";
    /** In {@link #LATENCY_SWEEP}: the p99 objective as a duration ({@code 10ms}), or null. */
    public static final String SLO = "slo";

    /** In {@link #AGENTS}: the agents' {@code host:port}s. */
    public static final String ADDRESSES = "addresses";
    /** In {@link #AGENTS} and {@link #SUBJECT_HOST}: the path of the secret file, never the secret. */
    public static final String SECRET_FILE = "secret_file";
    public static final String WEIGHTS = "weights";
    /** In {@link #SUBJECT_HOST}: its {@code host:port}. */
    public static final String ADDRESS = "address";

    public SpecSection {
        fields = fields.deepCopy();
    }

    /** A copy of the section's JSON object. */
    @Override
    public ObjectNode fields() {
        return fields.deepCopy();
    }

    /** The experiment's name, when the section records one. */
    public Optional<String> name() {
        return text(NAME);
    }

    /** Whether the section is an imported experiment's, which records no spec to run. */
    public boolean imported() {
        return fields.path(IMPORTED).asBoolean(false);
    }

    /** A field's value as text; empty when absent or null. */
    public Optional<String> text(String field) {
        return fields.hasNonNull(field) ? Optional.of(fields.get(field).asText()) : Optional.empty();
    }

    /** A field's stored value, a missing node when absent (for the settings people compare). */
    public JsonNode value(String field) {
        return fields.path(field).deepCopy();
    }

    /** Whether the section has the field at all, null or not. */
    public boolean has(String field) {
        return fields.has(field);
    }

    /** The latency sweep's p99 objective as written ({@code 10ms}); empty without a sweep or an objective. */
    public Optional<String> slo() {
        JsonNode slo = fields.path(LATENCY_SWEEP).path(SLO);
        return slo.isTextual() ? Optional.of(slo.asText()) : Optional.empty();
    }

    /** The same section with a text field set (a rerun's new name, its narrowed subjects). */
    public SpecSection with(String field, String value) {
        ObjectNode copy = fields.deepCopy();
        copy.put(field, value);
        return new SpecSection(copy);
    }

    /** {@code SpecSection[sample: 23 fields]}. */
    @Override
    public String toString() {
        return "SpecSection[" + name().orElse("?") + ": " + fields.size() + " fields]";
    }
}
