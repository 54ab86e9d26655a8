package io.loadlab.load;

import org.HdrHistogram.Histogram;

/**
 * What TLS did in an {@code https://} run. Handshakes are counted over the whole run, warm-up included
 * (most connections are made then); failed ones are the {@code tls} error category of the window.
 *
 * @param provider      {@code openssl} (BoringSSL through netty-tcnative) or {@code jdk}
 * @param library       the library behind it, such as {@code BoringSSL} or {@code SunJSSE (Java 17.0.15)}
 * @param version       the negotiated version of the latest handshake, such as {@code TLSv1.3}; empty if none
 * @param cipher        the negotiated cipher suite of the latest handshake; empty if none
 * @param handshakes    handshakes completed
 * @param resumed       of those, the ones that resumed an earlier connection's session (a lower bound:
 *                      the session's creation time is in ms, so a resumption within the millisecond of
 *                      the session's own handshake counts as full)
 * @param handshakeTime handshake times, µs: from the TCP connection to the handshake's end
 */
public record TlsSummary(String provider, String library, String version, String cipher, long handshakes,
                         long resumed, Histogram handshakeTime) {

    public TlsSummary {
        if (resumed < 0 || resumed > handshakes) {
            throw new IllegalArgumentException("resumed handshakes (" + resumed + ") must be between 0 and "
                    + handshakes);
        }
        handshakeTime = handshakeTime.copy();
    }

    /** A copy of the handshake times, µs. */
    @Override
    public Histogram handshakeTime() {
        return handshakeTime.copy();
    }

    /** Handshakes that did not resume a session. */
    public long full() {
        return handshakes - resumed;
    }

    /** One line, without the histogram. */
    @Override
    public String toString() {
        return "TlsSummary[" + provider + " (" + library + ") " + version + " " + cipher + ": " + handshakes
                + " handshakes, " + resumed + " resumed]";
    }
}
