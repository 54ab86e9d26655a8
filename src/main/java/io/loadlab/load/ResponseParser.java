package io.loadlab.load;

import io.netty.buffer.ByteBuf;

/**
 * A lean HTTP/1.1 response parser that counts bodies instead of keeping them.
 *
 * <p>It understands the status line, {@code Content-Length}, chunked transfer coding (with
 * extensions and trailers), {@code Connection: close}, HTTP/1.0 answers, interim 1xx answers,
 * answers without a body (to {@code HEAD}, and 204 and 304), and bodies delimited by the end of
 * the connection. It allocates nothing per response. Limits guard against hostile servers: a
 * line may be at most {@value #MAX_LINE} bytes and a header section at most
 * {@value #MAX_HEADER_BYTES} bytes.
 *
 * <p>One parser per connection; not thread-safe.
 */
public final class ResponseParser {

    /** Receives each complete response. */
    public interface Listener {
        /**
         * @param status    the status code, 100 to 999
         * @param bodyBytes bytes of body (after removing chunk framing)
         * @param close     whether the server will close the connection after this response
         * @return {@code true} to go on parsing the bytes that follow, {@code false} to stop
         */
        boolean onResponse(int status, long bodyBytes, boolean close);
    }

    /** Longest status, header or chunk-size line accepted, in bytes. */
    public static final int MAX_LINE = 16 * 1024;
    /** Largest header section accepted, in bytes. */
    public static final int MAX_HEADER_BYTES = 64 * 1024;

    private static final int STATUS = 0;
    private static final int HEADER = 1;
    private static final int BODY = 2;
    private static final int BODY_TO_CLOSE = 3;
    private static final int CHUNK_SIZE = 4;
    private static final int CHUNK_DATA_END = 5;
    private static final int TRAILER = 6;

    private static final byte[] CONTENT_LENGTH = HeaderBytes.ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = HeaderBytes.ascii("transfer-encoding");
    private static final byte[] CONNECTION = HeaderBytes.ascii("connection");
    private static final byte[] CHUNKED = HeaderBytes.ascii("chunked");
    private static final byte[] CLOSE = HeaderBytes.ascii("close");
    private static final byte[] KEEP_ALIVE = HeaderBytes.ascii("keep-alive");

    private final boolean headRequests;
    private final byte[] line = new byte[MAX_LINE];
    private int lineLen;
    private boolean lineTooLong;

    private int state = STATUS;
    private int status;
    private boolean http10;
    private boolean keepAlive;
    private boolean close;
    private boolean chunked;
    private long contentLength;
    private int headerBytes;
    private long remaining;
    private long bodyBytes;
    private boolean stopped;

    /** @param headRequests whether the requests on this connection are {@code HEAD} (no bodies) */
    public ResponseParser(boolean headRequests) {
        this.headRequests = headRequests;
        resetMessage();
    }

    /**
     * Consumes the readable bytes of {@code in}, calling the listener for each complete response.
     * Stops early when the listener returns {@code false}; the rest is left unread.
     *
     * @return {@code null} when the bytes were valid so far, otherwise what was wrong (after a
     *         protocol error the parser must not be fed again)
     */
    public String feed(ByteBuf in, Listener listener) {
        stopped = false;
        while (in.isReadable() && !stopped) {
            switch (state) {
                case BODY -> {
                    int n = (int) Math.min(remaining, in.readableBytes());
                    in.skipBytes(n);
                    remaining -= n;
                    bodyBytes += n;
                    if (remaining == 0) {
                        if (chunked) {
                            state = CHUNK_DATA_END;
                        } else {
                            complete(listener);
                        }
                    }
                }
                case BODY_TO_CLOSE -> {
                    bodyBytes += in.readableBytes();
                    in.skipBytes(in.readableBytes());
                }
                default -> {
                    if (!readLine(in)) {
                        if (lineTooLong) {
                            return "a line of the response is longer than " + MAX_LINE + " bytes";
                        }
                        if (state == HEADER && headerBytes + lineLen > MAX_HEADER_BYTES) {
                            return "response headers exceed " + MAX_HEADER_BYTES + " bytes";
                        }
                        return null;
                    }
                    String error = onLine(listener);
                    if (error != null) {
                        return error;
                    }
                }
            }
        }
        return null;
    }

    /**
     * Tells the parser that the connection closed.
     *
     * @return {@code true} when this completed a response whose body ran to the close (the
     *         listener was called), {@code false} otherwise
     */
    public boolean onClose(Listener listener) {
        if (state == BODY_TO_CLOSE) {
            complete(listener);
            return true;
        }
        return false;
    }

    /** Forgets everything read so far: a new connection starts. */
    public void reset() {
        lineLen = 0;
        lineTooLong = false;
        stopped = false;
        resetMessage();
    }

    /** Whether the parser is between responses (nothing of the next one read yet). */
    public boolean isIdle() {
        return state == STATUS && lineLen == 0;
    }

    /** Reads up to the next LF into {@link #line}; {@code false} when the line is not complete. */
    private boolean readLine(ByteBuf in) {
        int start = in.readerIndex();
        int lf = in.indexOf(start, in.writerIndex(), (byte) '\n');
        int n = (lf < 0 ? in.writerIndex() : lf) - start;
        if (lineLen + n > MAX_LINE) {
            lineTooLong = true;
            return false;
        }
        in.getBytes(start, line, lineLen, n);
        lineLen += n;
        if (lf < 0) {
            in.skipBytes(n);
            return false;
        }
        in.skipBytes(n + 1);
        if (lineLen > 0 && line[lineLen - 1] == '\r') {
            lineLen--;
        }
        return true;
    }

