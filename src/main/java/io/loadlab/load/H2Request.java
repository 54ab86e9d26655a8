package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * A {@link RequestTemplate} as HTTP/2 request headers and body, for one event loop (not thread-safe).
 * Without substitutions every request sends the same headers object (HPACK encodes it into each
 * HEADERS frame; after the first request its fields are indices into the dynamic table) and a
 * duplicate of one read-only body. With substitutions the path of each request is the one the
 * HTTP/1.1 encoder would write next ({@link RequestEncoder#next}), so that one seed sends the same
 * keys in the same order over both protocols; the path is then set on the headers before each write,
 * which the encoder turns into bytes at once (a new stream has no frames queued before it).
 */
final class H2Request {

    /** Headers HTTP/2 forbids (RFC 9113 section 8.2.2) or carries as pseudo-headers. */
    private static final Set<String> LEFT_OUT = Set.of("host", "connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade", "te");

    private final Http2Headers headers;
    private final ByteBuf body;
    private final ByteBuf bodyOwner;
    private final RequestEncoder substitutions;

    /** @param substitutions the loop's HTTP/1.1 encoder, which draws the substituted paths */
    H2Request(RequestTemplate t, RequestEncoder substitutions) {
        Target target = t.target();
        this.headers = new DefaultHttp2Headers()
                .method(AsciiString.of(t.method()))
                .scheme(target.tls() ? "https" : "http")
                .authority(AsciiString.of(authority(t)))
                .path(AsciiString.of(target.path()));
        for (String h : t.headers()) {
            int colon = h.indexOf(':');
            String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            if (!LEFT_OUT.contains(name)) {
                headers.add(AsciiString.of(name), AsciiString.of(h.substring(colon + 1).trim()));
            }
        }
        boolean sendsBody = t.bodySize() > 0 || t.method().equals("PUT") || t.method().equals("POST");
        if (sendsBody) {
            headers.set("content-length", AsciiString.of(Integer.toString(t.bodySize())));
        }
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

    /** The next request's headers; valid until the next call. */
    Http2Headers headers(ByteBufAllocator alloc) {
        if (substitutions != null) {
            headers.path(nextPath(alloc));
        }
        return headers;
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

    /** The path of the HTTP/1.1 request line the encoder writes next: between the first two spaces. */
    private AsciiString nextPath(ByteBufAllocator alloc) {
        ByteBuf line = substitutions.next(alloc, 1);
        try {
            int start = line.indexOf(line.readerIndex(), line.writerIndex(), (byte) ' ') + 1;
            int end = line.indexOf(start, line.writerIndex(), (byte) ' ');
            return new AsciiString(line.toString(start, end - start, StandardCharsets.US_ASCII));
        } finally {
            line.release();
        }
    }

    /** Frees the body. Call it once no write can still hold a duplicate of it. */
    void release() {
        if (bodyOwner != null && bodyOwner.refCnt() > 0) {
            bodyOwner.release();
        }
    }
}
