package io.loadlab.load;

import java.util.Arrays;

/**
 * The request slots of one {@link H2Connection}: per slot the stream in flight ({@code 0} when the slot
 * is free), when its request was due and sent ({@link System#nanoTime()}), and its answer so far. Plain
 * arrays, so that no request allocates; used on the connection's loop only.
 */
final class H2Slots {

    final int[] stream;
    final long[] due;
    final long[] sent;
    /** Body bytes of the answer so far. */
    final long[] body;
    /** The answer's final status, 0 until it came. */
    final int[] status;
    /** The {@link BodyMatcher} state of the answer's body so far. */
    final int[] match;
    private int inFlight;

    H2Slots(int slots) {
        stream = new int[slots];
        due = new long[slots];
        sent = new long[slots];
        body = new long[slots];
        status = new int[slots];
        match = new int[slots];
    }

    int size() {
        return stream.length;
    }

    /** Streams in flight. */
    int inFlight() {
        return inFlight;
    }

    /** The first free slot; only called while fewer than {@link #size()} are in flight. */
    int free() {
        for (int s = 0; s < stream.length; s++) {
            if (stream[s] == 0) {
                return s;
            }
        }
        throw new IllegalStateException("no free slot with " + inFlight + " of " + stream.length + " in flight");
    }

    /** The slot of a stream, or -1 when none of ours carries it (any more). */
    int of(int streamId) {
        for (int s = 0; s < stream.length; s++) {
            if (stream[s] == streamId) {
                return s;
            }
        }
        return -1;
    }

    /** Stream {@code id} now carries slot {@code slot}'s request, due and sent at those times (ns). */
    void start(int slot, int id, long dueNanos, long sentNanos) {
        stream[slot] = id;
        due[slot] = dueNanos;
        sent[slot] = sentNanos;
        body[slot] = 0;
        status[slot] = 0;
        match[slot] = BodyMatcher.start();
        inFlight++;
    }

    /** The slot's stream has ended, answered or not. */
    void release(int slot) {
        stream[slot] = 0;
        inFlight--;
    }

    /** Every slot free: the connection is gone. */
    void clear() {
        Arrays.fill(stream, 0);
        inFlight = 0;
    }

    /** A three-digit status without allocating; -1 when absent or malformed. */
    static int statusOf(CharSequence s) {
        if (s == null || s.length() != 3) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < 3; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v >= 100 ? v : -1;
    }
}
