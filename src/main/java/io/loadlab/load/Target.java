package io.loadlab.load;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Where requests go: an {@code http://} or {@code https://} URL split into host, port and the path
 * with its query.
 *
 * @param tls  whether the connection is TLS ({@code https://})
 * @param host host name or IP literal, without brackets; also the name sent in SNI and checked
 *             against the server's certificate
 * @param port TCP port, 1 to 65535
 * @param path request target starting with {@code /}; may hold substitutions, see {@link RequestTemplate}
 */
public record Target(boolean tls, String host, int port, String path) {

    public Target {
        if (host == null || host.isBlank()) {
            throw LoadException.usage("the URL needs a host, for example http://127.0.0.1:8080/");
        }
        if (port < 1 || port > 65535) {
            throw LoadException.usage("port must be between 1 and 65535, got " + port);
        }
        if (path == null || !path.startsWith("/")) {
            throw LoadException.usage("the path must start with '/', got '" + path + "'");
        }
    }

    /**
     * Parses {@code http[s]://host[:port][/path][?query]} (port 80 or 443 by default). Substitutions such as
     * {@code {rand:1-100}} may appear in the path: they are kept verbatim for the template.
     *
     * @throws LoadException (usage) for another scheme, a missing host or a malformed URL
     */
    public static Target parse(String url) {
        if (url == null || url.isBlank()) {
            throw LoadException.usage("give a URL such as http://127.0.0.1:8080/plaintext");
        }
        int schemeEnd = url.indexOf("://");
        if (schemeEnd < 0) {
            throw LoadException.usage("'" + url + "' is not a URL: write it as http://HOST:PORT/PATH");
        }
        String scheme = url.substring(0, schemeEnd);
        boolean tls = scheme.equalsIgnoreCase("https");
        if (!tls && !scheme.equalsIgnoreCase("http")) {
            throw LoadException.usage("unsupported scheme '" + scheme + "' in " + url + ": use http:// or https://");
        }
        // The braces of substitutions are not legal in a URI: hide them while java.net.URI parses.
        String escaped = url.replace("{", "%7B").replace("}", "%7D");
        URI uri;
        try {
            uri = new URI(escaped);
        } catch (URISyntaxException e) {
            throw LoadException.usage("malformed URL '" + url + "': " + e.getReason());
        }
        if (uri.getHost() == null) {
            throw LoadException.usage("the URL '" + url + "' has no host; write it as http://HOST:PORT/PATH");
        }
        String host = uri.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = uri.getPort() != -1 ? uri.getPort() : tls ? 443 : 80;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        path = path.replace("%7B", "{").replace("%7D", "}");
        return new Target(tls, host, port, path);
    }

    /** Value for the {@code Host} header: {@code host:port}, IPv6 literals in brackets. */
    public String hostHeader() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return h + ":" + port;
    }

    /** The URL this target was parsed from (in normal form). */
    public String url() {
        return (tls ? "https://" : "http://") + hostHeader() + path;
    }
}
