package io.loadlab.load;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Byte-level pieces of {@link ResponseParser}: case-insensitive header names and list tokens,
 * decimal and hex digits, read from a line buffer without allocating. Lower-case words are
 * compared with {@code | 0x20}, which folds ASCII letters only: the words given are letters,
 * dashes and digits, whose folded forms cannot collide with other bytes of a valid header.
 */
final class HeaderBytes {

    /** A byte[] read as little-endian longs: the lowest byte of a word is its first. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

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

    /**
     * The first index of {@code b} in {@code a[from, to)}, or -1. Eight bytes at a time where eight
     * are left (the "has zero byte" test on {@code word ^ b} repeated in every byte): lines are
     * scanned for their LF in every answer, and a byte loop took a tenth of the engine's CPU.
     */
    static int indexOf(byte[] a, int from, int to, byte b) {
        long pattern = (b & 0xffL) * ONES;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long x = (long) LONGS.get(a, i) ^ pattern;
            long found = (x - ONES) & ~x & HIGHS;
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
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
}
