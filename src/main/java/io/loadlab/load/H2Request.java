package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A {@link RequestTemplate} as HTTP/2 HEADERS frames and a body, for one event loop (not
 * thread-safe). The header block is encoded once ({@link HpackRequestBlock}): a connection's first
 * request puts its fields into the server's dynamic table, every later one names them by index. Every
 * request's body is a duplicate of one read-only buffer. With substitutions the path of each request
 * is the one the HTTP/1.1 encoder would write next ({@link RequestEncoder#next}), so that one seed
 * sends the same keys in the same order over both protocols.
 */
final class H2Request {

    /** Headers HTTP/2 forbids (RFC 9113 section 8.2.2) or carries as pseudo-headers. */
    private static final Set<String> LEFT_OUT = Set.of("host", "connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade", "te");
    /** The largest frame every server takes (RFC 9113 section 4.2): a longer block goes on in CONTINUATION frames. */
    static final int MAX_FRAME = 16_384;
    private static final int FRAME_HEADER = 9;
    private static final byte HEADERS = 0x1, CONTINUATION = 0x9;
    private static final byte END_STREAM = 0x1, END_HEADERS = 0x4;

    private final HpackRequestBlock block;
    private final ByteBuf body;
    private final ByteBuf bodyOwner;
    private final RequestEncoder substitutions;

    /** @param substitutions the loop's HTTP/1.1 encoder, which draws the substituted paths */
    H2Request(RequestTemplate t, RequestEncoder substitutions) {
        Target target = t.target();
        List<HpackRequestBlock.Field> fields = new ArrayList<>();
        fields.add(new HpackRequestBlock.Field(":method", t.method()));
        fields.add(new HpackRequestBlock.Field(":scheme", target.tls() ? "https" : "http"));
        fields.add(new HpackRequestBlock.Field(":authority", authority(t)));
        if (!t.hasSubstitutions()) {
            fields.add(new HpackRequestBlock.Field(":path", target.path()));
        }
        boolean sendsBody = t.bodySize() > 0 || t.method().equals("PUT") || t.method().equals("POST");
        for (String h : t.headers()) {
            int colon = h.indexOf(':');
            String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            if (!LEFT_OUT.contains(name)) {
                fields.add(new HpackRequestBlock.Field(name, h.substring(colon + 1).trim()));
            }
        }
        if (sendsBody) {
            fields.add(new HpackRequestBlock.Field("content-length", Integer.toString(t.bodySize())));
        }
        this.block = new HpackRequestBlock(fields, t.hasSubstitutions());
        if (t.bodySize() > 0) {
            byte[] bytes = t.bodyBytes();
            this.bodyOwner = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
            this.body = Unpooled.unreleasableBuffer(bodyOwner.asReadOnly());
        } else {
            this.bodyOwner = null;
            this.body = null;
        }
        this.substitutions = t.hasSubstitutions() ? substitutions : null;
    }

    /** The Host header's value when the template gives one, else host:port. */
    private static String authority(RequestTemplate t) {
        for (String h : t.headers()) {
            if (h.regionMatches(true, 0, "host:", 0, 5)) {
                return h.substring(5).trim();
            }
        }
        return t.target().hostHeader();
    }

    /** The block encoding these requests, whose {@link HpackRequestBlock.Table} each connection keeps. */
    HpackRequestBlock block() {
        return block;
    }

    /**
     * The next request's HEADERS frame for stream {@code streamId}, with its block as the connection's
     * {@code table} state says (and updates), followed by CONTINUATION frames when the block is longer
     * than {@link #MAX_FRAME}.
     */
    ByteBuf headersFrame(ByteBufAllocator alloc, int streamId, HpackRequestBlock.Table table) {
        ByteBuf line = substitutions == null ? null : substitutions.next(alloc, 1);
        try {
            int from = 0, length = 0;
            if (line != null) {
                // The path of the HTTP/1.1 request line: between its first two spaces.
                from = line.indexOf(line.readerIndex(), line.writerIndex(), (byte) ' ') + 1;
                length = line.indexOf(from, line.writerIndex(), (byte) ' ') - from;
            }
            ByteBuf out = alloc.directBuffer(FRAME_HEADER + block.maxLength() + length + 6);
            out.writerIndex(FRAME_HEADER);
            block.write(out, table, line, from, length);
            int blockLength = out.readableBytes() - FRAME_HEADER;
            int flags = body == null ? END_STREAM : 0;
            if (blockLength <= MAX_FRAME) {
                frameHeader(out, 0, blockLength, HEADERS, flags | END_HEADERS, streamId);
                return out;
            }
            return split(alloc, out, blockLength, flags, streamId);
        } finally {
            if (line != null) {
                line.release();
            }
        }
    }

    /** A block longer than one frame: HEADERS with its first {@link #MAX_FRAME} bytes, then CONTINUATIONs. */
    private static ByteBuf split(ByteBufAllocator alloc, ByteBuf whole, int blockLength, int flags, int streamId) {
        int frames = (blockLength + MAX_FRAME - 1) / MAX_FRAME;
        ByteBuf out = alloc.directBuffer(blockLength + frames * FRAME_HEADER);
        try {
            for (int offset = 0; offset < blockLength; offset += MAX_FRAME) {
                int n = Math.min(MAX_FRAME, blockLength - offset);
                boolean last = offset + n == blockLength;
                int at = out.writerIndex();
                out.writerIndex(at + FRAME_HEADER);
                frameHeader(out, at, n, offset == 0 ? HEADERS : CONTINUATION,
                        (offset == 0 ? flags : 0) | (last ? END_HEADERS : 0), streamId);
                out.writeBytes(whole, FRAME_HEADER + offset, n);
            }
            return out;
        } finally {
            whole.release();
        }
    }

    private static void frameHeader(ByteBuf out, int at, int length, byte type, int flags, int streamId) {
        out.setMedium(at, length);
        out.setByte(at + 3, type);
        out.setByte(at + 4, flags);
        out.setInt(at + 5, streamId);
    }

    /** Whether requests carry a body after their headers. */
    boolean hasBody() {
        return body != null;
    }

    /** The body for the next request (the encoder releases it once written). */
    ByteBuf body() {
        return body.duplicate();
    }

    /** Body bytes per request. */
    int bodySize() {
        return body == null ? 0 : body.readableBytes();
    }

    /** Frees the body. Call it once no write can still hold a duplicate of it. */
    void release() {
        if (bodyOwner != null && bodyOwner.refCnt() > 0) {
            bodyOwner.release();
        }
    }
}
