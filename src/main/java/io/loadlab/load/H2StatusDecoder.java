package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersDecoder;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;

/**
 * The engine's HPACK decoder (RFC 7541) for the answers of one connection: it keeps the dynamic table
 * in step with the server's encoder, but of each header block it keeps only what the engine reads,
 * {@code :status} and {@code content-length} (which Netty's codec checks against the DATA received).
 * Every other field is parsed, sized and dropped, never turned into strings: Netty's full decoder,
 * which makes two strings and a table entry per field, took a third of the load loop's CPU over
 * h2-tls against nginx, whose every answer adds its {@code server}, {@code date} and other fields to
 * the table. The table keeps per entry only its size, whether it is one of the two fields, and the
 * value then.
 *
 * <p>Malformed blocks are the errors Netty's decoder gives: COMPRESSION_ERROR for the connection,
 * PROTOCOL_ERROR for a stream whose decoded list exceeds {@code SETTINGS_MAX_HEADER_LIST_SIZE} (after
 * the whole block is decoded, so the table stays in step). The returned headers object is reused by
 * the next block. One instance per connection, on its loop.
 */
final class H2StatusDecoder implements Http2HeadersDecoder, Http2HeadersDecoder.Configuration {

    private static final int OTHER = 0, STATUS = 1, CONTENT_LENGTH = 2;
    private static final byte[] STATUS_NAME = ":status".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH_NAME = "content-length".getBytes(StandardCharsets.US_ASCII);
    /** Entry overhead of RFC 7541 section 4.1, in bytes. */
    private static final int OVERHEAD = 32;
    private static final AsciiString[] STATUSES = new AsciiString[1000];

    static {
        for (int s = 100; s < STATUSES.length; s++) {
            STATUSES[s] = AsciiString.cached(Integer.toString(s));
        }
    }

    private final H2StatusTable table = new H2StatusTable(Http2CodecUtil.DEFAULT_HEADER_TABLE_SIZE);
    private final DefaultHttp2Headers headers = new DefaultHttp2Headers(false);
    /** Decoded bytes of a name, or of a value the engine keeps: longer ones are neither field. */
    private final byte[] scratch = new byte[24];
    private long maxTableSize = Http2CodecUtil.DEFAULT_HEADER_TABLE_SIZE;
    private boolean sizeUpdateRequired;
    private long maxListSize;
    private long maxListSizeGoAway;

    /** Per static-table name: the Huffman bytes of the last value seen under it, and their decoded length. */
    private final byte[][] lastValues = new byte[HpackStatic.COUNT + 1][];
    private final int[] lastValueLengths = new int[HpackStatic.COUNT + 1];
    /** The last content-length value and its string: answers mostly repeat one. */
    private long lastLength = -1;
    private AsciiString lastLengthText;

    // The block being decoded: its :status (-1 when malformed), whether it had one, its list size.
    private int status;
    private boolean hasStatus;
    private long listSize;

    /** @param maxListSize the {@code SETTINGS_MAX_HEADER_LIST_SIZE} this client sends, in bytes */
    H2StatusDecoder(long maxListSize) {
        this.maxListSize = maxListSize;
        this.maxListSizeGoAway = Http2CodecUtil.calculateMaxHeaderListSizeGoAway(maxListSize);
    }

    @Override
    public Http2Headers decodeHeaders(int streamId, ByteBuf block) throws Http2Exception {
        headers.clear();
        hasStatus = false;
        listSize = 0;
        boolean first = true;
        while (block.isReadable()) {
            int b = block.getUnsignedByte(block.readerIndex());
            if ((b & 0x80) != 0) {
                indexed(readInt(block, 7));
            } else if ((b & 0x40) != 0) {
                literal(block, readInt(block, 6), true);
            } else if ((b & 0x20) != 0) {
                if (!first) {
                    throw compression("a dynamic table size update after a field");
                }
                long size = readInt(block, 5);
                if (size > maxTableSize) {
                    throw compression("a dynamic table size update above the limit this client set");
                }
                table.capacity((int) size);
                sizeUpdateRequired = false;
                continue;
            } else {
                literal(block, readInt(block, 4), false); // without indexing, or never indexed
            }
            if (sizeUpdateRequired) {
                throw compression("no dynamic table size update after this client lowered the limit");
            }
            first = false;
            if (listSize > maxListSizeGoAway) {
                Http2CodecUtil.headerListSizeExceeded(maxListSizeGoAway);
            }
        }
        if (listSize > maxListSize) {
            Http2CodecUtil.headerListSizeExceeded(streamId, maxListSize, true);
        }
        if (hasStatus) {
            // A malformed one stays malformed, for the engine to count as a protocol error.
            headers.status(status >= 0 && status < STATUSES.length ? STATUSES[status] : AsciiString.of("?"));
        }
        return headers;
    }

