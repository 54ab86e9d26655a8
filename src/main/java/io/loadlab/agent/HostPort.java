package io.loadlab.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * An agent's address as users write it, {@code HOST:PORT} ({@code [v6]:PORT} for IPv6 literals).
 *
 * @param host a host name or IP literal, without brackets
 * @param port TCP port, 1 to 65535
 */
public record HostPort(String host, int port) {

    public HostPort {
        if (host == null || host.isBlank()) {
            throw new AgentException("an agent address needs a host, as in 10.0.0.2:5701");
        }
        if (port < 1 || port > 65535) {
            throw new AgentException("agent port must be between 1 and 65535, got " + port + " in " + host + ":" + port);
        }
    }

    /**
     * Parses {@code HOST:PORT}.
     *
     * @throws AgentException naming the text when it is not of that form
     */
    public static HostPort parse(String text) {
        String t = text == null ? "" : text.trim();
        int colon = t.lastIndexOf(':');
        if (colon <= 0 || colon == t.length() - 1) {
            throw new AgentException("'" + text + "' is not HOST:PORT: write it as 10.0.0.2:5701");
        }
        String host = t.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new HostPort(host, Integer.parseInt(t.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new AgentException("'" + text + "' is not HOST:PORT: the port must be a number");
        }
    }

    /**
     * Parses a comma-separated list such as {@code 10.0.0.2:5701,10.0.0.3:5701}.
     *
     * @throws AgentException for an empty list, a bad entry or an address given twice
     */
    public static List<HostPort> list(String commaSeparated) {
        List<HostPort> out = new ArrayList<>();
        for (String part : commaSeparated.split(",", -1)) {
            HostPort hp = parse(part);
            if (out.contains(hp)) {
                throw new AgentException("agent " + hp + " is listed twice in '" + commaSeparated + "'");
            }
            out.add(hp);
        }
        return List.copyOf(out);
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
