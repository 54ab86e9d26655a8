package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A workload's own request (headers, a given body) reaches the server byte for byte, and
 * {@code body-contains} is checked on every answer however the body is cut into reads, chunks and frames.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard, not a speed target
class BodyContainsTest {

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void theMatcherAgreesWithStringContainsWhereverTheBodyIsCut() {
        // Oracle: String.contains. A two-letter alphabet makes partial matches (and the fallbacks
        // of the automaton) frequent; every body is fed in two pieces at every cut.
        Random random = new Random(29);
        for (String needle : List.of("a", "ab", "aab", "abab", "abaab", "bbbab")) {
            BodyMatcher m = new BodyMatcher(ascii(needle));
            for (int trial = 0; trial < 300; trial++) {
                char[] body = new char[random.nextInt(14)];
                for (int i = 0; i < body.length; i++) {
                    body[i] = random.nextBoolean() ? 'a' : 'b';
                }
                String text = new String(body);
                byte[] bytes = ascii(text);
                for (int cut = 0; cut <= bytes.length; cut++) {
                    int state = m.feed(BodyMatcher.start(), bytes, 0, cut);
                    state = m.feed(state, Unpooled.wrappedBuffer(bytes), cut, bytes.length - cut);
                    assertEquals(text.contains(needle), m.found(state), "'" + needle + "' in '" + text + "' cut at " + cut);
                }
            }
        }
    }

    @Test
    void aNeedleAcrossChunksAndReadsIsFoundAndDoesNotCarryIntoTheNextAnswer() {
        // The first answer holds "needle" split over two chunks; the second ends with "nee" and the
        // third starts with "dle": neither of those two holds it, though their bytes are adjacent.
        String first = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nxnee\r\n4\r\ndlex\r\n0\r\n\r\n";
        String second = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nxxnee";
        String third = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\ndlexx";
        byte[] all = ascii(first + second + third);
        List<Boolean> matched = new ArrayList<>();
        ResponseParser parser = new ResponseParser(false, new BodyMatcher(ascii("needle")));
        for (byte b : all) {
            ByteBuf one = Unpooled.wrappedBuffer(new byte[] {b});
            try {
                assertEquals(null, parser.feed(one, (status, body, close, ok) -> matched.add(ok)));
            } finally {
                one.release();
            }
        }
        assertEquals(List.of(true, false, false), matched);
        matched.clear();
        ByteBuf whole = Unpooled.wrappedBuffer(all);
        parser.feed(whole, (status, body, close, ok) -> matched.add(ok));
        whole.release();
        assertEquals(List.of(true, false, false), matched, "fed at once");
    }

    @Test
    void headersAndAGivenBodyAreSentAsDeclaredAndAnswersWithoutTheTextAreBodyErrors() throws IOException {
        byte[] json = "{\"item\": \"tea\", \"qty\": 2, \"note\": \"caf\u00e9\"}".getBytes(StandardCharsets.UTF_8);
        List<TestHttpServer.Request> seen = new CopyOnWriteArrayList<>();
        try (TestHttpServer server = TestHttpServer.start((req, out) -> {
            if (seen.size() < 5) {
                seen.add(req);
            }
            // Every third answer lacks the text; all have the expected status.
            TestHttpServer.respond(out, 201, req.number() % 3 == 0 ? "{\"error\": 1}" : "{\"id\": " + req.number() + "}");
            return true;
        })) {
            RequestTemplate request = RequestTemplate.withBody("POST", Target.parse(server.url("/api/orders")),
                    List.of("Content-Type: application/json", "X-Trace: 7"), json);
            LoadResult r = NettyLoad.run(LoadSpec.builder().request(request).connectTimeout(Duration.ofSeconds(2))
                    .connections(3).threads(1).requests(300)
                    .expect(new Expectation(Set.of(201), OptionalLong.empty(), Optional.of("\"id\"")))
                    .build());
            assertEquals(300, r.requests());
            assertEquals(Map.of(201, 300L), r.statusCodes());
            assertEquals(100, r.errors().body(), r.errors().toString());
            assertEquals(100, r.errors().total(), "no other error: " + r.errors());
            TestHttpServer.Request first = seen.get(0);
            assertEquals("POST", first.method());
            assertArrayEquals(json, first.body());
            assertTrue(first.headers().contains("X-Trace: 7"), first.headers().toString());
            assertTrue(first.headers().contains("Content-Length: " + json.length), first.headers().toString());
        }
    }

    @Test
    void overHttp2EachStreamsDataIsLookedInto() throws Exception {
        try (H2TestServer s = H2TestServer.start()) {
            for (String text : List.of("ok", "nope")) {
                LoadResult r = NettyLoad.run(LoadSpec.builder().url(s.url("/")).protocol(Protocol.H2C).streams(4)
                        .connections(2).threads(1).requests(200)
                        .expect(new Expectation(Set.of(200), OptionalLong.empty(), Optional.of(text))).build());
                assertEquals(200, r.requests());
                assertEquals(text.equals("ok") ? 0 : 200, r.errors().body(), text + ": " + r.errors());
            }
        }
    }

    @Test
    void framingHeadersAreTheEnginesAndAnEmptyNeedleIsRefused() {
        Target t = Target.parse("http://127.0.0.1:1/");
        LoadException framing = assertThrows(LoadException.class,
                () -> new RequestTemplate("POST", t, List.of("content-length: 3"), 3));
        assertTrue(framing.getMessage().contains("leave it out"), framing.getMessage());
        assertThrows(LoadException.class,
                () -> new Expectation(Set.of(200), OptionalLong.empty(), Optional.of("")));
    }
}
