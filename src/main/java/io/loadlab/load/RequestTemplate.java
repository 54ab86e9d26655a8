package io.loadlab.load;

import java.util.List;
import java.util.Locale;
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
 * @param headers  extra headers as {@code Name: value} lines; {@code Host} is added unless given
 * @param bodySize request body in bytes (0 = no body), sent with {@code Content-Length}
 */
public record RequestTemplate(String method, Target target, List<String> headers, int bodySize) {

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
        }
        if (bodySize < 0 || bodySize > MAX_BODY) {
            throw LoadException.usage("body size must be between 0 and " + MAX_BODY + " bytes, got " + bodySize);
        }
        checkSubstitutions(target.path());
    }

    /** A {@code GET} of the given URL with no extra headers. */
    public static RequestTemplate get(String url) {
        return new RequestTemplate("GET", Target.parse(url), List.of(), 0);
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
        Matcher m = SUBSTITUTION.matcher(path);
        StringBuilder rest = new StringBuilder();
        int last = 0;
        while (m.find()) {
            if (m.group(2) != null) {
                long lo = Long.parseLong(m.group(2));
                long hi = Long.parseLong(m.group(3));
                if (lo > hi || hi > Integer.MAX_VALUE) {
                    throw LoadException.usage("substitution " + m.group() + " needs LO <= HI <= "
                            + Integer.MAX_VALUE);
                }
            }
            rest.append(path, last, m.start());
            last = m.end();
        }
        rest.append(path.substring(last));
        if (rest.indexOf("{") >= 0 || rest.indexOf("}") >= 0) {
            throw LoadException.usage("unknown substitution in path '" + path
                    + "': use {rand:LO-HI} or {seq}");
        }
        if (rest.indexOf(" ") >= 0) {
            throw LoadException.usage("the path '" + path + "' contains a space; encode it as %20");
        }
    }
}
