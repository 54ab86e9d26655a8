package io.loadlab.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.RequestTemplate;
import io.loadlab.load.Target;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A load order's request body reaches the agent byte for byte, and its Connection: close with it. */
class SpecCodecBodyTest {

    @Test
    void aGivenBodyAndItsHeadersRoundTrip() throws Exception {
        byte[] body = {0, 1, 2, (byte) 0xff, '{', '}'};
        LoadSpec spec = LoadSpec.builder().request(RequestTemplate.withBody("POST", Target.parse("http://127.0.0.1:8080/o"),
                List.of("Content-Type: application/octet-stream", "Connection: close"), body)).requests(10).build();
        // Through text, as the wire carries it.
        String wire = new ObjectMapper().writeValueAsString(SpecCodec.toJson(spec));
        LoadSpec back = SpecCodec.fromJson(new ObjectMapper().readTree(wire));
        assertArrayEquals(body, back.request().bodyBytes());
        assertTrue(back.request().literal().isPresent());
        assertTrue(back.request().closesConnection());
        assertEquals(spec.request(), back.request());
    }

    @Test
    void aGeneratedBodyStaysGenerated() {
        LoadSpec spec = LoadSpec.builder().request(new RequestTemplate("PUT", Target.parse("http://127.0.0.1:8080/k"),
                List.of(), 1024)).requests(10).build();
        LoadSpec back = SpecCodec.fromJson(SpecCodec.toJson(spec));
        assertTrue(back.request().literal().isEmpty());
        assertEquals(1024, back.request().bodySize());
    }
}
