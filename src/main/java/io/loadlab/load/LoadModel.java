package io.loadlab.load;

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
     */
    record FixedRate(double requestsPerSecond) implements LoadModel {
        public FixedRate {
            if (!(requestsPerSecond > 0) || Double.isInfinite(requestsPerSecond)) {
                throw LoadException.usage("rate must be a positive number of requests/s, got " + requestsPerSecond);
            }
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
