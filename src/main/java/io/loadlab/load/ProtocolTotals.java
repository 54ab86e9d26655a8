package io.loadlab.load;

import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/** The TLS and HTTP/2 figures of a run, summed over its workers (each read on its loop), at its end. */
final class ProtocolTotals {

    private ProtocolTotals() {
    }

    static Optional<TlsSummary> tls(RunControl control, List<Worker> workers) {
        if (control.tls.isEmpty()) {
            return Optional.empty();
        }
        Histogram time = Totals.newHistogram();
        long[] counts = new long[2];
        String[] last = {"", ""};
        for (Worker w : workers) {
            NettyLoad.onLoop(w.loop, () -> {
                time.add(w.tls.handshakeUs);
                counts[0] += w.tls.handshakes;
                counts[1] += w.tls.resumed;
                if (!w.tls.version.isEmpty()) {
                    last[0] = w.tls.version;
                    last[1] = w.tls.cipher;
                }
                return null;
            });
        }
        TlsClient c = control.tls.get();
        return Optional.of(new TlsSummary(c.provider(), c.library(), last[0], last[1], counts[0], counts[1], time));
    }

    static Optional<H2Summary> h2(LoadSpec spec, List<Worker> workers) {
        if (!spec.protocol().isHttp2()) {
            return Optional.empty();
        }
        long[] c = new long[3];
        for (Worker w : workers) {
            NettyLoad.onLoop(w.loop, () -> {
                c[0] += w.h2.rstStream;
                c[1] += w.h2.goaway;
                c[2] += w.h2.flowControlStalls;
                return null;
            });
        }
        return Optional.of(new H2Summary(spec.streams(), c[0], c[1], c[2]));
    }
}
