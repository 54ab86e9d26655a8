package io.loadlab.agent;

import io.loadlab.load.LoadSpec;

/** Copies of a {@link LoadSpec} with some fields changed: the builder holds every field of the original. */
final class Specs {

    private Specs() {
    }

    /** A builder holding all of {@code s}; change what differs, then {@code build()}. */
    static LoadSpec.Builder copy(LoadSpec s) {
        LoadSpec.Builder b = LoadSpec.builder().request(s.request()).model(s.model()).connections(s.connections())
                .threads(s.threads()).warmup(s.warmup()).requestTimeout(s.requestTimeout())
                .connectTimeout(s.connectTimeout()).transport(s.transport()).expect(s.expectation()).seed(s.seed());
        s.duration().ifPresent(b::duration);
        s.requestCount().ifPresent(b::requests);
        return b;
    }
}
