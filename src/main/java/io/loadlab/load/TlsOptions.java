package io.loadlab.load;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How an {@code https://} run sets up TLS. The defaults verify the server's certificate against the
 * system trust store (the JDK's {@code cacerts}, which Debian fills from {@code ca-certificates}) and
 * its host name, offer TLS 1.2 and 1.3, and resume sessions.
 *
 * @param caCert       PEM file of the certificates to trust instead of the system store ({@code --cacert})
 * @param insecure     skip every check of the server's certificate ({@code --insecure})
 * @param resume       resume sessions on later connections (tickets or ids, as the server offers)
 * @param version      the one TLS version to offer; empty for 1.2 and 1.3
 * @param ciphers      TLS 1.2 cipher suites to offer, OpenSSL or IANA names (h2load's {@code --ciphers});
 *                     empty for the provider's defaults
 * @param tls13Ciphers TLS 1.3 cipher suites to offer (h2load's {@code --tls13-ciphers}); empty for the defaults
 * @param provider     which TLS implementation to use
 */
public record TlsOptions(Optional<Path> caCert, boolean insecure, boolean resume, Optional<Version> version,
                         List<String> ciphers, List<String> tls13Ciphers, Provider provider) {

    /** Verify against the system trust store, TLS 1.2 and 1.3, resumption on, BoringSSL where it loads. */
    public static final TlsOptions DEFAULTS = new TlsOptions(Optional.empty(), false, true, Optional.empty(),
            List.of(), List.of(), Provider.AUTO);

    /** A TLS version a run may be limited to. */
    public enum Version {
        TLS_1_2("TLSv1.2"), TLS_1_3("TLSv1.3");

        private final String protocolName;

        Version(String protocolName) {
            this.protocolName = protocolName;
        }

        /** The JSSE / OpenSSL protocol name, {@code TLSv1.2} or {@code TLSv1.3}. */
        public String protocolName() {
            return protocolName;
        }

        /**
         * {@code 1.2} or {@code 1.3} (also {@code TLSv1.3}).
         *
         * @throws LoadException (usage) for any other text
         */
        public static Version parse(String text) {
            String t = text.trim().toLowerCase(Locale.ROOT).replace("tlsv", "");
            return switch (t) {
                case "1.2" -> TLS_1_2;
                case "1.3" -> TLS_1_3;
                default -> throw LoadException.usage("unknown TLS version '" + text + "': use 1.2 or 1.3");
            };
        }
    }

    /** The TLS implementation. */
    public enum Provider {
        /** BoringSSL (netty-tcnative) where its native library loads, the JDK's otherwise. */
        AUTO,
        /** BoringSSL through netty-tcnative; an error where it cannot load. */
        OPENSSL,
        /** The JDK's own (SunJSSE). */
        JDK;

        /**
         * {@code auto}, {@code openssl} (also {@code boringssl}) or {@code jdk}.
         *
         * @throws LoadException (usage) for any other text
         */
        public static Provider parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "auto" -> AUTO;
                case "openssl", "boringssl" -> OPENSSL;
                case "jdk" -> JDK;
                default -> throw LoadException.usage("unknown TLS provider '" + text + "': use auto, openssl or jdk");
            };
        }
    }

    public TlsOptions {
        if (caCert == null || version == null || provider == null) {
            throw LoadException.usage("TLS options: caCert, version and provider are required (Optional.empty() for none)");
        }
        caCert.filter(f -> !Files.isReadable(f)).ifPresent(f -> {
            throw LoadException.usage("--cacert " + f + ": no such readable file (give the PEM file of the CA"
                    + " that signed the server's certificate)");
        });
        if (insecure && caCert.isPresent()) {
            throw LoadException.usage("--cacert and --insecure contradict each other: --insecure checks no"
                    + " certificate; drop one");
        }
        ciphers = List.copyOf(ciphers);
        tls13Ciphers = List.copyOf(tls13Ciphers);
        if (version.isPresent() && version.get() == Version.TLS_1_3 && !ciphers.isEmpty()) {
            throw LoadException.usage("--ciphers chooses TLS 1.2 suites, but --tls-version is 1.3: use --tls13-ciphers");
        }
        if (version.isPresent() && version.get() == Version.TLS_1_2 && !tls13Ciphers.isEmpty()) {
            throw LoadException.usage("--tls13-ciphers chooses TLS 1.3 suites, but --tls-version is 1.2: use --ciphers");
        }
    }

    /** Splits a cipher list as OpenSSL writes it ({@code A:B}) or with commas. */
    public static List<String> cipherList(String text) {
        return text == null || text.isBlank() ? List.of()
                : List.of(text.trim().split("\\s*[:,]\\s*"));
    }
}
