package io.loadlab.load;

import io.netty.buffer.ByteBuf;

/**
 * Finds a fixed byte string in a body that arrives in pieces (reads, chunks, DATA frames), without
 * copying the body and without allocating per answer: a Knuth-Morris-Pratt automaton whose whole state
 * for one answer is an {@code int}, the count of the needle's bytes matched so far. A needle split
 * across two reads is found, because the state carries over between {@link #feed} calls.
 *
 * <p>Once the needle was found the state stays at {@link #found} and the rest of the body is not
 * scanned, so a match early in a large body costs little.
 */
final class BodyMatcher {

    /** Longest needle accepted, in bytes: the automaton holds one int per byte. */
    static final int MAX_NEEDLE = 4096;

    private final byte[] needle;
    /** {@code fail[i]}: the longest proper prefix of {@code needle[0, i]} that is also its suffix. */
    private final int[] fail;

    BodyMatcher(byte[] needle) {
        if (needle.length == 0 || needle.length > MAX_NEEDLE) {
            throw LoadException.usage("the text an answer's body must contain is 1 to " + MAX_NEEDLE
                    + " bytes long, got " + needle.length);
        }
        this.needle = needle.clone();
        this.fail = new int[needle.length];
        for (int i = 1, k = 0; i < needle.length; i++) {
            while (k > 0 && needle[i] != needle[k]) {
                k = fail[k - 1];
            }
            if (needle[i] == needle[k]) {
                k++;
            }
            fail[i] = k;
        }
    }

    /** The state of an answer whose body has not started. */
    static int start() {
        return 0;
    }

    /** Whether an answer in {@code state} contained the needle. */
    boolean found(int state) {
        return state == needle.length;
    }

    /** The state after {@code n} more body bytes, read from {@code b} at {@code index} (indices not moved). */
    int feed(int state, ByteBuf b, int index, int n) {
        int k = state;
        for (int i = 0; i < n && k < needle.length; i++) {
            k = step(k, b.getByte(index + i));
        }
        return k;
    }

    /** The state after the body bytes {@code b[off, off + n)}. */
    int feed(int state, byte[] b, int off, int n) {
        int k = state;
        for (int i = 0; i < n && k < needle.length; i++) {
            k = step(k, b[off + i]);
        }
        return k;
    }

    private int step(int k, byte c) {
        while (k > 0 && c != needle[k]) {
            k = fail[k - 1];
        }
        return c == needle[k] ? k + 1 : k;
    }
}
