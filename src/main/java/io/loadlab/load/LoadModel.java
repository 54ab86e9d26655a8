package io.loadlab.load;

import java.time.Duration;
import java.util.Locale;

/**
 * How requests are issued: a closed loop, where every connection sends its next request when
 * the previous answer arrives, or a fixed rate, where requests are due on a schedule whether or
 * not the server keeps up.
 */
public sealed interface LoadModel {

    /**
     * Closed loop: each connection keeps {@code pipeline} requests in flight (1 = no pipelining).
     *
     * @param pipeline requests in flight per connection, 1 to 1024 (at most; topped up once half are answered)
     */
    record ClosedLoop(int pipeline) implements LoadModel {
        public ClosedLoop {
            if (pipeline < 1 || pipeline > 1024) {
                throw LoadException.usage("pipeline depth must be between 1 and 1024, got " + pipeline);
            }
        }

        @Override
        public String describe() {
            return pipeline == 1 ? "closed loop" : "closed loop, pipeline " + pipeline;
        }
    }

    /**
     * Fixed rate: {@code requestsPerSecond} in total, spread evenly over the connections, one
     * request in flight per connection. Latency is measured from the time each request was
     * <em>due</em> (coordinated omission corrected); service time from when it was sent.
     *
     * @param requestsPerSecond total target rate, requests per second, greater than 0
     * @param paceSlack         the grid the requests go out on: those due in the same interval of this
     *                          length are sent together at its end, sharing one wake-up (see
     *                          {@code Pacer}); a bound on how long a request is held past its due time,
     *                          so on the bias this adds to latency; zero (each at its due time) to 100 ms
     */
    record FixedRate(double requestsPerSecond, Duration paceSlack) implements LoadModel {
        /**
         * The default wake-up slack: none, each request at its due time. Chosen by measurement
         * (docs/benchmarks.md, "Pace slack"): a slack saves CPU only by holding requests, and the bias
         * it adds to the latency is the size of a fast server's whole latency (at 20,000/s against
         * nginx, a 1 ms grid saved 59% of the loop's CPU and raised the median latency 6 times).
         */
        public static final Duration DEFAULT_PACE_SLACK = Duration.ZERO;
        /** The largest wake-up slack accepted. */
        public static final Duration MAX_PACE_SLACK = Duration.ofMillis(100);

        public FixedRate {
            if (!(requestsPerSecond > 0) || Double.isInfinite(requestsPerSecond)) {
                throw LoadException.usage("rate must be a positive number of requests/s, got " + requestsPerSecond);
            }
            if (paceSlack == null || paceSlack.isNegative() || paceSlack.compareTo(MAX_PACE_SLACK) > 0) {
                throw LoadException.usage("pace slack must be between 0 and 100ms, got " + paceSlack);
            }
        }

        /** A fixed rate with the {@link #DEFAULT_PACE_SLACK default} wake-up slack. */
        public FixedRate(double requestsPerSecond) {
            this(requestsPerSecond, DEFAULT_PACE_SLACK);
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "fixed rate %.0f/s", requestsPerSecond);
        }
    }

    /**
     * A short label for summaries: {@code closed loop} or {@code fixed rate 1000/s}.
     * (Java 17 has no pattern switch without preview, so each variant answers for itself.)
     */
    String describe();
}
