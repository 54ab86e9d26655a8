package io.loadlab.load;

import io.loadlab.bytes.Bytes;
import java.util.Arrays;

/**
 * The last header section that {@link ResponseParser} parsed whole in one window, with what it
 * found in it. Servers under load answer with the same header section again and again (only
 * {@code Date} changes, once a second), so the next one is compared byte for byte (a vectorised
 * {@link Arrays#equals}) and, when equal, its parse is reused: the same bytes from the same state
 * give the same parse, on any connection. A repeated answer then costs about 12 ns instead of 145
 * ({@code bench/parser.sh}, README "The response parser"). One per parser; not thread-safe.
 *
 * <p>The value of a {@code Date} field is left out of the compare: the parse never reads it, and a
 * value of the same length without a line feed leaves every line where it was. Compared whole, the
 * section differed on every connection once a second, and those full parses were so rare that the
 * JIT compiled their code (C2, 95 ms of it on the load core) about 12 s into a run, where it made
 * one request in a hundred late by up to a millisecond at a fixed rate of 20,000/s.
 */
final class RepeatedHeaders {
    /** Longer sections are parsed each time (bytes): a compare of more would cost about as much. */
    static final int MAX_SECTION = 1024;
    private static final byte[] DATE = HeaderBytes.ascii("date");

    /** Sized to the longest section remembered so far: most connections never need the 1 KiB. */
    private byte[] section = new byte[0];
    /** Bytes of the remembered section, status line to the empty line's LF; 0 when none is. */
    private int length;
    /** The remembered section's parse, up to its empty line (which is counted in it). */
    private final ResponseHead head = new ResponseHead();
    /** Where the value of the section's {@code Date} field starts and ends in it; both 0 when it has none. */
    private int dateFrom;
    private int dateTo;

    /**
     * Whether {@code b[off, off + available)} starts with the remembered section, but for the value of
     * its {@code Date} field, which may be any bytes but a line feed; a new value is remembered, so
     * that the answers after it are compared whole again: one compare, as before the value was left
     * out ({@code bench/parser.sh}: 29 to 36 ns an answer either way, 47 when every answer took the two
     * compares around the value).
     */
    boolean repeats(byte[] b, int off, int available) {
        if (length == 0 || available < length) {
            return false;
        }
        if (Arrays.equals(b, off, off + length, section, 0, length)) {
            return true;
        }
        if (dateTo > dateFrom
                && Arrays.equals(b, off, off + dateFrom, section, 0, dateFrom)
                && Arrays.equals(b, off + dateTo, off + length, section, dateTo, length)
                && Bytes.indexOf(b, off + dateFrom, off + dateTo, (byte) '\n') < 0) {
            System.arraycopy(b, off + dateFrom, section, dateFrom, dateTo - dateFrom);
            return true;
        }
        return false;
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
        findDate();
    }

    /** Finds the first {@code Date} field's value (after its colon, up to the line's CR or LF) in the section. */
    private void findDate() {
        dateFrom = 0;
        dateTo = 0;
        int line = Bytes.indexOf(section, 0, length, (byte) '\n') + 1; // the status line is not a field
        while (line > 0 && line < length) {
            int lf = Bytes.indexOf(section, line, length, (byte) '\n');
            if (lf < 0) {
                return;
            }
            if (lf - line > DATE.length && section[line + DATE.length] == ':'
                    && HeaderBytes.nameIs(section, line, DATE.length, DATE)) {
                dateFrom = line + DATE.length + 1;
                dateTo = section[lf - 1] == '\r' ? lf - 1 : lf;
                return;
            }
            line = lf + 1;
        }
    }
}
