package io.loadlab.load;

import org.HdrHistogram.Histogram;

/**
 * What one worker's TLS handshakes did, on its loop only. Handshakes are counted over the whole run,
 * warm-up included (most connections are made then, as with connect times); failures only in the
 * window, as every error category.
 */
final class TlsCounters {
    /** Handshake times, µs: from the TCP connection to the handshake's end. */
    final Histogram handshakeUs = Totals.newHistogram();
    long handshakes;
    long resumed;
    /** Failed handshakes since the last reset: the {@code tls} error category. */
    long failed;
    /** The version and suite of the latest handshake ({@code TLSv1.3}, {@code TLS_AES_128_GCM_SHA256}). */
    String version = "";
    String cipher = "";

    void handshake(long micros, boolean wasResumed, String protocolVersion, String cipherSuite) {
        handshakeUs.recordValue(Math.min(Worker.HIGHEST_US, micros));
        handshakes++;
        if (wasResumed) {
            resumed++;
        }
        version = protocolVersion;
        cipher = cipherSuite;
    }

    void failed() {
        failed++;
    }
}
