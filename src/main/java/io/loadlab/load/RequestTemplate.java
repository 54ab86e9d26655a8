package io.loadlab.load;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The request every connection sends, fixed before the run starts.
 *
 * <p>The path may contain substitutions, replaced for each request:
 * <ul>
 *   <li>{@code {rand:LO-HI}}: a uniformly random integer from LO to HI inclusive
 *       (for example {@code /kv/{rand:0-9999}} spreads requests over 10,000 keys);</li>
 *   <li>{@code {seq}}: a number unique to each request of the run, starting at 0 per thread and
 *       interleaved across threads.</li>
 * </ul>
 *
 * @param method   HTTP method, upper case letters only ({@code GET}, {@code PUT}, {@code HEAD}, ...)
 * @param target   host, port and path
 * @param headers  extra headers as {@code Name: value} lines; {@code Host} is added unless given, and
 *                 {@code Content-Length} and {@code Transfer-Encoding} are the engine's to write
 * @param bodySize request body in bytes (0 = no body), sent with {@code Content-Length}; the length
 *                 of {@code literal} when that is given
 * @param literal  the body's bytes, when given; else a generated body of {@code bodySize} printable bytes
 */
public record RequestTemplate(String method, Target target, List<String> headers, int bodySize,
                              Optional<byte[]> literal) {

    /** {@code {rand:LO-HI}} (groups 2 and 3 the bounds) or {@code {seq}}. */
    public static final Pattern SUBSTITUTION = Pattern.compile("\\{(rand:(\\d{1,10})-(\\d{1,10})|seq)}");
    private static final Pattern METHOD = Pattern.compile("[A-Z]{1,20}");
    private static final Pattern HEADER = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+:[^\r\n]*");
    /** Request bodies are built in memory once; 64 MiB keeps that sane. */
    public static final int MAX_BODY = 64 << 20;

    public RequestTemplate {
        method = method == null ? "GET" : method.toUpperCase(Locale.ROOT);
        if (!METHOD.matcher(method).matches()) {
            throw LoadException.usage("method must be a word such as GET or PUT, got '" + method + "'");
        }
        if (target == null) {
            throw LoadException.usage("a request needs a target URL");
        }
        headers = List.copyOf(headers == null ? List.of() : headers);
        for (String h : headers) {
            if (!HEADER.matcher(h).matches()) {
                throw LoadException.usage("header '" + h + "' is not of the form 'Name: value'");
            }
            for (String framing : List.of("content-length:", "transfer-encoding:")) {
                if (h.regionMatches(true, 0, framing, 0, framing.length())) {
                    throw LoadException.usage("header '" + h + "' is written by the engine from the body;"
                            + " leave it out");
                }
            }
        }
        literal = literal.map(byte[]::clone);
        bodySize = literal.map(b -> b.length).orElse(bodySize);
        if (bodySize < 0 || bodySize > MAX_BODY) {
            throw LoadException.usage("body size must be between 0 and " + MAX_BODY + " bytes, got " + bodySize);
        }
        checkSubstitutions(target.path());
    }

    /** A request with a generated body of {@code bodySize} bytes (0 = none). */
    public RequestTemplate(String method, Target target, List<String> headers, int bodySize) {
        this(method, target, headers, bodySize, Optional.empty());
    }

    /** A request whose body is exactly {@code body}. */
    public static RequestTemplate withBody(String method, Target target, List<String> headers, byte[] body) {
        return new RequestTemplate(method, target, headers, body.length, Optional.of(body));
    }

    /**
     * The bytes of a body file, for {@link #withBody}: at most {@link #MAX_BODY}, so a file too large
     * is refused before it is held in memory (and one that grows while it is read, at that bound).
     *
     * @throws LoadException a usage error whose message starts with the file's path: not a regular
     *                       file, larger than {@link #MAX_BODY}, or unreadable
     */
    public static byte[] readBody(java.nio.file.Path file) {
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw LoadException.usage(file + " is not a file");
        }
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            // The size first, so that a large file is refused unread; the bounded read catches one that grows.
            byte[] bytes = java.nio.file.Files.size(file) > MAX_BODY ? null : in.readNBytes(MAX_BODY + 1);
            if (bytes == null || bytes.length > MAX_BODY) {
                throw LoadException.usage(file + " is larger than a request body may be: at most " + MAX_BODY
                        + " bytes (64 MiB)");
            }
            return bytes;
        } catch (java.io.IOException e) {
            throw LoadException.usage(file + " cannot be read: " + e.getMessage());
        }
    }

    /**
     * Whether the request says {@code Connection: close}: the client then closes each connection after
     * its answer and opens a new one for the next request, as oha's and hey's {@code --disable-keepalive}
     * and ab without {@code -k} do. HTTP/1.1 only; one request in flight per connection.
     */
    public boolean closesConnection() {
        return headers.stream().anyMatch(h -> h.regionMatches(true, 0, "connection:", 0, 11)
                && h.substring(11).strip().equalsIgnoreCase("close"));
    }

    /** A {@code GET} of the given URL with no extra headers. */
    public static RequestTemplate get(String url) {
        return new RequestTemplate("GET", Target.parse(url), List.of(), 0);
    }

    /** The bytes of each request's body: a copy of the literal, else the generated {@code a..z} run; empty for none. */
    public byte[] bodyBytes() {
        if (literal.isPresent()) {
            return literal.get().clone();
        }
        byte[] bytes = new byte[bodySize];
        // Deterministic and printable: servers that echo or log it show something readable.
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) ('a' + i % 26);
        }
        return bytes;
    }

    /** Records compare arrays by identity; two templates with equal bodies are equal. */
    @Override
    public boolean equals(Object o) {
        return o instanceof RequestTemplate t && method.equals(t.method) && target.equals(t.target)
                && headers.equals(t.headers) && bodySize == t.bodySize
                && literal.isPresent() == t.literal.isPresent()
                && Arrays.equals(literal.orElse(null), t.literal.orElse(null));
    }

    @Override
    public int hashCode() {
        return (method.hashCode() * 31 + target.hashCode()) * 31 + headers.hashCode() + bodySize
                + literal.map(Arrays::hashCode).orElse(0);
    }

    @Override
    public String toString() {
        return "RequestTemplate[" + method + " " + target + ", headers " + headers + ", body " + bodySize + " bytes"
                + (literal.isPresent() ? " given" : "") + "]";
    }

    /** Whether answers carry no body whatever their headers say (RFC 9112 section 6.3). */
    public boolean isHead() {
        return method.equals("HEAD");
    }

    /** Whether the path changes per request. */
    public boolean hasSubstitutions() {
        return SUBSTITUTION.matcher(target.path()).find();
    }

    private static void checkSubstitutions(String path) {
        pathProblem(path).ifPresent(why -> {
            throw LoadException.usage("path " + why);
        });
    }

    /**
     * What is wrong with a request path, if anything: a {@code {rand:LO-HI}} with LO above HI or HI
     * above {@link Integer#MAX_VALUE}, another placeholder, or a character outside printable ASCII
     * (a space, CR or LF would end the request line early). The words follow "path ", so each
     * caller can name the path its own way.
     */
    public static Optional<String> pathProblem(String path) {
        Matcher m = SUBSTITUTION.matcher(path);
        StringBuilder rest = new StringBuilder();
        int last = 0;
        while (m.find()) {
            if (m.group(2) != null) {
                long lo = Long.parseLong(m.group(2));
                long hi = Long.parseLong(m.group(3));
                if (lo > hi || hi > Integer.MAX_VALUE) {
                    return Optional.of("has " + m.group() + "; it needs LO <= HI <= " + Integer.MAX_VALUE);
                }
            }
            rest.append(path, last, m.start());
            last = m.end();
        }
        rest.append(path.substring(last));
        if (rest.indexOf("{") >= 0 || rest.indexOf("}") >= 0) {
            return Optional.of("'" + path + "' has an unknown placeholder; use {seq} or {rand:LO-HI}");
        }
        if (!rest.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            return Optional.of("'" + path.strip() + "' holds a space or a character outside ASCII; percent-encode it");
        }
        return Optional.empty();
    }
}