    private String onLine(Listener listener) {
        int len = lineLen;
        lineLen = 0;
        return switch (state) {
            case STATUS -> statusLine(len);
            case HEADER -> headerLine(len, listener);
            case CHUNK_SIZE -> chunkSize(len, listener);
            case CHUNK_DATA_END -> {
                if (len != 0) {
                    yield "chunk data is not followed by CRLF";
                }
                state = CHUNK_SIZE;
                yield null;
            }
            case TRAILER -> {
                headerBytes += len + 2;
                if (headerBytes > MAX_HEADER_BYTES) {
                    yield "response trailers exceed " + MAX_HEADER_BYTES + " bytes";
                }
                if (len == 0) {
                    complete(listener);
                }
                yield null;
            }
            default -> throw new IllegalStateException("no line expected in state " + state);
        };
    }

    private String statusLine(int len) {
        if (len == 0) {
            return null; // RFC 9112 section 2.2: ignore an empty line before the status line.
        }
        // "HTTP/1.1 200 OK": the reason phrase is optional, the space before it is not required.
        if (len < 12 || line[0] != 'H' || line[1] != 'T' || line[2] != 'T' || line[3] != 'P'
                || line[4] != '/' || line[5] != '1' || line[6] != '.' || !HeaderBytes.isDigit(line[7])
                || line[8] != ' ' || !HeaderBytes.isDigit(line[9]) || !HeaderBytes.isDigit(line[10]) || !HeaderBytes.isDigit(line[11])
                || (len > 12 && line[12] != ' ')) {
            return "malformed status line '" + printable(len) + "'";
        }
        status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
        if (status < 100) {
            return "status code " + status + " is out of range";
        }
        http10 = line[7] == '0';
        state = HEADER;
        headerBytes = 0;
        return null;
    }

    private String headerLine(int len, Listener listener) {
        headerBytes += len + 2;
        if (headerBytes > MAX_HEADER_BYTES) {
            return "response headers exceed " + MAX_HEADER_BYTES + " bytes";
        }
        if (len == 0) {
            return endOfHeaders(listener);
        }
        int colon = HeaderBytes.indexOf(line, 0, len, (byte) ':');
        if (colon <= 0) {
            return "malformed header line '" + printable(len) + "'";
        }
        int vs = colon + 1;
        while (vs < len && (line[vs] == ' ' || line[vs] == '\t')) {
            vs++;
        }
        int ve = len;
        while (ve > vs && (line[ve - 1] == ' ' || line[ve - 1] == '\t')) {
            ve--;
        }
        if (HeaderBytes.nameIs(line, colon, CONTENT_LENGTH)) {
            long v = HeaderBytes.parseDecimal(line, vs, ve);
            if (v < 0 || (contentLength >= 0 && v != contentLength)) {
                return "invalid Content-Length '" + printable(len) + "'";
            }
            contentLength = v;
        } else if (HeaderBytes.nameIs(line, colon, TRANSFER_ENCODING)) {
            // The body is chunked when chunked is the last coding (RFC 9112 section 6.3); with
            // repeated headers that is the last token of the last one.
            chunked = HeaderBytes.lastTokenIs(line, vs, ve, CHUNKED);
        } else if (HeaderBytes.nameIs(line, colon, CONNECTION)) {
            close |= HeaderBytes.hasToken(line, vs, ve, CLOSE);
            keepAlive |= HeaderBytes.hasToken(line, vs, ve, KEEP_ALIVE);
        }
        return null;
    }

    private String endOfHeaders(Listener listener) {
        if (status < 200 && status != 101) {
            // An interim answer (100 Continue, 103 Early Hints): the real one follows.
            resetMessage();
            return null;
        }
        if (http10 && !keepAlive) {
            close = true;
        }
        if (headRequests || status == 204 || status == 304 || status == 101) {
            complete(listener);
        } else if (chunked) {
            state = CHUNK_SIZE;
        } else if (contentLength > 0) {
            remaining = contentLength;
            state = BODY;
        } else if (contentLength == 0) {
            complete(listener);
        } else {
            close = true;
            state = BODY_TO_CLOSE;
        }
        return null;
    }

    private String chunkSize(int len, Listener listener) {
        long size = 0;
        int i = 0;
        for (; i < len; i++) {
            int d = HeaderBytes.hexValue(line[i]);
            if (d < 0) {
                break;
            }
            if (i >= 15) {
                return "chunk size '" + printable(len) + "' is too large";
            }
            size = size * 16 + d;
        }
        if (i == 0 || (i < len && line[i] != ';' && line[i] != ' ' && line[i] != '\t')) {
            return "malformed chunk size line '" + printable(len) + "'";
        }
        if (size == 0) {
            state = TRAILER;
            headerBytes = 0;
        } else {
            remaining = size;
            state = BODY;
        }
        return null;
    }

    private void complete(Listener listener) {
        int s = status;
        long body = bodyBytes;
        boolean c = close;
        resetMessage();
        if (!listener.onResponse(s, body, c)) {
            stopped = true;
        }
    }

    private void resetMessage() {
        state = STATUS;
        status = 0;
        http10 = false;
        keepAlive = false;
        close = false;
        chunked = false;
        contentLength = -1;
        remaining = 0;
        bodyBytes = 0;
        headerBytes = 0;
    }

    /** The start of the current line for an error message, control bytes shown as '?'. */
    private String printable(int len) {
        int n = Math.min(len, 80);
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            int b = line[i] & 0xff;
            c[i] = b >= 0x20 && b < 0x7f ? (char) b : '?';
        }
        return len > n ? new String(c) + "..." : new String(c);
    }
}
