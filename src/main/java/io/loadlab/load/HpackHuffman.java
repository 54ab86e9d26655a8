package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;

/**
 * HPACK's Huffman code (RFC 7541, Appendix B) for decoding: how long a string is once decoded, and its
 * first bytes when asked. The code is canonical (codes of one length are consecutive, in symbol order,
 * and follow the shorter ones), so it is rebuilt from its code lengths alone. Codes of at most 8 bits
 * (letters, digits and the usual punctuation) are found with one table lookup; longer ones by length.
 * Stateless and thread-safe.
 */
final class HpackHuffman {

    /** The code length in bits of each symbol 0-255 and of EOS (256), from RFC 7541 Appendix B. */
    private static final byte[] LENGTHS = {
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,  // 0-15
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,  // 16-31
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,  // 32-47
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,  // 48-63
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,  // 64-79
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,  // 80-95
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,  // 96-111
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,  // 112-127
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,  // 128-143
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,  // 144-159
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,  // 160-175
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,  // 176-191
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,  // 192-207
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,  // 208-223
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,  // 224-239
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,  // 240-255
        30,  // 256-256
    };

    static final int EOS = 256;
    private static final int MAX_LENGTH = 30;
    /** Per code length: its first code, how many codes have it, and where their symbols start in SYMBOLS. */
    private static final int[] FIRST = new int[MAX_LENGTH + 1];
    private static final int[] COUNT = new int[MAX_LENGTH + 1];
    private static final int[] OFFSET = new int[MAX_LENGTH + 1];
    /** The symbols ordered by (code length, symbol), the canonical order. */
    private static final short[] SYMBOLS = new short[LENGTHS.length];
    /** By the next 8 bits: (length << 9 | symbol) of the code of at most 8 bits they start with, else 0. */
    private static final short[] SHORT = new short[256];

    static {
        for (byte length : LENGTHS) {
            COUNT[length]++;
        }
        int code = 0, offset = 0;
        for (int length = 1; length <= MAX_LENGTH; length++) {
            code = (code + COUNT[length - 1]) << 1;
            FIRST[length] = code;
            OFFSET[length] = offset;
            offset += COUNT[length];
        }
        int[] next = OFFSET.clone();
        for (int length = 1; length <= MAX_LENGTH; length++) {
            for (int symbol = 0; symbol < LENGTHS.length; symbol++) {
                if (LENGTHS[symbol] == length) {
                    SYMBOLS[next[length]++] = (short) symbol;
                }
            }
        }
        for (int length = 1; length <= 8; length++) {
            for (int i = 0; i < COUNT[length]; i++) {
                int prefix = (FIRST[length] + i) << (8 - length);
                for (int rest = 0; rest < 1 << (8 - length); rest++) {
                    SHORT[prefix | rest] = (short) (length << 9 | SYMBOLS[OFFSET[length] + i]);
                }
            }
        }
    }

    private HpackHuffman() {
    }

    /** The code of a symbol, right-aligned, as RFC 7541 Appendix B gives it (for tests). */
    static int code(int symbol) {
        int length = LENGTHS[symbol];
        int rank = 0;
        for (int i = OFFSET[length]; SYMBOLS[i] != symbol; i++) {
            rank++;
        }
        return FIRST[length] + rank;
    }

    /** The code length in bits of a symbol. */
    static int length(int symbol) {
        return LENGTHS[symbol];
    }

    /**
     * Decodes {@code length} bytes of {@code in} from {@code index} (not moving its reader index).
     *
     * @param out receives the first decoded bytes, as many as fit; null to only count them
     * @return the decoded length in bytes
     * @throws Http2Exception COMPRESSION_ERROR for an EOS symbol, or padding that is longer than 7 bits
     *                        or not the EOS code's leading ones (RFC 7541 section 5.2)
     */
    static int decode(ByteBuf in, int index, int length, byte[] out) throws Http2Exception {
        long bits = 0;
        int available = 0, decoded = 0, i = index;
        final int end = index + length;
        while (true) {
            while (available <= 48 && i < end) {
                bits = bits << 8 | in.getByte(i++) & 0xff;
                available += 8;
            }
            if (available == 0) {
                return decoded;
            }
            int next8 = available >= 8 ? (int) (bits >>> (available - 8)) & 0xff
                    : (int) (bits << (8 - available) | (1 << (8 - available)) - 1) & 0xff;
            int entry = SHORT[next8];
            int symbol = -1, bitsUsed = entry >>> 9;
            if (entry != 0 && bitsUsed <= available) {
                symbol = entry & 0x1ff;
            } else {
                for (bitsUsed = 9; bitsUsed <= Math.min(MAX_LENGTH, available); bitsUsed++) {
                    int rank = (int) (bits >>> (available - bitsUsed) & (1L << bitsUsed) - 1) - FIRST[bitsUsed];
                    if (rank >= 0 && rank < COUNT[bitsUsed]) {
                        symbol = SYMBOLS[OFFSET[bitsUsed] + rank];
                        break;
                    }
                }
            }
            if (symbol < 0) {
                // What is left is no whole code: it must be padding, the EOS code's first bits (all ones).
                long ones = (1L << available) - 1;
                if (i < end || available > 7 || (bits & ones) != ones) {
                    throw Http2Exception.connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: bad Huffman padding");
                }
                return decoded;
            }
            if (symbol == EOS) {
                throw Http2Exception.connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: EOS in a Huffman string");
            }
            if (out != null && decoded < out.length) {
                out[decoded] = (byte) symbol;
            }
            decoded++;
            available -= bitsUsed;
            bits &= (1L << available) - 1;
        }
    }
}
