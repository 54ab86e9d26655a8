package io.loadlab.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.load.ErrorCounts;
import io.loadlab.subject.ServerSampler;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What coordinators and agents say to each other, one JSON text per queue item ({@link Wire}), sealed
 * in a session that passed its {@link Handshake} ({@link Envelope}).
 * Coordinator to agent, into the agent's inbox: {@link Ping}, {@link Prepare}, {@link Start},
 * {@link End}; for a subject on the agent's host, {@link Launch}, {@link Sample}, {@link Halt}. Agent to
 * coordinator, into the session's reply queue: {@link Pong}, {@link Ready}, {@link Refused},
 * {@link Interval}, {@link Done}; {@link Launched}, {@link Unready}, {@link Sampled}, {@link Halted}.
 * Times are epoch ms on the clock of whoever sent them unless the name says otherwise.
 */
sealed interface Message {

    /** The session (one coordinator's run) a coordinator's message belongs to. */
    sealed interface Order extends Message permits Ping, Prepare, Start, End, Launch, Sample, Halt {
        String session();
    }

    /**
     * A clock probe; the agent answers with a {@link Pong} at once.
     *
     * @param reply  the queue the session's answers go to
     * @param client the coordinator's Hazelcast client UUID, whose disconnection ends its run
     */
    record Ping(String session, String reply, String client, int seq) implements Order {}

    /**
     * A run to prepare: the agent checks that it is free and that the target accepts a connection.
     *
     * @param load      the agent's share of the load ({@link SpecCodec})
     * @param runLimitMs the longest the agent may load, ms from its start, whatever else happens
     */
    record Prepare(String session, String reply, String client, ObjectNode load, long runLimitMs) implements Order {}

    /** Start the prepared run at {@code startMs} on the agent's own clock (offset applied by the coordinator). */
    record Start(String session, long startMs) implements Order {}

    /** Stop the run once the interval {@code afterIndex} is sent (-1: at once). */
    record End(String session, int afterIndex) implements Order {}

    /**
     * Build (when its sources changed) and start the subject {@code subject} from the agent's own
     * checkout, and wait until it is ready; answered by {@link Launched}, {@link Unready} or
     * {@link Refused}. The subject lives until {@link Halt}, or until the client {@code client}
     * disconnects.
     *
     * @param variant        its variant's values (missing ones take the manifest's first)
     * @param readyTimeoutMs the longest it may take to answer its readiness path once started, ms
     * @param certificate    for a TLS variant, the server certificate and key the runner's throw-away CA
     *                       issued for the subject host (the start command's {@code {cert}} and {@code {key}})
     */
    record Launch(String session, String reply, String client, String subject, Map<String, String> variant,
                  long readyTimeoutMs, Optional<Pem> certificate) implements Order {
        public Launch {
            variant = Map.copyOf(variant);
        }
    }

    /**
     * A server certificate and its private key as PEM text. The key is a throw-away one of one
     * experiment; {@link #toString()} does not show it.
     */
    record Pem(String cert, String key) {
        @Override
        public String toString() {
            return "Pem[certificate " + cert.length() + " chars, key not shown]";
        }
    }

    /**
     * About the session's subject: {@link #START} a window (reset its peak RSS, read its CPU), {@link #END}
     * it, or only {@link #CHECK} whether it runs; answered by {@link Sampled}.
     */
    record Sample(String session, String what) implements Order {
        static final String START = "start";
        static final String END = "end";
        static final String CHECK = "check";
    }

    /** Stop the session's subject, by pid and process group; answered by {@link Halted}. */
    record Halt(String session) implements Order {}

    /** The subject answers on {@code host:port} (the agent's listen host); {@code pid} is its root process. */
    record Launched(String host, int port, long pid) implements Message {}

    /** The subject failed to build, start or become ready; {@code error} carries its log's tail. */
    record Unready(String error) implements Message {}

    /**
     * The subject's state, and after {@link Sample#END} the window as the agent's {@link ServerSampler} read it.
     *
     * @param logTail the last lines of its output once it ended; empty while it runs
     */
    record Sampled(boolean alive, Optional<Integer> exitCode, ServerSampler.Window window, String logTail)
            implements Message {}

    /** The subject whose root was {@code pid} is stopped, its whole process group with it. */
    record Halted(long pid) implements Message {}

    /**
     * Answer to a ping.
     *
     * @param agentUs the agent's clock when it answered, µs since the epoch
     * @param cpus    the CPUs the agent's load may use (its default weight)
     */
    record Pong(int seq, long agentUs, int cpus, String version) implements Message {}

    /** The run is prepared: the target accepted a connection from the agent. */
    record Ready() implements Message {}

    /** The agent will not or cannot run it; {@code error} says why in one line. */
    record Refused(String error) implements Message {}

    /**
     * One second of an agent's window.
     *
     * @param index        0 for the window's first interval
     * @param loadCpuNanos CPU time of the agent's event-loop threads in the interval, ns
     * @param processCpuNanos CPU time of the agent's whole JVM in the interval, ns
     * @param latency      µs, HdrHistogram
     * @param service      service time, µs, at a fixed rate
     * @param stealSeconds the hypervisor's steal on the CPUs the agent may use in the interval, s; empty
     *                     where the agent cannot read it (no {@code /proc/stat}) or is older
     */
    record Interval(int index, long startMs, long endMs, long requests, long missed, ErrorCounts errors,
                    long bytesRead, long loadCpuNanos, long processCpuNanos, Histogram latency, Optional<Histogram> service,
                    OptionalDouble stealSeconds)
            implements Message {}

    /**
     * The agent's run is over.
     *
     * @param status       {@code ok} or {@code failed}
     * @param ended        how: {@code complete}, {@code stopped} (an {@link End}), {@code coordinator_gone},
     *                     {@code deadline}, {@code agent_stopped} (the agent was stopped on its host),
     *                     {@code failed}
     * @param statusCodes  answers per status, when the engine ended by itself
     * @param bytesWritten bytes of requests sent in the window, when the engine ended by itself
     * @param connectTime  connection times, µs, when the engine ended by itself
     * @param steady       whether the engine's own (fixed) warm-up ended steady, when it ended by itself
     * @param threads      the event-loop threads the agent's engine ran
     */
    record Done(String status, Optional<String> error, String ended, SortedMap<Integer, Long> statusCodes,
                OptionalLong bytesWritten, Optional<Histogram> connectTime, Optional<Boolean> steady, int threads)
            implements Message {
        public Done {
            statusCodes = new TreeMap<>(statusCodes);
        }

        static Done failed(String why, int threads) {
            return new Done("failed", Optional.of(why), "failed", new TreeMap<>(Map.of()), OptionalLong.empty(),
                    Optional.empty(), Optional.empty(), threads);
        }
    }
}
