package io.loadlab.load;

import java.util.Locale;

/**
 * The HTTP version a run speaks on its connections. TLS is the URL's ({@code https://}); HTTP/2
 * over TLS is negotiated with ALPN, HTTP/2 over plain TCP ({@code h2c}) starts with the preface at
 * once (prior knowledge, RFC 9113 section 3.3), as h2load does.
 */
public enum Protocol {
    /** HTTP/1.1, over TCP or TLS (ALPN offers {@code http/1.1} only). */
    HTTP_1_1("http/1.1"),
    /** HTTP/2 over TLS, negotiated with ALPN ({@code --h2}). */
    H2("h2"),
    /** HTTP/2 over TCP with prior knowledge ({@code --h2c}). */
    H2C("h2c");

    private final String label;

    Protocol(String label) {
        this.label = label;
    }

    /** The name in the JSON and in {@code runs.csv}: {@code http/1.1}, {@code h2} or {@code h2c}. */
    public String label() {
        return label;
    }

    /** Whether requests go out as HTTP/2 streams. */
    public boolean isHttp2() {
        return this != HTTP_1_1;
    }

    @Override
    public String toString() {
        return label.toUpperCase(Locale.ROOT);
    }
}
