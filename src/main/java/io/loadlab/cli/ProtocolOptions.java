package io.loadlab.cli;

import io.loadlab.load.LoadSpec;
import io.loadlab.load.Protocol;
import io.loadlab.load.TlsOptions;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code loadlab load}'s protocol options: HTTP/2 (as h2load) and TLS (as oha and h2load offer them). */
final class ProtocolOptions {

    @Option(names = "--h2", description = "HTTP/2 over TLS, negotiated with ALPN (needs an https:// URL)")
    boolean h2;

    @Option(names = "--h2c", description = "HTTP/2 over plain TCP with prior knowledge (needs an http:// URL)")
    boolean h2c;

    @Option(names = {"-m", "--streams"}, paramLabel = "N",
            description = {"HTTP/2 streams in flight per connection, as h2load's -m and oha's -p; oha's and hey's",
                    "-m is the method (here -X) (default: ${DEFAULT-VALUE})"})
    int streams = 1;

    @Option(names = "--cacert", paramLabel = "FILE",
            description = "trust the CA certificates of this PEM file instead of the system trust store")
    Path caCert;

    @Option(names = "--insecure", description = "do not check the server's certificate at all")
    boolean insecure;

    @Option(names = "--no-tls-resume", description = "a full TLS handshake on every connection (default: resume sessions)")
    boolean noResume;

    @Option(names = "--tls-version", paramLabel = "V", description = "offer only TLS 1.2 or 1.3 (default: both)")
    String tlsVersion;

    @Option(names = "--ciphers", paramLabel = "LIST",
            description = "TLS 1.2 cipher suites to offer, OpenSSL or IANA names separated by ':' (as h2load)")
    String ciphers;

    @Option(names = "--tls13-ciphers", paramLabel = "LIST", description = "TLS 1.3 cipher suites to offer (as h2load)")
    String tls13Ciphers;

    @Option(names = "--tls-provider", paramLabel = "P",
            description = "auto (BoringSSL where it loads, else the JDK's), openssl or jdk (default: ${DEFAULT-VALUE})")
    String provider = "auto";

    /** Sets the protocol, streams and TLS options on {@code b}. */
    void apply(LoadSpec.Builder b) {
        if (h2 && h2c) {
            throw new CliException("--h2 and --h2c exclude each other: --h2 for https://, --h2c for http://",
                    Main.EXIT_USAGE);
        }
        b.protocol(h2 ? Protocol.H2 : h2c ? Protocol.H2C : Protocol.HTTP_1_1).streams(streams)
                .tls(new TlsOptions(Optional.ofNullable(caCert), insecure, !noResume,
                        Optional.ofNullable(tlsVersion).map(TlsOptions.Version::parse), TlsOptions.cipherList(ciphers),
                        TlsOptions.cipherList(tls13Ciphers), TlsOptions.Provider.parse(provider)));
    }
}