    /** An indexed field: the static table (1-61) or the dynamic one after it. */
    private void indexed(long index) throws Http2Exception {
        if (index == 0) {
            throw compression("index 0");
        }
        if (index <= HpackStatic.COUNT) {
            int i = (int) index;
            listSize += HpackStatic.size(i);
            if (HpackStatic.isStatus(i)) {
                found(STATUS, HpackStatic.statusValue(i));
            }
            return;
        }
        int entry = table.entry(index - HpackStatic.COUNT);
        if (entry < 0) {
            throw compression("index " + index + " beyond the dynamic table");
        }
        listSize += table.size(entry);
        found(table.kind(entry), table.value(entry));
    }

    /** A literal field, its name by index (when {@code nameIndex > 0}) or as a string. */
    private void literal(ByteBuf block, long nameIndex, boolean indexing) throws Http2Exception {
        int kind, nameLength, staticName = 0;
        if (nameIndex == 0) {
            nameLength = string(block, true, 0);
            kind = nameLength == STATUS_NAME.length && startsWith(STATUS_NAME) ? STATUS
                    : nameLength == CONTENT_LENGTH_NAME.length && startsWith(CONTENT_LENGTH_NAME) ? CONTENT_LENGTH : OTHER;
        } else if (nameIndex <= HpackStatic.COUNT) {
            int i = (int) nameIndex;
            staticName = i;
            nameLength = HpackStatic.nameLength(i);
            kind = HpackStatic.isStatus(i) ? STATUS : i == HpackStatic.CONTENT_LENGTH ? CONTENT_LENGTH : OTHER;
        } else {
            int entry = table.entry(nameIndex - HpackStatic.COUNT);
            if (entry < 0) {
                throw compression("name index " + nameIndex + " beyond the dynamic table");
            }
            nameLength = table.nameLength(entry);
            kind = table.kind(entry);
        }
        int valueLength = string(block, kind != OTHER, kind == OTHER ? staticName : 0);
        long value = kind == OTHER ? 0 : parse(valueLength, kind);
        int size = nameLength + valueLength + OVERHEAD;
        listSize += size;
        if (indexing) {
            table.add(size, nameLength, kind, value);
        }
        found(kind, value);
    }

