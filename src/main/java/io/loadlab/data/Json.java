package io.loadlab.data;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The one Jackson mapper for Loadlab's own JSON: {@code experiment.json} and the small documents
 * the command line reads or writes (Jupyter's kernel specs). It writes indented, as
 * {@code experiment.json} has always been written, so that people can read and diff the file.
 * An {@link ObjectMapper} is thread-safe once configured; this one is never reconfigured.
 *
 * <p>Mappers that serve another format keep their own: the agents' compact wire messages, the
 * {@code load --json} summary (in {@code load}, which must not depend on {@code data}) and the
 * subjects' YAML manifests.
 */
public final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    /** The shared mapper; never reconfigure it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
