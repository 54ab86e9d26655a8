package io.loadlab.load;

import io.loadlab.bytes.Bytes;

/**
 * What {@link ResponseParser} reads from a response's status line and header fields: the status, and
 * the fields that decide how the body is framed and whether the connection stays open. The parser
 * owns one and resets it per response; {@link RepeatedHeaders} keeps a copy of the last whole
 * section's, so that a repeated section's parse is copied instead of redone. Plain fields, read
 * and written on the parser's thread only.
 */
final class ResponseHead {

    private static final byte[] CONTENT_LENGTH = HeaderBytes.ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = HeaderBytes.ascii("transfer-encoding");
    private static final byte[] CONNECTION = HeaderBytes.ascii("connection");
    private static final byte[] CHUNKED = HeaderBytes.ascii("chunked");
    private static final byte[] CLOSE = HeaderBytes.ascii("close");
    private static final byte[] KEEP_ALIVE = HeaderBytes.ascii("keep-alive");

    /** The status code, 100 to 999; 0 before the status line. */
    int status;
    /** An HTTP/1.0 answer: it closes the connection unless it says {@code keep-alive}. */
    boolean http10;
    /** {@code Connection: keep-alive} was sent. */
    boolean keepAlive;
    /** {@code Connection: close} was sent, or the body runs to the connection's end. */
    boolean close;
    /** Chunked is the last transfer coding. */
    boolean chunked;
    /** The {@code Content-Length}, bytes; -1 when none was sent. */
    long contentLength;
    /** Bytes of the header (or trailer) section so far, CRLFs included. */
    int headerBytes;

    ResponseHead() {
        reset();
    }

    /** Forgets the last response's head: the next one starts. */
    void reset() {
        status = 0;
        http10 = false;
        keepAlive = false;
        close = false;
        chunked = false;
        contentLength = -1;
        headerBytes = 0;
    }

    /** Takes the values of {@code other}, a head parsed from the same bytes. */
    void copyFrom(ResponseHead other) {
        status = other.status;
        http10 = other.http10;
        keepAlive = other.keepAlive;
        close = other.close;
        chunked = other.chunked;
        contentLength = other.contentLength;
        headerBytes = other.headerBytes;
    }

    /**
     * Adds a section's line of {@code len} bytes (its CRLF counted too) to {@link #headerBytes}.
     *
     * @return whether the section is now longer than {@link ResponseParser#MAX_HEADER_BYTES}
     */
    boolean countLine(int len) {
        headerBytes += len + 2;
        return headerBytes > ResponseParser.MAX_HEADER_BYTES;
    }

    /** Parses the status line {@code b[off, off + len)}; what was wrong with it, or null. */
    String statusLine(byte[] b, int off, int len) {
        status = HeaderBytes.statusCode(b, off, len);
        if (status < 0) {
            return "malformed status line '" + HeaderBytes.printable(b, off, len) + "'";
        }
        if (status < 100) {
            return "status code " + status + " is out of range";
        }
        http10 = b[off + 7] == '0';
        headerBytes = 0;
        return null;
    }

    /** Parses the header field line {@code b[off, off + len)}, not empty; what was wrong with it, or null. */
    String field(byte[] b, int off, int len) {
        int end = off + len;
        int colon = Bytes.indexOf(b, off, end, (byte) ':');
        if (colon <= off) {
            return "malformed header line '" + HeaderBytes.printable(b, off, len) + "'";
        }
        int vs = colon + 1;
        while (vs < end && (b[vs] == ' ' || b[vs] == '\t')) {
            vs++;
        }
        int ve = end;
        while (ve > vs && (b[ve - 1] == ' ' || b[ve - 1] == '\t')) {
            ve--;
        }
        int nameLen = colon - off;
        if (HeaderBytes.nameIs(b, off, nameLen, CONTENT_LENGTH)) {
            long v = HeaderBytes.parseDecimal(b, vs, ve);
            if (v < 0 || (contentLength >= 0 && v != contentLength)) {
                return "invalid Content-Length '" + HeaderBytes.printable(b, off, len) + "'";
            }
            contentLength = v;
        } else if (HeaderBytes.nameIs(b, off, nameLen, TRANSFER_ENCODING)) {
            // The body is chunked when chunked is the last coding (RFC 9112 section 6.3); with
            // repeated headers that is the last token of the last one.
            chunked = HeaderBytes.lastTokenIs(b, vs, ve, CHUNKED);
        } else if (HeaderBytes.nameIs(b, off, nameLen, CONNECTION)) {
            close |= HeaderBytes.hasToken(b, vs, ve, CLOSE);
            keepAlive |= HeaderBytes.hasToken(b, vs, ve, KEEP_ALIVE);
        }
        return null;
    }
}
