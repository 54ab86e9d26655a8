package io.loadlab.load;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;

/**
 * One client connection of a worker, kept across reconnects: HTTP/1.1 ({@link Http1Connection}) or HTTP/2
 * ({@link H2Connection}). Every method runs on the worker's event loop.
 */
sealed interface ClientConnection permits Http1Connection, H2Connection {

    /**
     * Adds the connection's HTTP handlers to a new channel's pipeline, after TLS where the run has it.
     * Their {@code channelActive} comes once the channel can carry requests (after the TLS handshake).
     */
    void addHandlers(ChannelPipeline pipeline);

    /** A connect began on {@code pending}, which {@link #close} closes until it is active. */
    void connectStarted(Channel pending);

    /** Fails the requests outstanding longer than the request timeout ({@code now}: nanoTime). */
    void checkTimeout(long now);

    /**
     * At a fixed rate, records the requests that fell due before {@code endNanos} but were never sent
     * (see {@link Http1Connection#recordMissed}). Runs once, at the end.
     *
     * @return how many were due and never sent
     */
    long recordMissed(long endNanos);

    /**
     * At a fixed rate, moves the schedule past the requests that fell due before {@code startNanos}, the
     * window's start, and were never sent: the warm-up's backlog. Sent in the window, they made its rate
     * read above the target (4% at 200,000/s when the engine caught up after a slow warm-up) and put the
     * warm-up's waits into its latency; by due time they are the warm-up's. A request the pacer holds
     * is left alone: it is due within the slack, not behind. Runs once, as the window opens.
     *
     * @return how many were skipped
     */
    long skipUnsent(long startNanos);

    /** Forgets what is outstanding and closes the channel (the window has ended). */
    void close();
}
