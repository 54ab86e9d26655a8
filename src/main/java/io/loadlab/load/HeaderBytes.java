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
