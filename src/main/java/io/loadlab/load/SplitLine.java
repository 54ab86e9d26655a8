package io.loadlab.load;

import java.util.Arrays;

/**
 * The start of a response line that one read did not complete, kept until the read that ends it. Its
 * buffer grows only when a line is split (most connections never split one), to at most
 * {@link ResponseParser#MAX_LINE} bytes, which the parser checks before appending. One per parser.
 */
final class SplitLine {
    private byte[] bytes = new byte[0];
    private int length;

    /** Bytes kept so far; 0 when no line is split. */
    int length() {
        return length;
    }

    /** The buffer, valid in {@code [0, length())} until the next {@link #append}. */
    byte[] bytes() {
        return bytes;
    }

    /** Appends {@code src[off, off + len)}. */
    void append(byte[] src, int off, int len) {
        int n = length + len;
        if (n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.min(ResponseParser.MAX_LINE, Math.max(n, Math.max(128, 2 * bytes.length))));
        }
        System.arraycopy(src, off, bytes, length, len);
        length = n;
    }

    /** Forgets the kept bytes (the buffer stays, for the next split line). */
    void clear() {
        length = 0;
    }
}
