package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestEncoderTest {

    @Test
    void theEncodedRequestIsFreedOnRelease() {
        // Regression: the direct buffer of a request without substitutions was never released,
        // so Netty's leak detector reported it after a run, one per event loop.
        RequestEncoder encoder = new RequestEncoder(RequestTemplate.get("http://127.0.0.1:8080/plaintext"), 0, 1, 1);
        ByteBuf request = encoder.next(ByteBufAllocator.DEFAULT);
        assertEquals("GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
                request.toString(StandardCharsets.US_ASCII));
        request.release(); // what a completed write does: a no-op on the shared request
        assertEquals(1, request.refCnt());
        encoder.release();
        assertEquals(0, request.refCnt());
        encoder.release();
        assertEquals(0, request.refCnt());
    }
}
