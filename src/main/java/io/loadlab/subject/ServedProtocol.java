package io.loadlab.subject;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The protocol a subject serves in one variant: the values of a manifest's {@code protocol} variant. A
 * subject without that variant serves {@link #H1} only. The TLS ones are served with the experiment's
 * throw-away certificate ({@code {cert}}, {@code {key}}); {@code h2-tls} offers {@code h2} in ALPN (and
 * may accept HTTP/1.1 too), {@code h2c} answers the HTTP/2 preface on plain TCP (prior knowledge) and may
 * answer HTTP/1.1 as well.
 */
public enum ServedProtocol {
    H1("h1", false, false),
    H1_TLS("h1-tls", true, false),
    H2_TLS("h2-tls", true, true),
    H2C("h2c", false, true);

    /** The name of the variant that says a subject's protocol. */
    public static final String VARIANT = "protocol";

    private final String label;
    private final boolean tls;
    private final boolean http2;

    ServedProtocol(String label, boolean tls, boolean http2) {
        this.label = label;
        this.tls = tls;
        this.http2 = http2;
    }

    /** The variant value: {@code h1}, {@code h1-tls}, {@code h2-tls} or {@code h2c}. */
    public String label() {
        return label;
    }

    /** Whether connections are TLS. */
    public boolean tls() {
        return tls;
    }

    /** Whether requests are HTTP/2. */
    public boolean http2() {
        return http2;
    }

    /** The protocol named {@code label}, if it is one. */
    public static Optional<ServedProtocol> parse(String label) {
        return Arrays.stream(values()).filter(p -> p.label.equals(label)).findFirst();
    }

    /** The protocol of a variant: its {@code protocol} value, {@link #H1} without one. */
    public static ServedProtocol of(Map<String, String> variant) {
        String v = variant.get(VARIANT);
        return v == null ? H1 : parse(v).orElseThrow(() -> new SubjectException("unknown protocol '" + v
                + "': the protocol variant's values are " + labels()));
    }

    /** {@code h1, h1-tls, h2-tls, h2c}. */
    public static String labels() {
        return Arrays.stream(values()).map(ServedProtocol::label).collect(Collectors.joining(", "));
    }
}
