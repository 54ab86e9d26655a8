package io.loadlab.experiment;

import io.loadlab.workload.Workload;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A project's {@code expect}, checked once per subject before the first round: one request of each of
 * its workloads, over plain HTTP/1.1, whose answer must have an expected status, the expected body
 * length when one is fixed, and the {@code body-contains} text. A mismatch stops the experiment before
 * anything is measured, with one line naming the subject, the workload, what was expected and what
 * came back. The engine checks every answer of the runs the same way ({@code errors_status},
 * {@code errors_body}).
 */
final class Preflight {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** How much of an unexpected answer's body the error shows. */
    private static final int SHOWN_CHARS = 80;
    private static final Pattern SUBSTITUTION = Pattern.compile("\\{(?:rand:(\\d{1,10})-\\d{1,10}|seq)}");
    /** Headers the JDK's client sets itself and refuses to be given. */
    private static final java.util.Set<String> RESTRICTED = java.util.Set.of("connection", "content-length", "host",
            "expect", "upgrade");

    private Preflight() {
    }

    /**
     * The check before the first round: each subject's first plain-HTTP/1.1 instance of the plan
     * started (or reached) by {@code start}, one request of each of its workloads, stopped. A subject
     * with only TLS or h2c instances is checked by the engine's runs alone.
     *
     * @param projectFile named in the error, where the expectations are written
     * @param stopped     whether a stop was asked for (Ctrl-C), which ends the check
     * @throws ExperimentException for the first answer that is not as expected, in one line
     */
    static void checkAll(Plan plan, java.nio.file.Path projectFile, java.util.function.BooleanSupplier stopped,
                         java.util.function.Function<Plan.Instance, Server> start) {
        java.util.Set<String> checked = new java.util.HashSet<>();
        for (Plan.Instance inst : plan.instances()) {
            if (stopped.getAsBoolean() || io.loadlab.subject.ServedProtocol.of(inst.variant())
                    != io.loadlab.subject.ServedProtocol.H1 || !checked.add(inst.subject().name())) {
                continue;
            }
            try (Server p = start.apply(inst)) {
                Optional<String> problem = check(inst.label(), p.host(), p.port(), inst.workloads());
                if (problem.isPresent()) {
                    throw new ExperimentException(problem.get() + "; nothing was measured: fix the server or the"
                            + " workload's expect in " + projectFile);
                }
            }
        }
    }

    /**
     * Sends one request of each workload to the server at {@code host:port}.
     *
     * @return the first mismatch as one line; empty when every answer is as expected
     */
    static Optional<String> check(String subject, String host, int port, List<Workload> workloads) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(TIMEOUT).build();
        for (Workload w : workloads) {
            Optional<String> problem = check(client, subject, host, port, w);
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> check(HttpClient client, String subject, String host, int port, Workload w) {
        String path = firstPath(w.path());
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host)
                + ":" + port + path)).timeout(TIMEOUT);
        for (String h : w.headers()) {
            int colon = h.indexOf(':');
            String name = h.substring(0, colon).strip();
            if (!RESTRICTED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                b.header(name, h.substring(colon + 1).strip());
            }
        }
        byte[] body = body(w);
        b.method(w.method(), body.length == 0 && w.method().equals("GET") ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        String where = "subject " + subject + ", workload " + w.name() + " (" + w.method() + " " + path + "): ";
        HttpResponse<byte[]> r;
        try {
            r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            return Optional.of(where + "expected an answer, got " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of(where + "interrupted");
        }
        String got = "got " + r.statusCode() + " with " + shown(r.body());
        if (!w.expectedStatus().contains(r.statusCode())) {
            return Optional.of(where + "expected status " + statuses(w) + ", " + got);
        }
        if (w.expectedBody().isPresent() && r.body().length != w.expectedBody().getAsLong()) {
            return Optional.of(where + "expected a body of " + w.expectedBody().getAsLong() + " bytes, " + got);
        }
        if (w.bodyContains().isPresent() && !contains(r.body(), w.bodyContains().get().getBytes(StandardCharsets.UTF_8))) {
            return Optional.of(where + "expected a body containing '" + w.bodyContains().get() + "', " + got);
        }
        return Optional.empty();
    }

    /** The path of the run's first request: {@code {seq}} 0, {@code {rand:LO-HI}} LO. */
    static String firstPath(String template) {
        Matcher m = SUBSTITUTION.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, m.group(1) == null ? "0" : m.group(1));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static byte[] body(Workload w) {
        if (w.body() instanceof Workload.Literal l) {
            return l.bytes();
        }
        // The engine's filler is printable text; the check sends the same length of it.
        return "x".repeat(w.bodySize()).getBytes(StandardCharsets.US_ASCII);
    }

    private static String statuses(Workload w) {
        TreeSet<Integer> s = new TreeSet<>(w.expectedStatus());
        if (s.size() > 5) {
            return s.first() + "-" + s.last();
        }
        return String.join(" or ", s.stream().map(String::valueOf).toList());
    }

    private static String shown(byte[] body) {
        if (body.length == 0) {
            return "an empty body";
        }
        String text = new String(body, 0, Math.min(body.length, SHOWN_CHARS * 4), StandardCharsets.UTF_8)
                .replaceAll("\\s+", " ").strip();
        if (text.length() > SHOWN_CHARS) {
            text = text.substring(0, SHOWN_CHARS) + "...";
        }
        return "body '" + text + "' (" + body.length + " bytes)";
    }

    static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
