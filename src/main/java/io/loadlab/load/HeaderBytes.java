package io.loadlab.load;

import java.nio.charset.StandardCharsets;

/**
 * Byte-level pieces of {@link ResponseParser}: case-insensitive header names and list tokens,
 * decimal and hex digits, read from a line buffer without allocating. Lower-case words are
 * compared with {@code | 0x20}, which folds ASCII letters only: the words given are letters,
 * dashes and digits, whose folded forms cannot collide with other bytes of a valid header.
 */
final class HeaderBytes {

    private HeaderBytes() {
    }

    /** The US-ASCII bytes of a word. */
    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Whether {@code line[from, from + nameLen)} is the lower-case name, ignoring case. */
    static boolean nameIs(byte[] line, int from, int nameLen, byte[] lowerName) {
        if (nameLen != lowerName.length) {
            return false;
        }
        for (int i = 0; i < nameLen; i++) {
            if ((line[from + i] | 0x20) != lowerName[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether the comma-separated list in {@code line[from, to)} has the token, ignoring case. */
    static boolean hasToken(byte[] line, int from, int to, byte[] lowerWord) {
        int start = from;
        for (int i = from; i <= to; i++) {
            if (i == to || line[i] == ',') {
                if (tokenEquals(line, start, i, lowerWord)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    /** Whether the last token of the comma-separated list in {@code line[from, to)} is the word. */
    static boolean lastTokenIs(byte[] line, int from, int to, byte[] lowerWord) {
        int start = from;
        for (int i = from; i < to; i++) {
            if (line[i] == ',') {
                start = i + 1;
            }
        }
        return tokenEquals(line, start, to, lowerWord);
    }

    private static boolean tokenEquals(byte[] line, int from, int to, byte[] lowerWord) {
        while (from < to && (line[from] == ' ' || line[from] == '\t')) {
            from++;
        }
        while (to > from && (line[to - 1] == ' ' || line[to - 1] == '\t')) {
            to--;
        }
        if (to - from != lowerWord.length) {
            return false;
        }
        for (int j = 0; j < lowerWord.length; j++) {
            if ((line[from + j] | 0x20) != lowerWord[j]) {
                return false;
            }
        }
        return true;
    }

    static long parseDecimal(byte[] line, int from, int to) {
        if (from == to || to - from > 18) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            if (!isDigit(line[i])) {
                return -1;
            }
            v = v * 10 + (line[i] - '0');
        }
        return v;
    }

    /** What {@link #chunkSize} returns for a size of more than 15 hex digits. */
    static final long TOO_LARGE = -2;

    /**
     * The status code of a status line {@code b[off, off + len)} without its CRLF ("HTTP/1.1 200 OK": the
     * reason phrase is optional, the space before it is not required), 0 to 999, or -1 when malformed.
     */
    static int statusCode(byte[] b, int off, int len) {
        if (len < 12 || b[off] != 'H' || b[off + 1] != 'T' || b[off + 2] != 'T' || b[off + 3] != 'P'
                || b[off + 4] != '/' || b[off + 5] != '1' || b[off + 6] != '.' || !isDigit(b[off + 7])
                || b[off + 8] != ' ' || !isDigit(b[off + 9]) || !isDigit(b[off + 10]) || !isDigit(b[off + 11])
                || (len > 12 && b[off + 12] != ' ')) {
            return -1;
        }
        return (b[off + 9] - '0') * 100 + (b[off + 10] - '0') * 10 + (b[off + 11] - '0');
    }

    /**
     * The size a chunk-size line {@code b[off, off + len)} gives (hex digits, then optionally extensions
     * after {@code ;}, space or tab), bytes; -1 when malformed, {@link #TOO_LARGE} beyond 15 hex digits.
     */
    static long chunkSize(byte[] b, int off, int len) {
        long size = 0;
        int i = 0;
        for (; i < len; i++) {
            int d = hexValue(b[off + i]);
            if (d < 0) {
                break;
            }
            if (i >= 15) {
                return TOO_LARGE;
            }
            size = size * 16 + d;
        }
        if (i == 0 || (i < len && b[off + i] != ';' && b[off + i] != ' ' && b[off + i] != '\t')) {
            return -1;
        }
        return size;
    }

    static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    static int hexValue(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        int l = b | 0x20;
        return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
    }

    /** The start of the line {@code b[off, off + len)} for an error message, control bytes shown as '?'. */
    static String printable(byte[] b, int off, int len) {
        int n = Math.min(len, 80);
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            int v = b[off + i] & 0xff;
            c[i] = v >= 0x20 && v < 0x7f ? (char) v : '?';
        }
        return len > n ? new String(c) + "..." : new String(c);
    }
}
