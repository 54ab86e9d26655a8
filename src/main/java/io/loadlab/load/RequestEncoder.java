package io.loadlab.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;

/**
 * Turns a {@link RequestTemplate} into bytes on the wire. A template without substitutions is
 * encoded once and copied; with substitutions, each request is encoded as it is written. Either
 * way the requests of one write go into one buffer from the channel's pooled allocator, which the
 * write releases: no object is made per request (a {@code duplicate()} of a shared buffer would
 * be one). One encoder per event loop: it is not thread-safe.
 */
final class RequestEncoder {

    /** A piece of the request line's path. */
    private sealed interface Part permits Literal, RandomInt, Sequence {}

    private record Literal(byte[] bytes) implements Part {}

    private record RandomInt(long lo, long hi) implements Part {}

    private record Sequence() implements Part {}

    private final byte[] head;   // "GET "
    private final Part[] parts;
    private final byte[] tail;   // " HTTP/1.1\r\nHost: ...\r\n\r\n" + body
    private final byte[] fixed; // the whole request when there is nothing to substitute, else null
    private final long seqStride;
    private long seq;
    /** Draws the {@code {rand}} keys: seeded, so that a run can be repeated key for key. */
    private final SplittableRandom random;

    /**
     * @param seqStart  first {@code {seq}} value (the thread index)
     * @param seqStride increment of {@code {seq}} (the thread count), so values never collide
     * @param seed      seed of the {@code {rand}} keys; each event loop mixes in its index
     */
    RequestEncoder(RequestTemplate t, int seqStart, int seqStride, long seed) {
        this.head = (t.method() + " ").getBytes(StandardCharsets.US_ASCII);
        this.parts = parse(t.target().path()).toArray(new Part[0]);
        StringBuilder sb = new StringBuilder(" HTTP/1.1\r\n");
        boolean hasHost = t.headers().stream().anyMatch(h -> h.regionMatches(true, 0, "host:", 0, 5));
        if (!hasHost) {
            sb.append("Host: ").append(t.target().hostHeader()).append("\r\n");
        }
        for (String h : t.headers()) {
            sb.append(h).append("\r\n");
        }
        boolean sendsBody = t.bodySize() > 0 || t.method().equals("PUT") || t.method().equals("POST");
        if (sendsBody) {
            sb.append("Content-Length: ").append(t.bodySize()).append("\r\n");
        }
        sb.append("\r\n");
        byte[] headers = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] body = t.bodyBytes();
        this.tail = Arrays.copyOf(headers, headers.length + body.length);
        System.arraycopy(body, 0, tail, headers.length, body.length);
        this.seq = seqStart;
        this.seqStride = seqStride;
        this.random = new SplittableRandom(seed * 1_000_003L + seqStart);
        this.fixed = parts.length == 1 && parts[0] instanceof Literal lit ? concat(head, lit.bytes(), tail) : null;
    }

    private static List<Part> parse(String path) {
        List<Part> out = new ArrayList<>();
        Matcher m = RequestTemplate.SUBSTITUTION.matcher(path);
        int last = 0;
        while (m.find()) {
            if (m.start() > last) {
                out.add(new Literal(path.substring(last, m.start()).getBytes(StandardCharsets.US_ASCII)));
            }
            out.add(m.group(2) == null ? new Sequence()
                    : new RandomInt(Long.parseLong(m.group(2)), Long.parseLong(m.group(3))));
            last = m.end();
        }
        if (last < path.length() || out.isEmpty()) {
            out.add(new Literal(path.substring(last).getBytes(StandardCharsets.US_ASCII)));
        }
        return out;
    }

    private static byte[] concat(byte[] a, byte[] b, byte[] c) {
        byte[] r = Arrays.copyOf(a, a.length + b.length + c.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        System.arraycopy(c, 0, r, a.length + b.length, c.length);
        return r;
    }

    /**
     * The next {@code count} requests, one after the other in one direct buffer; the caller
     * writes (and so releases) it.
     */
    ByteBuf next(ByteBufAllocator alloc, int count) {
        if (fixed != null) {
            ByteBuf buf = alloc.directBuffer(count * fixed.length);
            for (int i = 0; i < count; i++) {
                buf.writeBytes(fixed);
            }
            return buf;
        }
        ByteBuf buf = alloc.directBuffer(count * (head.length + tail.length + 20));
        for (int i = 0; i < count; i++) {
            writeSubstituted(buf);
        }
        return buf;
    }

    private void writeSubstituted(ByteBuf buf) {
        buf.writeBytes(head);
        for (Part p : parts) {
            if (p instanceof Literal l) {
                buf.writeBytes(l.bytes());
            } else if (p instanceof RandomInt r) {
                writeDecimal(buf, random.nextLong(r.lo(), r.hi() + 1));
            } else {
                writeDecimal(buf, seq);
                seq += seqStride;
            }
        }
        buf.writeBytes(tail);
    }

    private static void writeDecimal(ByteBuf buf, long v) {
        if (v == 0) {
            buf.writeByte('0');
            return;
        }
        int start = buf.writerIndex();
        while (v > 0) {
            buf.writeByte((int) ('0' + v % 10));
            v /= 10;
        }
        // Digits were written least significant first: reverse them in place.
        for (int i = start, j = buf.writerIndex() - 1; i < j; i++, j--) {
            byte t = buf.getByte(i);
            buf.setByte(i, buf.getByte(j));
            buf.setByte(j, t);
        }
    }
}
