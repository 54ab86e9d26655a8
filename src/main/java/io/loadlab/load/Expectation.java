package io.loadlab.load;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What a correct answer looks like. An answer with another status counts as a {@code status}
 * error; one with the right status but another body length as a {@code protocol} error. Both
 * still count as requests, with their latency recorded. One with the right status and length whose
 * body lacks {@code bodyContains} counts as a {@code body} error.
 *
 * @param statuses     statuses that are correct, 100 to 999
 * @param bodyBytes    exact body length, when fixed
 * @param bodyContains text (UTF-8, 1 to {@value BodyMatcher#MAX_NEEDLE} bytes) that a correct answer's
 *                     body holds, when given
 */
public record Expectation(Set<Integer> statuses, OptionalLong bodyBytes, Optional<String> bodyContains) {

    /** The default: any status below 400 is correct, bodies of any length and content. */
    public static final Expectation ANY_SUCCESS = new Expectation(rangeSet(100, 399), OptionalLong.empty());

    public Expectation {
        statuses = Set.copyOf(statuses);
        for (int s : statuses) {
            if (s < 100 || s > 999) {
                throw LoadException.usage("expected status " + s + " is not between 100 and 999");
            }
        }
        if (bodyBytes.isPresent() && bodyBytes.getAsLong() < 0) {
            throw LoadException.usage("expected body length cannot be negative");
        }
        bodyContains.ifPresent(text -> new BodyMatcher(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** Statuses and a body length, whatever the body holds. */
    public Expectation(Set<Integer> statuses, OptionalLong bodyBytes) {
        this(statuses, bodyBytes, Optional.empty());
    }

    /** A matcher for {@link #bodyContains}, or null when bodies are not looked into (the hot path tests null). */
    BodyMatcher matcher() {
        return bodyContains.map(text -> new BodyMatcher(text.getBytes(StandardCharsets.UTF_8))).orElse(null);
    }

    private static Set<Integer> rangeSet(int from, int to) {
        java.util.Set<Integer> s = new java.util.HashSet<>();
        for (int i = from; i <= to; i++) {
            s.add(i);
        }
        return s;
    }

    /** A lookup table indexed by status code, for the hot path. */
    boolean[] statusTable() {
        boolean[] t = new boolean[1000];
        for (int s : statuses) {
            t[s] = true;
        }
        return t;
    }
}
