package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A request's header fields as HPACK blocks (RFC 7541), encoded once for the whole run: every request
 * of a worker sends the same fields, so the engine writes bytes prepared in advance instead of running
 * an encoder per request (Netty's {@code HpackEncoder} hashed and looked up every field of every
 * request, 1.2% of the loop's CPU over h2-tls).
 *
 * <p>Three encodings of the same fields: the first block of a connection inserts each field that is
 * not in the static table into the server's dynamic table (literal with incremental indexing); every
 * later block names them by index (1 or 2 bytes a field, as nghttp2's clients send); and, where the
 * server's table is too small for them, a block that leaves the table alone (literals without
 * indexing). Fields that match a static entry whole are always an index. A substituted path changes
 * from request to request, so it is a literal without indexing in every block, written from the bytes
 * the HTTP/1.1 encoder made for it.
 *
 * <p>The fields' entries are never evicted: they take {@link #tableBytes} of the server's table, which
 * must hold them all ({@link Table#serverLimit}). Immutable; {@link Table} is one connection's state.
 */
final class HpackRequestBlock {

    /** The dynamic table's size before the server's SETTINGS say otherwise (RFC 9113 section 6.5.2). */
    static final long DEFAULT_TABLE_SIZE = 4_096;
    /** Index of {@code :path} in the static table, the name of a substituted path's literal. */
    private static final int PATH_NAME_INDEX = 4;

    /** A field: name and value in lower-case ASCII (names) and ISO-8859-1 bytes (values). */
    record Field(String name, String value) {
    }

    /** The table state of one connection: how its next block refers to the fields. */
    static final class Table {
        private long limit = DEFAULT_TABLE_SIZE;
        private long pendingUpdate = -1;
        private boolean filled;
        private boolean off;

        /** A new connection: the server's table is empty and of the default size. */
        void reset(HpackRequestBlock block) {
            limit = DEFAULT_TABLE_SIZE;
            pendingUpdate = -1;
            filled = false;
            off = block.tableBytes > DEFAULT_TABLE_SIZE;
        }

        /**
         * The server's {@code SETTINGS_HEADER_TABLE_SIZE}, bytes. A smaller table than the one in use
         * must be signalled at the start of the next block (RFC 7541 section 4.2); one too small for the
         * fields turns the table off for the rest of the connection.
         */
        void serverLimit(long bytes, HpackRequestBlock block) {
            if (bytes < limit) {
                limit = bytes;
                pendingUpdate = bytes;
                off |= bytes < block.tableBytes;
            }
        }

        /** Whether blocks on this connection refer to the dynamic table (for tests). */
        boolean usesTable() {
            return !off;
        }
    }

    private final byte[][] beforePath = new byte[3][];
    private final byte[][] afterPath = new byte[3][];
    private final boolean pathPerRequest;
    /** Bytes the fields' entries take in the server's dynamic table (RFC 7541 section 4.1). */
    final int tableBytes;

    private static final int FIRST = 0, INDEXED = 1, LITERAL = 2;

    /**
     * @param fields         the request's fields in order, pseudo-header fields first
     * @param pathPerRequest whether {@code :path} is left out of {@code fields} and written per request,
     *                       right after the pseudo-header fields before it ({@code :method},
     *                       {@code :scheme}, {@code :authority})
     */
    HpackRequestBlock(List<Field> fields, boolean pathPerRequest) {
        this.pathPerRequest = pathPerRequest;
        int split = 0;
        while (pathPerRequest && split < fields.size() && fields.get(split).name().startsWith(":")) {
            split++;
        }
        int inserted = 0;
        int bytes = 0;
        for (Field f : fields) {
            if (HpackStatic.fullIndex(f.name(), f.value()) == 0) {
                inserted++;
                bytes += 32 + f.name().length() + f.value().length();
            }
        }
        this.tableBytes = bytes;
        int[] entry = {0};
        for (int mode = FIRST; mode <= LITERAL; mode++) {
            entry[0] = 0;
            beforePath[mode] = encode(fields.subList(0, split), mode, entry, inserted);
            afterPath[mode] = encode(fields.subList(split, fields.size()), mode, entry, inserted);
        }
    }

    /** The longest block this writes, bytes, apart from a per-request path. */
    int maxLength() {
        int max = 0;
        for (int mode = FIRST; mode <= LITERAL; mode++) {
            max = Math.max(max, beforePath[mode].length + afterPath[mode].length);
        }
        return max + 6; // a table size update
    }

    /**
     * Writes the next block of a connection into {@code out}.
     *
     * @param path the request's path when it changes per request ({@code length} bytes from
     *             {@code from}); ignored otherwise
     */
    void write(ByteBuf out, Table table, ByteBuf path, int from, int length) {
        if (table.pendingUpdate >= 0) {
            writeInt(out, 0x20, 5, table.pendingUpdate);
            table.pendingUpdate = -1;
        }
        int mode = table.off ? LITERAL : table.filled ? INDEXED : FIRST;
        table.filled = true;
        out.writeBytes(beforePath[mode]);
        if (pathPerRequest) {
            out.writeByte(PATH_NAME_INDEX); // literal without indexing, indexed name (0000xxxx)
            writeInt(out, 0, 7, length);
            out.writeBytes(path, from, length);
        }
        out.writeBytes(afterPath[mode]);
    }

    /** Encodes fields in one mode; {@code entry} counts the table's entries across calls. */
    private static byte[] encode(List<Field> fields, int mode, int[] entry, int inserted) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Field f : fields) {
            int full = HpackStatic.fullIndex(f.name(), f.value());
            if (full > 0) {
                writeInt(out, 0x80, 7, full);
                continue;
            }
            int k = ++entry[0];
            if (mode == INDEXED) {
                // The newest entry is index 62 (the static table's 61, then 1-based): the k-th of n
                // inserted sits n - k entries behind it.
                writeInt(out, 0x80, 7, HpackStatic.COUNT + 1 + inserted - k);
                continue;
            }
            int nameIndex = HpackStatic.nameIndex(f.name());
            if (mode == FIRST) {
                writeInt(out, 0x40, 6, nameIndex); // literal with incremental indexing
            } else {
                writeInt(out, 0x00, 4, nameIndex); // literal without indexing
            }
            if (nameIndex == 0) {
                writeString(out, f.name());
            }
            writeString(out, f.value());
        }
        return out.toByteArray();
    }

    /** A string literal, Huffman-coded where that is shorter (RFC 7541 section 5.2). */
    private static void writeString(ByteArrayOutputStream out, String s) {
        byte[] raw = s.getBytes(StandardCharsets.ISO_8859_1);
        long bits = 0;
        for (byte b : raw) {
            bits += HpackHuffman.length(b & 0xff);
        }
        int huffmanLength = (int) ((bits + 7) / 8);
        if (huffmanLength >= raw.length) {
            writeInt(out, 0, 7, raw.length);
            out.write(raw, 0, raw.length);
            return;
        }
        writeInt(out, 0x80, 7, huffmanLength);
        long acc = 0;
        int n = 0;
        for (byte b : raw) {
            int symbol = b & 0xff;
            acc = acc << HpackHuffman.length(symbol) | HpackHuffman.code(symbol);
            n += HpackHuffman.length(symbol);
            while (n >= 8) {
                out.write((int) (acc >>> (n - 8)));
                n -= 8;
            }
        }
        if (n > 0) {
            out.write((int) (acc << (8 - n) | (1 << (8 - n)) - 1)); // padded with the EOS code's ones
        }
    }

    /** An integer with an N-bit prefix (RFC 7541 section 5.1) after the bits {@code first}. */
    private static void writeInt(ByteArrayOutputStream out, int first, int prefixBits, long value) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            out.write(first | (int) value);
            return;
        }
        out.write(first | max);
        long rest = value - max;
        while (rest >= 0x80) {
            out.write((int) (rest & 0x7f) | 0x80);
            rest >>>= 7;
        }
        out.write((int) rest);
    }

    private static void writeInt(ByteBuf out, int first, int prefixBits, long value) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            out.writeByte(first | (int) value);
            return;
        }
        out.writeByte(first | max);
        long rest = value - max;
        while (rest >= 0x80) {
            out.writeByte((int) (rest & 0x7f) | 0x80);
            rest >>>= 7;
        }
        out.writeByte((int) rest);
    }
}
