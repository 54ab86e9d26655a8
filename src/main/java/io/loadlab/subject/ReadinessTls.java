package io.loadlab.subject;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * TLS for the readiness probe of a TLS variant: it asks whether the subject answers, so it trusts any
 * certificate. The experiment's engine runs and the contract check verify the certificate against the
 * throw-away CA.
 */
final class ReadinessTls {

    /** Accepts every certificate: readiness only. */
    private static final X509TrustManager ANY = new X509TrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    };

    private ReadinessTls() {
    }

    /** A TLS socket over the connected {@code plain} one, its handshake done (closing it closes both). */
    static Socket wrap(Socket plain, String host, int port) throws IOException {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {ANY}, null);
            SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket(plain, host, port, true);
            s.startHandshake();
            return s;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up TLS for the readiness probe: " + e.getMessage(), e);
        }
    }
}
