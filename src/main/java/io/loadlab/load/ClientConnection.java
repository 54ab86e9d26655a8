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

    /** Forgets what is outstanding and closes the channel (the window has ended). */
    void close();
}
