package io.loadlab.load;

import java.util.Arrays;

/**
 * The last header section that {@link ResponseParser} parsed whole in one window, with what it
 * found in it. Servers under load answer with the same header section again and again (only
 * {@code Date} changes, once a second), so the next one is compared byte for byte (a vectorised
 * {@link Arrays#equals}) and, when equal, its parse is reused: the same bytes from the same state
 * give the same parse, on any connection. A repeated answer then costs about 12 ns instead of 145
 * ({@code bench/parser.sh}, README "The response parser"). One per parser; not thread-safe.
 */
final class RepeatedHeaders {
    /** Longer sections are parsed each time (bytes): a compare of more would cost about as much. */
    static final int MAX_SECTION = 1024;

    /** Sized to the longest section remembered so far: most connections never need the 1 KiB. */
    private byte[] section = new byte[0];
    /** Bytes of the remembered section, status line to the empty line's LF; 0 when none is. */
    private int length;
    /** The remembered section's parse, up to its empty line (which is counted in it). */
    private final ResponseHead head = new ResponseHead();

    /** Whether {@code b[off, off + available)} starts with the remembered section. */
    boolean matches(byte[] b, int off, int available) {
        return length > 0 && available >= length && Arrays.equals(b, off, off + length, section, 0, length);
    }

    /** Bytes of the remembered section. */
    int length() {
        return length;
    }

    /** The remembered section's parse, its empty line counted in {@link ResponseHead#headerBytes}. */
    ResponseHead head() {
        return head;
    }

    /**
     * Remembers {@code b[from, to)} as the section whose parse, up to its empty line, is {@code parsed};
     * a section longer than {@value #MAX_SECTION} bytes is forgotten instead.
     */
    void remember(byte[] b, int from, int to, ResponseHead parsed) {
        int n = to - from;
        if (n > MAX_SECTION) {
            length = 0;
            return;
        }
        if (n > section.length) {
            section = new byte[n];
        }
        System.arraycopy(b, from, section, 0, n);
        length = n;
        head.copyFrom(parsed);
        head.headerBytes += 2; // the empty line, which the parser counts as it ends the section
    }
}
