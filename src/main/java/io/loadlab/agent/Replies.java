package io.loadlab.agent;

import com.hazelcast.collection.IQueue;

/**
 * An agent's answers to one session, sealed ({@link Envelope}) into the session's reply queue. The run,
 * the subject worker and the inbox thread all answer: sealing and offering under one lock keeps the
 * queue in counter order, which the coordinator requires. Thread-safe.
 */
final class Replies {

    private final IQueue<String> queue;
    private final Envelope envelope;

    Replies(IQueue<String> queue, Envelope envelope) {
        this.queue = queue;
        this.envelope = envelope;
    }

    synchronized void send(Message m) {
        queue.offer(envelope.seal(Wire.encode(m)));
    }
}
