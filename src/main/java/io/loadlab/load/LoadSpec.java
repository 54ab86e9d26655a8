package io.loadlab.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Everything one load run needs; built with {@link #builder()}, whose {@code build()} checks
 * the whole spec and names the bad field.
 *
 * @param request        the request every connection sends
 * @param model          closed loop or fixed rate
 * @param connections    TCP connections, 1 or more, at least {@code threads}
 * @param threads        event-loop threads the connections are spread over, 1 or more
 * @param duration       measured window; empty when only a request count bounds the run
 * @param requestCount   total requests to send; empty when only a duration bounds the run
 * @param warmup         load before the measured window, excluded from every figure: a fixed time or
 *                       until the throughput is steady ({@link Warmup})
 * @param requestTimeout time after which an unanswered request counts as a timeout
 * @param connectTimeout time after which a connection attempt counts as a connect error
 * @param transport      Netty transport for the event loops
 * @param expectation    what counts as a correct answer
 * @param seed           seed of the {@code {rand:LO-HI}} keys: the same seed sends the same keys in the
 *                       same order on each event loop
 * @param protocol       HTTP/1.1, HTTP/2 over TLS (ALPN, needs {@code https://}) or h2c (needs {@code http://})
 * @param streams        HTTP/2 streams each connection keeps in flight (h2load's {@code -m}), 1 or more; 1
 *                       for HTTP/1.1, whose depth is the closed loop's pipeline
 * @param tls            how an {@code https://} run sets up TLS (ignored for {@code http://})
 */
public record LoadSpec(RequestTemplate request, LoadModel model, int connections, int threads,
                       Optional<Duration> duration, OptionalLong requestCount, Warmup warmup,
                       Duration requestTimeout, Duration connectTimeout, Transport transport,
                       Expectation expectation, long seed, Protocol protocol, int streams, TlsOptions tls) {

    /**
     * The connections of a load when none are given: the builder's, {@code loadlab load}'s,
     * {@code loadlab run}'s and an experiment spec's.
     */
    public static final int DEFAULT_CONNECTIONS = 64;

    public LoadSpec {
        List<String> problems = new ArrayList<>();
        if (request == null) {
            problems.add("request: a URL is required");
        }
        if (model == null) {
            problems.add("model: closed loop or fixed rate is required");
        }
        if (connections < 1) {
            problems.add("connections: must be at least 1, got " + connections);
        }
        if (threads < 1) {
            problems.add("threads: must be at least 1, got " + threads);
        } else if (threads > connections && connections >= 1) {
            problems.add("threads: " + threads + " threads need at least as many connections, got "
                    + connections + " (raise -c or lower -t)");
        }
        if (duration.isEmpty() && requestCount.isEmpty()) {
            problems.add("duration: give a duration or a request count");
        }
        duration.filter(d -> d.isNegative() || d.isZero())
                .ifPresent(d -> problems.add("duration: must be positive, got " + d));
        requestCount.ifPresent(n -> {
            if (n < 1) {
                problems.add("requests: must be at least 1, got " + n);
            }
        });
        if (warmup == null) {
            problems.add("warmup: required (Warmup.NONE for none)");
        } else if (!warmup.isNone() && requestCount.isPresent()) {
            // The warm-up's requests would use up the count: the window would get what is left.
            problems.add("warmup: cannot be combined with a request count (-n); use a duration (-d) with"
                    + " --warmup, or drop the warm-up");
        }
        if (requestTimeout == null || requestTimeout.toMillis() < 1) {
            problems.add("timeout: must be at least 1ms, got " + requestTimeout);
        }
        if (connectTimeout == null || connectTimeout.toMillis() < 1) {
            problems.add("connect timeout: must be at least 1ms, got " + connectTimeout);
        }
        if (transport == null) {
            problems.add("transport: required");
        }
        if (expectation == null) {
            problems.add("expectation: required (Expectation.ANY_SUCCESS accepts any status below 400)");
        }
        if (tls == null) {
            problems.add("tls: required (TlsOptions.DEFAULTS for the defaults)");
        }
        checkProtocol(request, model, protocol, streams, problems);
        if (!problems.isEmpty()) {
            throw LoadException.usage(String.join("; ", problems));
        }
    }

    private static void checkProtocol(RequestTemplate request, LoadModel model, Protocol protocol, int streams,
                                      List<String> problems) {
        if (protocol == null) {
            problems.add("protocol: required (Protocol.HTTP_1_1 for HTTP/1.1)");
            return;
        }
        boolean tls = request != null && request.target().tls();
        if (protocol == Protocol.H2 && request != null && !tls) {
            problems.add("protocol: --h2 negotiates HTTP/2 over TLS and needs an https:// URL; use --h2c for"
                    + " HTTP/2 over plain TCP");
        }
        if (protocol == Protocol.H2C && tls) {
            problems.add("protocol: --h2c is HTTP/2 over plain TCP and needs an http:// URL; use --h2 for https://");
        }
        if (streams < 1) {
            problems.add("streams: must be at least 1, got " + streams);
        } else if (streams > 1 && !protocol.isHttp2()) {
            problems.add("streams: -m " + streams + " needs HTTP/2 (--h2 or --h2c); HTTP/1.1 pipelines with --pipeline");
        }
        if (protocol.isHttp2() && model instanceof LoadModel.ClosedLoop c && c.pipeline() > 1) {
            problems.add("pipeline: HTTP/2 has no pipelining; keep requests in flight with -m/--streams");
        }
        if (request != null && request.closesConnection()) {
            if (protocol.isHttp2()) {
                problems.add("request: Connection: close (--no-keepalive) opens a connection per request, which"
                        + " HTTP/2 does not do; drop it or --h2/--h2c");
            } else if (model instanceof LoadModel.ClosedLoop c && c.pipeline() > 1) {
                problems.add("pipeline: Connection: close (--no-keepalive) sends one request per connection; drop"
                        + " --pipeline or --no-keepalive");
            }
        }
    }

    /**
     * A builder with the defaults: closed loop, {@value #DEFAULT_CONNECTIONS} connections, 1 thread, 10 s,
     * timeout 10 s, HTTP/1.1.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding every field of this spec: change what differs, then {@code build()} (which checks
     * the whole spec again).
     */
    public Builder toBuilder() {
        Builder b = new Builder().request(request).model(model).connections(connections).threads(threads)
                .warmup(warmup).requestTimeout(requestTimeout).connectTimeout(connectTimeout).transport(transport)
                .expect(expectation).seed(seed).protocol(protocol).streams(streams).tls(tls);
        duration.ifPresent(b::duration);
        requestCount.ifPresent(b::requests);
        return b;
    }

    /** The same load with a measured window of {@code window} (no request count). */
    public LoadSpec withWindow(Duration window) {
        return new LoadSpec(request, model, connections, threads, Optional.of(window), OptionalLong.empty(), warmup,
                requestTimeout, connectTimeout, transport, expectation, seed, protocol, streams, tls);
    }

    /** Whether latency is measured from the due time (fixed rate) with service time beside it. */
    public boolean isFixedRate() {
        return model instanceof LoadModel.FixedRate;
    }

    /** Requests in flight per connection in the closed loop, 1 in the fixed-rate model. */
    public int pipeline() {
        return model instanceof LoadModel.ClosedLoop c ? c.pipeline() : 1;
    }

    /**
     * Independent request schedules: one per HTTP/1.1 connection, one per stream of an HTTP/2
     * connection. At a fixed rate each slot has its own due times (coordinated omission is corrected
     * per slot) and one request in flight.
     */
    public int slots() {
        return connections * streams;
    }

    /** What ends the run, for people: {@code 10s}, {@code 1,000 requests} or {@code 10s or 1,000 requests}. */
    public String bound() {
        return duration.map(io.loadlab.time.Durations::format).orElse("")
                + (duration.isPresent() && requestCount.isPresent() ? " or " : "")
                + (requestCount.isPresent() ? io.loadlab.format.Units.count(requestCount.getAsLong()) + " requests" : "");
    }

    /** {@code LoadSpec[GET http://127.0.0.1:8080/json: closed loop, 64 connections, 2 threads, 10s, warm-up 1s]}. */
    @Override
    public String toString() {
        return "LoadSpec[" + request.method() + " " + request.target().url() + ": " + model.describe() + ", "
                + connections + " connections, " + threads + " thread" + (threads == 1 ? "" : "s") + ", " + bound()
                + (warmup.isNone() ? "" : ", " + warmup.describe()) + "]";
    }

    /** Builds a {@link LoadSpec}; every setter returns the builder. */
    public static final class Builder {
        private RequestTemplate request;
        private LoadModel model = new LoadModel.ClosedLoop(1);
        private int connections = DEFAULT_CONNECTIONS;
        private int threads = 1;
        private Duration duration;
        private Long requestCount;
        private Warmup warmup = Warmup.NONE;
        private Duration requestTimeout = Duration.ofSeconds(10);
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Transport transport = Transport.AUTO;
        private Expectation expectation = Expectation.ANY_SUCCESS;
        private long seed = 1;
        private Protocol protocol = Protocol.HTTP_1_1;
        private int streams = 1;
        private TlsOptions tls = TlsOptions.DEFAULTS;

        private Builder() {
        }

        public Builder request(RequestTemplate r) {
            this.request = r;
            return this;
        }

        /** Shorthand for a GET of {@code url}. */
        public Builder url(String url) {
            this.request = RequestTemplate.get(url);
            return this;
        }

        public Builder model(LoadModel m) {
            this.model = m;
            return this;
        }

        public Builder connections(int c) {
            this.connections = c;
            return this;
        }

        public Builder threads(int t) {
            this.threads = t;
            return this;
        }

        public Builder duration(Duration d) {
            this.duration = d;
            return this;
        }

        public Builder requests(long n) {
            this.requestCount = n;
            return this;
        }

        /** A fixed warm-up of {@code d} (zero for none). */
        public Builder warmup(Duration d) {
            this.warmup = d == null ? null : new Warmup.Fixed(d);
            return this;
        }

        /** A fixed or steady-state warm-up. */
        public Builder warmup(Warmup w) {
            this.warmup = w;
            return this;
        }

        /** Seed of the {@code {rand}} keys (default 1). */
        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        public Builder requestTimeout(Duration d) {
            this.requestTimeout = d;
            return this;
        }

        public Builder connectTimeout(Duration d) {
            this.connectTimeout = d;
            return this;
        }

        public Builder transport(Transport t) {
            this.transport = t;
            return this;
        }

        public Builder expect(Expectation e) {
            this.expectation = e;
            return this;
        }

        /** HTTP/1.1 (default), h2 over TLS or h2c. */
        public Builder protocol(Protocol p) {
            this.protocol = p;
            return this;
        }

        /** HTTP/2 streams in flight per connection (default 1). */
        public Builder streams(int m) {
            this.streams = m;
            return this;
        }

        /** TLS settings of an https:// URL (default {@link TlsOptions#DEFAULTS}). */
        public Builder tls(TlsOptions t) {
            this.tls = t;
            return this;
        }

        /**
         * @throws LoadException (usage) naming every invalid field
         */
        public LoadSpec build() {
            Optional<Duration> d = Optional.ofNullable(duration);
            OptionalLong n = requestCount == null ? OptionalLong.empty() : OptionalLong.of(requestCount);
            if (d.isEmpty() && n.isEmpty()) {
                d = Optional.of(Duration.ofSeconds(10));
            }
            return new LoadSpec(request, model, connections, threads, d, n, warmup,
                    requestTimeout, connectTimeout, transport, expectation, seed, protocol, streams, tls);
        }
    }
}
