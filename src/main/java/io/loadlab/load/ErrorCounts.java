package io.loadlab.load;

/**
 * Failed requests by category. Every count is of requests, not of events: a connection reset
 * with three pipelined requests outstanding counts three read errors.
 *
 * @param connect  connection attempts that failed (refused, unreachable, connect timeout, reset
 *                 before the handshake was seen to complete)
 * @param read     requests lost because the connection failed or closed while reading, and
 *                 requests pipelined behind an answer that ended the connection ({@code
 *                 Connection: close}, or an invalid answer)
 * @param write    requests that could not be written
 * @param timeout  requests without a complete answer within the request timeout
 * @param status   complete answers with an unexpected status: by default 400 and above, else any
 *                 status outside the {@link Expectation} (also counted in requests)
 * @param protocol answers that were not valid HTTP/1.1 or HTTP/2, or whose body length differed from the
 *                 expected one
 * @param tls      TLS handshakes that failed (per attempt, as {@code connect}: a certificate refused, no
 *                 common version or cipher, ALPN without {@code h2} for an h2 run), and TLS connections
 *                 ended by an alert or a bad record after the handshake (one each; the requests
 *                 outstanding on them count as {@code read})
 * @param body     answers with an expected status and length whose body lacked the text the
 *                 {@link Expectation} names (also counted in requests)
 */
public record ErrorCounts(long connect, long read, long write, long timeout, long status, long protocol, long tls,
                          long body) {

    public static final ErrorCounts NONE = new ErrorCounts(0, 0, 0, 0, 0, 0, 0, 0);

    public ErrorCounts {
        if (connect < 0 || read < 0 || write < 0 || timeout < 0 || status < 0 || protocol < 0 || tls < 0
                || body < 0) {
            throw new IllegalArgumentException("error counts cannot be negative");
        }
    }

    /** Counts of a run that looked into no body: no {@code body} errors. */
    public ErrorCounts(long connect, long read, long write, long timeout, long status, long protocol, long tls) {
        this(connect, read, write, timeout, status, protocol, tls, 0);
    }

    /** Counts of a run without TLS: no {@code tls} errors. */
    public ErrorCounts(long connect, long read, long write, long timeout, long status, long protocol) {
        this(connect, read, write, timeout, status, protocol, 0, 0);
    }

    /** The sum of all categories. */
    public long total() {
        return connect + read + write + timeout + status + protocol + tls + body;
    }

    /** Category-wise sum. */
    public ErrorCounts plus(ErrorCounts o) {
        return new ErrorCounts(connect + o.connect, read + o.read, write + o.write,
                timeout + o.timeout, status + o.status, protocol + o.protocol, tls + o.tls, body + o.body);
    }

    /** Category-wise difference (this minus {@code o}); every count of {@code o} must be at most this one's. */
    public ErrorCounts minus(ErrorCounts o) {
        return new ErrorCounts(connect - o.connect, read - o.read, write - o.write,
                timeout - o.timeout, status - o.status, protocol - o.protocol, tls - o.tls, body - o.body);
    }
}
