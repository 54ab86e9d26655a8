package io.loadlab.load;

/**
 * HTTP/2 events of a run's window.
 *
 * @param streams           streams each connection kept in flight at most ({@code -m})
 * @param rstStream         RST_STREAM frames received; each one's request is a {@code read} error
 * @param goaway            GOAWAY frames received; the requests above its last stream are {@code read}
 *                          errors, and the run goes on over a new connection
 * @param flowControlStalls times a request body waited for the server's flow-control window
 */
public record H2Summary(int streams, long rstStream, long goaway, long flowControlStalls) {

    public H2Summary {
        if (streams < 1 || rstStream < 0 || goaway < 0 || flowControlStalls < 0) {
            throw new IllegalArgumentException("H2Summary: streams must be at least 1 and counts not negative");
        }
    }
}
