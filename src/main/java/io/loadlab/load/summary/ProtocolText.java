package io.loadlab.load.summary;

import io.loadlab.format.Units;
import io.loadlab.load.LoadResult;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.Protocol;
import io.loadlab.load.TlsSummary;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** The protocol's lines of the terminal summary: TLS handshakes and HTTP/2 events. */
final class ProtocolText {

    private ProtocolText() {
    }

    /** What the header line adds: {@code , h2 over TLS, 10 streams per connection}; empty for plain HTTP/1.1. */
    static String header(LoadSpec spec) {
        boolean tls = spec.request().target().tls();
        if (spec.protocol() == Protocol.HTTP_1_1) {
            return tls ? ", HTTP/1.1 over TLS" : "";
        }
        return String.format(Locale.ROOT, ", %s%s, %d stream%s per connection", spec.protocol().label(),
                tls ? " over TLS" : "", spec.streams(), spec.streams() == 1 ? "" : "s");
    }

    /** The TLS and HTTP/2 lines of a finished run (none for plain HTTP/1.1). */
    static void append(StringBuilder sb, LoadResult r) {
        r.tls().ifPresent(t -> tls(sb, t));
        r.h2().ifPresent(h -> sb.append(String.format(Locale.ROOT,
                "  HTTP/2        %d stream%s per connection; RST_STREAM %s, GOAWAY %s, flow-control stalls %s%n",
                h.streams(), h.streams() == 1 ? "" : "s", Units.count(h.rstStream()), Units.count(h.goaway()),
                Units.count(h.flowControlStalls()))));
    }

    private static void tls(StringBuilder sb, TlsSummary t) {
        Histogram h = t.handshakeTime();
        sb.append(String.format(Locale.ROOT, "  TLS           %s %s via %s (%s)%n",
                t.version().isEmpty() ? "no handshake" : t.version(), t.cipher(), t.provider(), t.library()));
        if (h.getTotalCount() > 0) {
            sb.append(String.format(Locale.ROOT, "  Handshakes    %s (%s resumed), mean %s, p99 %s, max %s%n",
                    Units.count(t.handshakes()), Units.count(t.resumed()), Units.latency(h.getMean()),
                    Units.latency(h.getValueAtPercentile(99)), Units.latency(h.getMaxValue())));
        }
    }
}