    private void found(int kind, long value) throws Http2Exception {
        if (kind == STATUS) {
            if (hasStatus) {
                throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "HPACK: two :status fields");
            }
            hasStatus = true;
            status = (int) value;
        } else if (kind == CONTENT_LENGTH) {
            // A malformed value stays one, for the codec to refuse; several are the codec's to check.
            if (value < 0) {
                headers.add(HttpHeaderNames.CONTENT_LENGTH, AsciiString.of("x"));
                return;
            }
            if (value != lastLength) {
                lastLength = value;
                lastLengthText = AsciiString.of(Long.toString(value));
            }
            headers.add(HttpHeaderNames.CONTENT_LENGTH, lastLengthText);
        }
    }

    /** The digits in the scratch buffer as a number, or -1 when they are not one. */
    private long parse(int length, int kind) {
        if (length == 0 || length > (kind == STATUS ? 3 : 18)) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < length; i++) {
            byte c = scratch[i];
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return kind == STATUS && v < 100 ? -1 : v;
    }

    private boolean startsWith(byte[] name) {
        for (int i = 0; i < name.length; i++) {
            if (scratch[i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A string literal: returns its decoded length and moves past it; its first bytes go to the
     * scratch buffer when {@code keep} (Huffman strings are otherwise only counted). A dropped value
     * under a static-table name ({@code cacheName > 0}) is counted once per distinct coded bytes: a
     * server sends the same bytes for most of them in every answer ({@code server},
     * {@code content-type}; a {@code date} once a second), so the length of the last value seen under
     * each name is kept with its coded bytes and decoded again only when they differ.
     */
    private int string(ByteBuf block, boolean keep, int cacheName) throws Http2Exception {
        if (!block.isReadable()) {
            // A field cut before its string: Netty's codec turns only Http2Exception into a GOAWAY.
            throw compression("a string cut off");
        }
        boolean huffman = (block.getUnsignedByte(block.readerIndex()) & 0x80) != 0;
        long length = readInt(block, 7);
        if (length > block.readableBytes()) {
            throw compression("a string longer than its block");
        }
        int n = (int) length, at = block.readerIndex();
        block.skipBytes(n);
        if (!huffman) {
            if (keep) {
                block.getBytes(at, scratch, 0, Math.min(n, scratch.length));
            }
            return n;
        }
        if (keep || cacheName == 0) {
            return HpackHuffman.decode(block, at, n, keep ? scratch : null);
        }
        byte[] last = lastValues[cacheName];
        if (last != null && last.length == n && sameBytes(block, at, last)) {
            return lastValueLengths[cacheName];
        }
        int decoded = HpackHuffman.decode(block, at, n, null);
        if (last == null || last.length != n) {
            last = new byte[n];
            lastValues[cacheName] = last;
        }
        block.getBytes(at, last);
        lastValueLengths[cacheName] = decoded;
        return decoded;
    }

    private static boolean sameBytes(ByteBuf block, int at, byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (block.getByte(at + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** An integer with an N-bit prefix (RFC 7541 section 5.1), at most 2^32 - 1. */
    private static long readInt(ByteBuf block, int prefixBits) throws Http2Exception {
        int mask = (1 << prefixBits) - 1;
        long value = block.readUnsignedByte() & mask;
        if (value < mask) {
            return value;
        }
        for (int shift = 0; shift <= 28; shift += 7) {
            if (!block.isReadable()) {
                throw compression("an integer cut off");
            }
            int b = block.readUnsignedByte();
            value += (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                if (value > 0xffffffffL) {
                    break;
                }
                return value;
            }
        }
        throw compression("an integer above 2^32 - 1");
    }

    private static Http2Exception compression(String what) {
        return Http2Exception.connectionError(Http2Error.COMPRESSION_ERROR, "HPACK: %s", what);
    }

    @Override
    public Configuration configuration() {
        return this;
    }

    /** The dynamic table's size now, in bytes (RFC 7541 section 4.1), for tests. */
    long tableSize() {
        return table.size();
    }

    @Override
    public void maxHeaderTableSize(long max) throws Http2Exception {
        if (max < 0 || max > Integer.MAX_VALUE) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "Header Table Size %d out of range", max);
        }
        maxTableSize = max;
        if (max < table.capacity()) {
            // The server must acknowledge the lower limit with a size update first thing in its next block.
            sizeUpdateRequired = true;
            table.capacity((int) max);
        }
    }

    @Override
    public long maxHeaderTableSize() {
        return maxTableSize;
    }

    @Override
    public void maxHeaderListSize(long max, long goAwayMax) throws Http2Exception {
        if (goAwayMax < max || max < 0) {
            throw Http2Exception.connectionError(Http2Error.INTERNAL_ERROR, "Header List Size GO_AWAY %d must be >= %d",
                    goAwayMax, max);
        }
        maxListSize = max;
        maxListSizeGoAway = goAwayMax;
    }

    @Override
    public long maxHeaderListSize() {
        return maxListSize;
    }

    @Override
    public long maxHeaderListSizeGoAway() {
        return maxListSizeGoAway;
    }
}
