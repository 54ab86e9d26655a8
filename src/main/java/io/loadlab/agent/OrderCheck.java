package io.loadlab.agent;

import io.loadlab.load.LoadSpec;
import io.loadlab.subject.SubjectManifest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What an agent checks in an order before it acts on it. Whoever holds the cluster's secret can put
 * anything into an agent's inbox, so an order is hostile until checked: its session must be a UUID
 * (it becomes part of file names), its reply queue the session's own, its client a coordinator
 * connected now, its load within the caps below, and a subject's variant one the subject's manifest
 * declares. Every failure is an {@link AgentException} with one line the coordinator's user can act on.
 */
final class OrderCheck {

    /** Connections one agent opens at most (each is a socket and some buffers on this host). */
    static final int MAX_CONNECTIONS = 100_000;
    /** Event-loop threads per CPU of the agent at most; at least {@link #MIN_THREAD_CAP} in all. */
    static final int THREADS_PER_CPU = 4;
    /** The thread cap on a small agent, so that a coordinator with more CPUs keeps its default threads. */
    static final int MIN_THREAD_CAP = 16;
    /** The longest load window (and the longest fixed warm-up, and request timeout) an agent takes. */
    static final Duration MAX_DURATION = Duration.ofHours(1);
    /** The longest connect timeout: the agent's check that it reaches the target waits that long. */
    static final Duration MAX_CONNECT_TIMEOUT = Duration.ofMinutes(1);

    private OrderCheck() {
    }

    /**
     * The session, when it is a UUID in canonical form (lower-case, as {@link UUID#toString()} writes it).
     *
     * @throws AgentException otherwise
     */
    static String session(String session) {
        try {
            if (UUID.fromString(session).toString().equals(session)) {
                return session;
            }
        } catch (IllegalArgumentException e) {
            // Falls through to the refusal below, which names the value.
        }
        throw new AgentException("session '" + printable(session) + "' is not a UUID: is the coordinator the same"
                + " Loadlab version as this agent?");
    }

    /**
     * Checks that an order answers into its session's own queue, so that no order fills another queue.
     *
     * @throws AgentException otherwise
     */
    static void reply(String session, String reply) {
        if (!reply.equals(Cluster.REPLIES + session)) {
            throw new AgentException("reply queue '" + printable(reply) + "' is not this session's ("
                    + Cluster.REPLIES + session + ")");
        }
    }

    /**
     * Checks that the order's {@code client} is a Hazelcast client connected to this agent now. The
     * queue does not say who offered an item (not in Hazelcast's open edition), so the client named in
     * the order is taken only when it is one of the connected ones: a run or subject is then tied to a
     * connection whose loss ends it.
     *
     * @throws AgentException otherwise
     */
    static void client(String client, Collection<String> connected) {
        if (!connected.contains(client)) {
            throw new AgentException("client '" + printable(client) + "' is not connected to this agent: orders"
                    + " come from a coordinator's own connection");
        }
    }

    /** {@code name} inside {@code scratch}; a name that would leave it is refused. */
    static Path under(Path scratch, String name) {
        Path root = scratch.toAbsolutePath().normalize();
        Path p = root.resolve(name).normalize();
        if (!p.getParent().equals(root)) {
            throw new AgentException("'" + printable(name) + "' is not a file name inside " + root);
        }
        return p;
    }

    /**
     * Checks a run's share against this agent's caps: at most {@link #MAX_CONNECTIONS} connections,
     * {@code max(16, 4 × cpus)} threads, {@link #MAX_DURATION} of window, of fixed warm-up and of
     * request timeout, {@link #MAX_CONNECT_TIMEOUT} of connect timeout, and a run limit (ms) of at
     * least 1 and at most the warm-up plus the window (an hour without one) plus
     * {@link Setup#LIMIT_SLACK_MS}, which is what a coordinator of this version asks.
     *
     * @param cpus the CPUs this agent's load may use
     * @throws AgentException naming the first value over its cap
     */
    static void load(LoadSpec spec, long runLimitMs, int cpus) {
        int maxThreads = Math.max(MIN_THREAD_CAP, THREADS_PER_CPU * cpus);
        cap("connections", spec.connections(), MAX_CONNECTIONS, "");
        cap("threads", spec.threads(), maxThreads, " (" + THREADS_PER_CPU + " per CPU of this agent, "
                + MIN_THREAD_CAP + " at least)");
        long window = spec.duration().map(Duration::toMillis).orElse(MAX_DURATION.toMillis());
        cap("duration_ms", window, MAX_DURATION.toMillis(), "");
        long warmup = spec.warmup().max().toMillis();
        cap("warmup_ms", warmup, MAX_DURATION.toMillis(), "");
        cap("request_timeout_ms", spec.requestTimeout().toMillis(), MAX_DURATION.toMillis(), "");
        cap("connect_timeout_ms", spec.connectTimeout().toMillis(), MAX_CONNECT_TIMEOUT.toMillis(), "");
        if (runLimitMs < 1) {
            throw new AgentException("run_limit_ms must be at least 1, got " + runLimitMs);
        }
        cap("run_limit_ms", runLimitMs, warmup + window + Setup.LIMIT_SLACK_MS, " (warm-up + duration + "
                + Setup.LIMIT_SLACK_MS + ")");
    }

    private static void cap(String field, long value, long max, String why) {
        if (value > max) {
            throw new AgentException(field + " " + value + " is over this agent's cap of " + max + why);
        }
    }

    /**
     * Checks that every variant name and value of a launch is one the manifest declares.
     *
     * @throws AgentException naming the first that is not, and what the manifest declares
     */
    static void variant(SubjectManifest m, Map<String, String> variant) {
        for (Map.Entry<String, String> e : new TreeMap<>(variant).entrySet()) {
            List<String> declared = m.variants().get(e.getKey());
            if (declared == null) {
                throw new AgentException("subject '" + m.name() + "' has no variant '" + printable(e.getKey())
                        + "' here; its variants: " + (m.variants().isEmpty() ? "none" : m.variants().keySet()));
            }
            if (!declared.contains(e.getValue())) {
                throw new AgentException("subject '" + m.name() + "' has no " + e.getKey() + " '"
                        + printable(e.getValue()) + "' here; its values: " + String.join(", ", declared));
            }
        }
    }

    /** A peer's text as one short line for a refusal: control characters shown as '?', at most 80 characters. */
    static String printable(String s) {
        String one = s.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return one.length() <= 80 ? one : one.substring(0, 77) + "...";
    }
}
