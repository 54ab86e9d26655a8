package io.loadlab.load;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The server-certificate check of an {@code https://} run: the JDK's PKIX trust manager (path,
 * validity, and the host name, since the engine asks for the {@code HTTPS} identification), whose
 * refusals are rewritten as one line that says what is wrong and what to do: an expired certificate,
 * one for another host, one signed by nobody the run trusts. The run's preflight shows that line and
 * ends with exit code 1. Thread-safe (the JDK's manager is).
 */
final class CertificateCheck extends X509ExtendedTrustManager {

    private final X509ExtendedTrustManager delegate;
    /** Whom the run trusts, for the messages: "the system trust store" or "--cacert FILE". */
    private final String trusted;

    private CertificateCheck(X509ExtendedTrustManager delegate, String trusted) {
        this.delegate = delegate;
        this.trusted = trusted;
    }

    /**
     * The check against {@code caCert}'s certificates, or the JDK's default store when empty.
     *
     * @throws LoadException (usage) when the file holds no certificate
     */
    static CertificateCheck of(Optional<Path> caCert) {
        try {
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            f.init(caCert.isPresent() ? keyStore(caCert.get()) : null);
            for (TrustManager m : f.getTrustManagers()) {
                if (m instanceof X509ExtendedTrustManager x) {
                    return new CertificateCheck(x, caCert.map(p -> "--cacert " + p).orElse("the system trust store"));
                }
            }
            throw new IllegalStateException("the JDK's PKIX trust manager factory gave no X509ExtendedTrustManager");
        } catch (GeneralSecurityException e) {
            throw LoadException.usage("cannot set up certificate checks: " + e.getMessage());
        }
    }

    private static KeyStore keyStore(Path pem) throws GeneralSecurityException {
        Collection<? extends Certificate> certs;
        try (InputStream in = Files.newInputStream(pem)) {
            certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (IOException | CertificateException e) {
            throw LoadException.usage("--cacert " + pem + ": not a PEM file of certificates (" + e.getMessage() + ")");
        }
        if (certs.isEmpty()) {
            throw LoadException.usage("--cacert " + pem + " holds no certificate: give the PEM file of the CA"
                    + " that signed the server's certificate");
        }
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        try {
            ks.load(null, null);
        } catch (IOException e) {
            throw new GeneralSecurityException(e);
        }
        int i = 0;
        for (Certificate c : certs) {
            ks.setCertificateEntry("ca" + i++, c);
        }
        return ks;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        try {
            delegate.checkServerTrusted(chain, authType, engine);
        } catch (CertificateException e) {
            throw new CertificateException(explain(chain, engine == null ? null : engine.getPeerHost(), e), e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        try {
            delegate.checkServerTrusted(chain, authType, socket);
        } catch (CertificateException e) {
            throw new CertificateException(explain(chain, socket == null ? null : socket.getInetAddress().getHostAddress(), e), e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        try {
            delegate.checkServerTrusted(chain, authType);
        } catch (CertificateException e) {
            throw new CertificateException(explain(chain, null, e), e);
        }
    }

    /** What was wrong with the server's certificate, and what to do, in one line. */
    String explain(X509Certificate[] chain, String host, CertificateException e) {
        if (chain == null || chain.length == 0) {
            return "the server sent no certificate: check that the URL's port serves TLS";
        }
        X509Certificate leaf = chain[0];
        String names = String.join(", ", names(leaf));
        Date now = new Date();
        if (now.after(leaf.getNotAfter())) {
            return "the server's certificate (for " + names + ") expired on " + leaf.getNotAfter().toInstant()
                    + ": renew it on the server, or pass --insecure to skip certificate checks";
        }
        if (now.before(leaf.getNotBefore())) {
            return "the server's certificate (for " + names + ") is not valid before " + leaf.getNotBefore().toInstant()
                    + ": check the clocks of both machines, or pass --insecure to skip certificate checks";
        }
        String why = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (why.contains("subject alternative") || why.contains("no name matching")) {
            return "the server's certificate is for " + names + ", not for " + (host == null ? "this host" : host)
                    + ": use one of those names in the URL, or pass --insecure to skip certificate checks";
        }
        if (why.contains("certification path") || why.contains("pkix") || why.contains("trust anchor")) {
            boolean selfSigned = leaf.getSubjectX500Principal().equals(leaf.getIssuerX500Principal());
            return "the server's certificate (for " + names + ") is " + (selfSigned ? "self-signed"
                    : "signed by '" + leaf.getIssuerX500Principal().getName() + "'") + ", which " + trusted
                    + " does not trust: pass --cacert FILE with the CA certificate that signed it, or --insecure"
                    + " to skip certificate checks";
        }
        return "the server's certificate (for " + names + ") was refused (" + e.getMessage()
                + "): pass --cacert FILE with its CA, or --insecure to skip certificate checks";
    }

    /** The certificate's DNS and IP names, else its subject. */
    private static List<String> names(X509Certificate c) {
        List<String> out = new ArrayList<>();
        try {
            Collection<List<?>> alt = c.getSubjectAlternativeNames();
            if (alt != null) {
                for (List<?> n : alt) {
                    // 2 = DNS name, 7 = IP address (X509Certificate#getSubjectAlternativeNames).
                    if (n.size() == 2 && (Integer.valueOf(2).equals(n.get(0)) || Integer.valueOf(7).equals(n.get(0)))) {
                        out.add(String.valueOf(n.get(1)));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // Fall back to the subject below.
        }
        if (out.isEmpty()) {
            out.add(c.getSubjectX500Principal().getName());
        }
        return out;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        delegate.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        delegate.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        delegate.checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return delegate.getAcceptedIssuers();
    }
}
