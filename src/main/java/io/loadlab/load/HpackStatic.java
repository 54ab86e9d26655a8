package io.loadlab.load;

/**
 * HPACK's static table (RFC 7541, Appendix A), as the engine's decoder needs it: each entry's size
 * and name length, and which entries are {@code :status} (with their values) or {@code content-length}.
 * Indices are 1-based, as on the wire.
 */
final class HpackStatic {

    static final int COUNT = 61;
    static final int CONTENT_LENGTH = 28;
    private static final int FIRST_STATUS = 8, LAST_STATUS = 14;
    private static final int[] STATUS_VALUES = {200, 204, 206, 304, 400, 404, 500};

    private static final String[] NAMES = {
        ":authority", ":method", ":method", ":path", ":path", ":scheme", ":scheme", ":status", ":status",
        ":status", ":status", ":status", ":status", ":status", "accept-charset", "accept-encoding",
        "accept-language", "accept-ranges", "accept", "access-control-allow-origin", "age", "allow",
        "authorization", "cache-control", "content-disposition", "content-encoding", "content-language",
        "content-length", "content-location", "content-range", "content-type", "cookie", "date", "etag",
        "expect", "expires", "from", "host", "if-match", "if-modified-since", "if-none-match", "if-range",
        "if-unmodified-since", "last-modified", "link", "location", "max-forwards", "proxy-authenticate",
        "proxy-authorization", "range", "referer", "refresh", "retry-after", "server", "set-cookie",
        "strict-transport-security", "transfer-encoding", "user-agent", "vary", "via", "www-authenticate",
    };
    /** The values of entries 1-16; every later one has an empty value. */
    private static final String[] VALUES = {
        "", "GET", "POST", "/", "/index.html", "http", "https", "200", "204", "206", "304", "400", "404", "500",
        "", "gzip, deflate",
    };

    private HpackStatic() {
    }

    static int nameLength(int index) {
        return NAMES[index - 1].length();
    }

    /** The entry's size in bytes: name, value and the 32 bytes of RFC 7541 section 4.1. */
    static int size(int index) {
        return nameLength(index) + (index <= VALUES.length ? VALUES[index - 1].length() : 0) + 32;
    }

    static boolean isStatus(int index) {
        return index >= FIRST_STATUS && index <= LAST_STATUS;
    }

    static int statusValue(int index) {
        return STATUS_VALUES[index - FIRST_STATUS];
    }
}
