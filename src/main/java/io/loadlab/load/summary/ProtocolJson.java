package io.loadlab.load.summary;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.load.H2Summary;
import io.loadlab.load.LoadResult;
import io.loadlab.load.TlsSummary;

/**
 * The protocol's fields of the JSON (README, "JSON output"): {@code tls_handshake_us} (a distribution
 * like {@code latency_us}, null without TLS), {@code tls_session} (provider, library, version, cipher,
 * handshakes, resumed; null without TLS) and {@code h2} (streams, rst_stream, goaway,
 * flow_control_stalls; null over HTTP/1.1).
 */
final class ProtocolJson {

    private ProtocolJson() {
    }

    static void put(ObjectNode o, LoadResult r) {
        if (r.tls().isPresent()) {
            TlsSummary t = r.tls().get();
            o.set("tls_handshake_us", JsonSummary.distribution(t.handshakeTime()));
            ObjectNode s = o.putObject("tls_session");
            s.put("provider", t.provider());
            s.put("library", t.library());
            s.put("version", t.version());
            s.put("cipher", t.cipher());
            s.put("handshakes", t.handshakes());
            s.put("resumed", t.resumed());
            s.put("resumption", r.spec().tls().resume());
            s.put("verified", !r.spec().tls().insecure());
        } else {
            o.putNull("tls_handshake_us");
            o.putNull("tls_session");
        }
        if (r.h2().isPresent()) {
            H2Summary h = r.h2().get();
            ObjectNode n = o.putObject("h2");
            n.put("streams", h.streams());
            n.put("rst_stream", h.rstStream());
            n.put("goaway", h.goaway());
            n.put("flow_control_stalls", h.flowControlStalls());
        } else {
            o.putNull("h2");
        }
    }
}
