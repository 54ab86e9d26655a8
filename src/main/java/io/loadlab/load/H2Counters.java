package io.loadlab.load;

/** HTTP/2 events of one worker's connections since the window opened, on its loop only. */
final class H2Counters {
    /** RST_STREAM frames received (each one's request counts as a read error). */
    long rstStream;
    /** GOAWAY frames received. */
    long goaway;
    /** Times a request body had to wait for the server's flow-control window. */
    long flowControlStalls;

    void reset() {
        rstStream = goaway = flowControlStalls = 0;
    }
}
