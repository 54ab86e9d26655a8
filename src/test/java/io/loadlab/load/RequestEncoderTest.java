package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestEncoderTest {

    @Test
    void theRequestsOfOneWriteShareABufferThatTheWriteFrees() {
        // Each write owns its buffer (pooled, released by the write), so no duplicate of a shared
        // buffer is made per request and nothing is left to free after the run.
        RequestEncoder encoder = new RequestEncoder(RequestTemplate.get("http://127.0.0.1:8080/plaintext"), 0, 1, 1);
        String one = "GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";
        ByteBuf three = encoder.next(ByteBufAllocator.DEFAULT, 3);
        assertEquals(one.repeat(3), three.toString(StandardCharsets.US_ASCII));
        assertEquals(1, three.refCnt());
        three.release(); // what a completed write does
        assertEquals(0, three.refCnt());
    }

    @Test
    void substitutionsAreDrawnAnewForEachRequestOfAWrite() {
        RequestEncoder encoder = new RequestEncoder(RequestTemplate.get("http://127.0.0.1:8080/kv/g{seq}"), 1, 2, 1);
        ByteBuf two = encoder.next(ByteBufAllocator.DEFAULT, 2);
        assertEquals("GET /kv/g1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\nGET /kv/g3 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
                two.toString(StandardCharsets.US_ASCII));
        two.release();
    }
}
