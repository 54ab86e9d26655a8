package io.loadlab.load;

import io.loadlab.bytes.Bytes;
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
 * <p>Lines are parsed in place in a copy of the buffer's bytes, made with one bulk copy of up to
 * {@value #WINDOW} bytes at a time; only a line split between two reads is put together in a line
 * buffer. Bodies are skipped without copying. Reading the buffer a byte or a line at a time cost a
 * quarter of the engine's CPU with pipelined answers (a profile, README "The response parser").
 *
 * <p>The copy (the window) is only scratch within one {@link #feed} call, so the parsers of one event
 * loop share one; the line buffer grows only when a line is split between reads. With a window and a
 * full-size line buffer of its own, each connection held 21 KB: 210 MB of the engine's heap at 10,000
 * connections ({@code bench/connections-memory.sh}).
 *
 * <p>One parser per connection; not thread-safe, and parsers that share a window must be fed on one
 * thread.
 */
public final class ResponseParser {

    /** Receives each complete response. */
    public interface Listener {
        /**
         * @param status    the status code, 100 to 999
         * @param bodyBytes bytes of body (after removing chunk framing)
         * @param close     whether the server will close the connection after this response
         * @param matched   whether the body held the expected text ({@code true} when none is expected)
         * @return {@code true} to go on parsing the bytes that follow, {@code false} to stop
         */
        boolean onResponse(int status, long bodyBytes, boolean close, boolean matched);
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

    /** Bytes copied out of the buffer at once to parse lines in (bytes). */
    static final int WINDOW = 4096;

    private final boolean headRequests;
    /** A copy of the next bytes of the buffer being fed, parsed in place: scratch, valid only in {@link #feed}. */
    private final byte[] window;
    /** The start of a line that the last bytes fed did not complete. */
    private final SplitLine split = new SplitLine();

    private int state = STATUS;
    /** The response's status and the header fields that frame its body. */
    private final ResponseHead head = new ResponseHead();
    private long remaining;
    private long bodyBytes;
    private boolean stopped;
    /** What was wrong with the bytes, set by the line handlers; null while they are valid. */
    private String error;
    private final RepeatedHeaders repeated = new RepeatedHeaders();
    /** Where in {@link #window} the header section being parsed began, or -1 when not in it. */
    private int sectionStart = -1;

    /** Looks for the expected text in each body; null when none is expected. */
    private final BodyMatcher matcher;
    /** The matcher's state for the body being read. */
    private int matchState;

    /** @param headRequests whether the requests on this connection are {@code HEAD} (no bodies) */
    public ResponseParser(boolean headRequests) {
        this(headRequests, null);
    }

    /**
     * @param headRequests whether the requests on this connection are {@code HEAD} (no bodies)
     * @param matcher      what each body must hold, or null for anything
     */
    ResponseParser(boolean headRequests, BodyMatcher matcher) {
        this(headRequests, matcher, newWindow());
    }

    /**
     * @param window scratch of {@link #WINDOW} bytes, which parsers fed on the same thread may share
     */
    ResponseParser(boolean headRequests, BodyMatcher matcher, byte[] window) {
        if (window.length != WINDOW) {
            throw new IllegalArgumentException("a parser's window is " + WINDOW + " bytes, got " + window.length);
        }
        this.headRequests = headRequests;
        this.matcher = matcher;
        this.window = window;
        resetMessage();
    }

    /** A window for {@link #ResponseParser(boolean, BodyMatcher, byte[])}, to share among one thread's parsers. */
    static byte[] newWindow() {
        return new byte[WINDOW];
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
            if (state == BODY && remaining >= in.readableBytes() || state == BODY_TO_CLOSE) {
                // A body that takes the whole rest of the buffer is skipped without copying it.
                if (matcher != null) {
                    matchState = matcher.feed(matchState, in, in.readerIndex(), in.readableBytes());
                }
                skipBody(in.readableBytes(), listener);
                in.skipBytes(in.readableBytes());
                continue;
            }
            int n = Math.min(in.readableBytes(), WINDOW);
            in.getBytes(in.readerIndex(), window, 0, n);
            int used = parse(n, listener);
            in.skipBytes(used);
            if (error != null) {
                return error;
            }
        }
        return null;
    }

    /**
     * Parses {@code window[0, n)} until it is used up, a response stops the parser, or an error.
     *
     * @return the bytes used
     */
    private int parse(int n, Listener listener) {
        int pos = 0;
        sectionStart = -1;
        while (pos < n && !stopped && error == null) {
            if (state == BODY || state == BODY_TO_CLOSE) {
                int k = state == BODY ? (int) Math.min(remaining, n - pos) : n - pos;
                if (matcher != null) {
                    matchState = matcher.feed(matchState, window, pos, k);
                }
                skipBody(k, listener);
                pos += k;
                continue;
            }
            if (state == STATUS && split.length() == 0 && repeated.repeats(window, pos, n - pos)) {
                pos += repeated.length();
                reuseHeaders(listener);
                continue;
            }
            int lf = Bytes.indexOf(window, pos, n, (byte) '\n');
            int len = (lf < 0 ? n : lf) - pos;
            if (split.length() + len > MAX_LINE) {
                error = "a line of the response is longer than " + MAX_LINE + " bytes";
                return pos;
            }
            if (lf < 0) {
                // The line goes on in the next read: keep its start.
                split.append(window, pos, len);
                if (state == HEADER && head.headerBytes + split.length() > MAX_HEADER_BYTES) {
                    error = "response headers exceed " + MAX_HEADER_BYTES + " bytes";
                }
                return n;
            }
            if (split.length() > 0) {
                split.append(window, pos, len);
                int whole = split.length();
                split.clear();
                sectionStart = -1;
                onLine(split.bytes(), 0, whole, listener);
            } else {
                inPlace(pos, lf, listener);
            }
            pos = lf + 1;
        }
        return pos;
    }

    /** Handles the line {@code window[pos, lf)}, and remembers a header section read whole in this window. */
    private void inPlace(int pos, int lf, Listener listener) {
        int len = lf - pos;
        if (state == STATUS) {
            sectionStart = pos;
        } else if (state == HEADER && sectionStart >= 0 && (len == 0 || len == 1 && window[pos] == '\r')) {
            repeated.remember(window, sectionStart, lf + 1, head);
        }
        onLine(window, pos, len, listener);
    }

    /** The header section just skipped is the remembered one: its parse, then its end as {@link #headerLine} ends it. */
    private void reuseHeaders(Listener listener) {
        head.copyFrom(repeated.head());
        error = endOfHeaders(listener);
    }

    /** Counts {@code n} bytes of body (at most what remains of a sized one) and completes it at its end. */
    private void skipBody(int n, Listener listener) {
        bodyBytes += n;
        if (state != BODY) {
            return;
        }
        remaining -= n;
        if (remaining == 0) {
            if (head.chunked) {
                state = CHUNK_DATA_END;
            } else {
                complete(listener);
            }
        }
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
        split.clear();
        error = null;
        stopped = false;
        resetMessage();
    }

    /** Whether the parser is between responses (nothing of the next one read yet). */
    public boolean isIdle() {
        return state == STATUS && split.length() == 0;
    }

    /** Handles the complete line {@code b[off, off + len)}, its LF left out (a CR before it is dropped here). */
    private void onLine(byte[] b, int off, int len, Listener listener) {
        if (len > 0 && b[off + len - 1] == '\r') {
            len--;
        }
        error = switch (state) {
            case STATUS -> statusLine(b, off, len);
            case HEADER -> headerLine(b, off, len, listener);
            case CHUNK_SIZE -> chunkSize(b, off, len);
            case CHUNK_DATA_END -> {
                if (len != 0) {
                    yield "chunk data is not followed by CRLF";
                }
                state = CHUNK_SIZE;
                yield null;
            }
            case TRAILER -> {
                if (head.countLine(len)) {
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

    private String statusLine(byte[] b, int off, int len) {
        if (len == 0) {
            return null; // RFC 9112 section 2.2: ignore an empty line before the status line.
        }
        String wrong = head.statusLine(b, off, len);
        if (wrong == null) {
            state = HEADER;
        }
        return wrong;
    }

    private String headerLine(byte[] b, int off, int len, Listener listener) {
        if (head.countLine(len)) {
            return "response headers exceed " + MAX_HEADER_BYTES + " bytes";
        }
        return len == 0 ? endOfHeaders(listener) : head.field(b, off, len);
    }

    private String endOfHeaders(Listener listener) {
        int status = head.status;
        if (status < 200 && status != 101) {
            // An interim answer (100 Continue, 103 Early Hints): the real one follows.
            resetMessage();
            return null;
        }
        if (head.http10 && !head.keepAlive) {
            head.close = true;
        }
        if (headRequests || status == 204 || status == 304 || status == 101) {
            complete(listener);
        } else if (head.chunked) {
            state = CHUNK_SIZE;
        } else if (head.contentLength > 0) {
            remaining = head.contentLength;
            state = BODY;
        } else if (head.contentLength == 0) {
            complete(listener);
        } else {
            head.close = true;
            state = BODY_TO_CLOSE;
        }
        return null;
    }

    private String chunkSize(byte[] b, int off, int len) {
        long size = HeaderBytes.chunkSize(b, off, len);
        if (size == HeaderBytes.TOO_LARGE) {
            return "chunk size '" + HeaderBytes.printable(b, off, len) + "' is too large";
        }
        if (size < 0) {
            return "malformed chunk size line '" + HeaderBytes.printable(b, off, len) + "'";
        }
        if (size == 0) {
            state = TRAILER;
            head.headerBytes = 0;
        } else {
            remaining = size;
            state = BODY;
        }
        return null;
    }

    private void complete(Listener listener) {
        int s = head.status;
        long body = bodyBytes;
        boolean c = head.close;
        boolean matched = matcher == null || matcher.found(matchState);
        resetMessage();
        if (!listener.onResponse(s, body, c, matched)) {
            stopped = true;
        }
    }

    private void resetMessage() {
        state = STATUS;
        head.reset();
        remaining = 0;
        bodyBytes = 0;
        matchState = BodyMatcher.start();
    }
}
