package io.loadlab.agent;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns Hazelcast's own refusals of a member or client without the secret into one line on the
 * agent's log: Hazelcast logs a refused client only at FINE, and a refused member in its own words.
 * Installs itself on the two loggers concerned; Hazelcast's other messages below WARNING are dropped.
 */
final class RefusalLog extends Handler {

    /** Where Hazelcast says a client's authentication failed (FINE). */
    static final String CLIENT_AUTH = "com.hazelcast.client.impl.protocol.task.AuthenticationMessageTask";
    /** Where Hazelcast says a member's join request was invalid (WARNING). */
    static final String MEMBER_JOIN = "com.hazelcast.internal.cluster.impl.ClusterJoinManager";

    private static final Pattern PEER = Pattern.compile("->/?([0-9A-Fa-f.:\\[\\]]+:[0-9]+)");
    private static final Pattern JOINER = Pattern.compile("join request from \\[?([^\\],]+)\\]?:([0-9]+)");
    /** The loggers must stay strongly reachable, or JUL forgets their levels and handlers. */
    private static final List<Logger> KEPT = List.of(Logger.getLogger(CLIENT_AUTH), Logger.getLogger(MEMBER_JOIN),
            Logger.getLogger("com.hazelcast"), Logger.getLogger(RefusalLog.MODULES));
    /**
     * Warns at start that Java's internal packages are not opened to it: they only speed up its
     * serialization, and an agent moves a few messages a second.
     */
    static final String MODULES = "com.hazelcast.instance.impl.HazelcastInstanceFactory";

    private final PrintStream out;

    private RefusalLog(PrintStream out) {
        this.out = out;
    }

    /** Installs the handler; every refusal is printed on {@code out} as one {@code loadlab agent: refused ...} line; other warnings of those loggers as {@code loadlab agent: hazelcast: ...}. */
    static void install(PrintStream out) {
        RefusalLog h = new RefusalLog(out);
        KEPT.get(2).setLevel(Level.WARNING);
        KEPT.get(3).setLevel(Level.SEVERE);
        for (Logger l : KEPT.subList(0, 2)) {
            l.setLevel(Level.FINE);
            l.setUseParentHandlers(false);
            l.addHandler(h);
        }
    }

    @Override
    public void publish(LogRecord r) {
        String msg = r.getMessage() == null ? "" : r.getMessage();
        if (msg.contains("authentication failed")) {
            Matcher m = PEER.matcher(msg);
            line("refused client " + (m.find() ? m.group(1) : "(address unknown)") + ": its cluster name differs, so it does"
                    + " not hold this agent's secret (Hazelcast client authentication failed)");
        } else if (msg.contains("invalid join request")) {
            Matcher m = JOINER.matcher(msg);
            line("refused member " + (m.find() ? m.group(1) + ":" + m.group(2) : "(address unknown)")
                    + ": its cluster name differs, so it does not hold this agent's secret (" + msg.replaceAll(".*cause: ", "")
                    + ")");
        } else if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
            line("hazelcast: " + msg);
        }
    }

    private void line(String text) {
        synchronized (out) {
            out.println(String.format(Locale.ROOT, "loadlab agent: %s", text));
            out.flush();
        }
    }

    @Override
    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        flush();
    }
}
