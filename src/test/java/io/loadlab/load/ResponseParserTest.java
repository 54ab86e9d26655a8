package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseParserTest {

    // ------------------------------------------------------------------------------------------
    // Helpers
    // ------------------------------------------------------------------------------------------

    /** One response as reported to the listener. */
    record Resp(int status, long bodyBytes, boolean close) {}

    /** Records responses; returns false from onResponse once {@code stopAfter} were seen. */
    static final class Recorder implements ResponseParser.Listener {
        final List<Resp> responses = new ArrayList<>();
        int stopAfter = Integer.MAX_VALUE;

        Recorder() {}

        Recorder(int stopAfter) {
            this.stopAfter = stopAfter;
        }

        @Override
        public boolean onResponse(int status, long bodyBytes, boolean close, boolean matched) {
            responses.add(new Resp(status, bodyBytes, close));
            return responses.size() < stopAfter;
        }
    }

    /** What feeding a whole input produced. */
    record Outcome(List<Resp> responses, boolean error, boolean idle) {}

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] filler(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            // Include CR and LF bytes in bodies so that body bytes are never mistaken for lines.
            b[i] = (byte) (i % 7 == 0 ? '\n' : i % 5 == 0 ? '\r' : 'a' + i % 26);
        }
        return b;
    }

    /** Feeds {@code data[from, to)} in one buffer, releases it, returns the parser's answer. */
    private static String feed(ResponseParser p, byte[] data, int from, int to,
            ResponseParser.Listener l) {
        ByteBuf buf = Unpooled.wrappedBuffer(data, from, to - from);
        try {
            String err = p.feed(buf, l);
            if (err == null && l instanceof Recorder r && r.stopAfter == Integer.MAX_VALUE) {
                assertFalse(buf.isReadable(), "a parser that was not stopped left bytes unread");
            }
            return err;
        } finally {
            buf.release(); // an empty range is the shared EMPTY_BUFFER, whose release is a no-op
        }
    }

    private static String feed(ResponseParser p, byte[] data, ResponseParser.Listener l) {
        return feed(p, data, 0, data.length, l);
    }

    /** Feeds {@code data} in one buffer (also for {@code RepeatedHeadersTest}); the parser's answer. */
    static String feed(ResponseParser p, String data, ResponseParser.Listener l) {
        return feed(p, ascii(data), l);
    }

    /** Feeds {@code data} split at the given (ascending) positions, then maybe signals close. */
    private static Outcome feedSplit(boolean head, byte[] data, boolean closeAtEnd, int... cuts) {
        ResponseParser p = new ResponseParser(head);
        Recorder r = new Recorder();
        int from = 0;
        boolean error = false;
        int[] ends = Arrays.copyOf(cuts, cuts.length + 1);
        ends[cuts.length] = data.length;
        for (int end : ends) {
            if (end > from || end == data.length) {
                if (feed(p, data, from, end, r) != null) {
                    error = true;
                    break;
                }
                from = end;
            }
        }
        if (!error && closeAtEnd) {
            p.onClose(r);
        }
        return new Outcome(r.responses, error, p.isIdle());
    }

    private static Outcome feedByteByByte(boolean head, byte[] data, boolean closeAtEnd) {
        ResponseParser p = new ResponseParser(head);
        Recorder r = new Recorder();
        boolean error = false;
        for (int i = 0; i < data.length; i++) {
            ByteBuf one = Unpooled.buffer(1);
            one.writeByte(data[i]);
            try {
                if (p.feed(one, r) != null) {
                    error = true;
                    break;
                }
                assertFalse(one.isReadable(), "byte " + i + " left unread");
            } finally {
                one.release();
            }
        }
        if (!error && closeAtEnd) {
            p.onClose(r);
        }
        return new Outcome(r.responses, error, p.isIdle());
    }

    private static Resp r(int status, long body, boolean close) {
        return new Resp(status, body, close);
    }

    // ------------------------------------------------------------------------------------------
    // Sample responses used by the "same result however split" tests
    // ------------------------------------------------------------------------------------------

    record Sample(String name, boolean head, byte[] bytes, boolean closeAtEnd, List<Resp> expected,
            boolean error) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String CHUNKED_BODY_HEAD =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";

    static List<Sample> samples() {
        List<Sample> s = new ArrayList<>();
        s.add(new Sample("content-length", false,
                ascii("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nServer: x\r\n\r\nhe\r\no"),
                false, List.of(r(200, 5, false)), false));
        s.add(new Sample("content-length zero", false,
                ascii("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"),
                false, List.of(r(201, 0, false)), false));
        s.add(new Sample("chunked with extensions and trailers", false, concat(
                ascii(CHUNKED_BODY_HEAD + "5;name=value\r\nhello\r\n1A ; a=b;c\r\n"),
                filler(26),
                ascii("\r\nf\r\n"), filler(15),
                ascii("\r\n0;last\r\nX-Trailer: one\r\nX-Other: two\r\n\r\n")),
                false, List.of(r(200, 5 + 26 + 15, false)), false));
        s.add(new Sample("chunked upper-case hex", false, concat(
                ascii(CHUNKED_BODY_HEAD + "1F\r\n"), filler(31), ascii("\r\n0\r\n\r\n")),
                false, List.of(r(200, 31, false)), false));
        s.add(new Sample("chunked lower-case hex", false, concat(
                ascii(CHUNKED_BODY_HEAD + "1f\r\n"), filler(31), ascii("\r\n0\r\n\r\n")),
                false, List.of(r(200, 31, false)), false));
        s.add(new Sample("HEAD", true,
                ascii("HTTP/1.1 200 OK\r\nContent-Length: 12345\r\n\r\n"
                        + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
                false, List.of(r(200, 0, false), r(200, 0, false)), false));
        s.add(new Sample("204 and 304", false,
                ascii("HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n"
                        + "HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n"),
                false, List.of(r(204, 0, false), r(304, 0, false)), false));
        s.add(new Sample("100 Continue then 200", false,
                ascii("HTTP/1.1 100 Continue\r\n\r\n"
                        + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"),
                false, List.of(r(200, 2, false)), false));
        s.add(new Sample("HTTP/1.0", false,
                ascii("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nabc"),
                false, List.of(r(200, 3, true)), false));
        s.add(new Sample("Connection: close", false,
                ascii("HTTP/1.1 200 OK\r\nCONNECTION: Close\r\ncontent-LENGTH: 3\r\n\r\nabc"),
                false, List.of(r(200, 3, true)), false));
        s.add(new Sample("body to close", false,
                ascii("HTTP/1.1 200 OK\r\nServer: x\r\n\r\nsome\r\nbody\r\n"),
                true, List.of(r(200, 12, true)), false));
        s.add(new Sample("pipelined", false, concat(
                ascii("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nabcd"),
                ascii(CHUNKED_BODY_HEAD + "3\r\nxyz\r\n0\r\n\r\n"),
                ascii("HTTP/1.1 204 No Content\r\n\r\n"),
                ascii("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"),
                ascii("HTTP/1.1 503 Busy\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx")),
                false, List.of(r(200, 4, false), r(200, 3, false), r(204, 0, false),
                        r(404, 0, false), r(503, 1, true)), false));
        s.add(new Sample("error: missing CRLF after chunk data", false,
                ascii(CHUNKED_BODY_HEAD + "5\r\nhelloX\r\n0\r\n\r\n"),
                false, List.of(), true));
        s.add(new Sample("error: header without colon", false,
                ascii("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nbroken\r\n\r\nx"),
                false, List.of(), true));
        s.add(new Sample("error after a good response", false,
                ascii("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1 2OO OK\r\n\r\n"),
                false, List.of(r(200, 1, false)), true));
        return s;
    }

    static Stream<Sample> sampleStream() {
        return samples().stream();
    }

    // ------------------------------------------------------------------------------------------
    // Splitting: whole vs. byte-at-a-time vs. every split point
    // ------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("sampleStream")
    void wholeBufferGivesExpectedResponses(Sample s) {
        Outcome whole = feedSplit(s.head(), s.bytes(), s.closeAtEnd());
        assertEquals(s.expected(), whole.responses());
        assertEquals(s.error(), whole.error());
        if (!s.error()) {
            assertTrue(whole.idle(), "parser should be idle after complete responses");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sampleStream")
    void byteAtATimeGivesSameResultAsWhole(Sample s) {
        Outcome whole = feedSplit(s.head(), s.bytes(), s.closeAtEnd());
        Outcome bytes = feedByteByByte(s.head(), s.bytes(), s.closeAtEnd());
        assertEquals(whole, bytes);
        assertEquals(s.expected(), bytes.responses());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sampleStream")
    void everyTwoWaySplitGivesSameResultAsWhole(Sample s) {
        Outcome whole = feedSplit(s.head(), s.bytes(), s.closeAtEnd());
        for (int k = 0; k <= s.bytes().length; k++) {
            assertEquals(whole, feedSplit(s.head(), s.bytes(), s.closeAtEnd(), k),
                    "split at " + k);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sampleStream")
    void everyThreeWaySplitGivesSameResultAsWhole(Sample s) {
        Outcome whole = feedSplit(s.head(), s.bytes(), s.closeAtEnd());
        int n = s.bytes().length;
        for (int i = 1; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                Outcome o = feedSplit(s.head(), s.bytes(), s.closeAtEnd(), i, j);
                if (!whole.equals(o)) {
                    assertEquals(whole, o, "split at " + i + " and " + j);
                }
            }
        }
    }

    @Test
    void splitBetweenCrAndLfEverywhere() {
        byte[] data = ascii(CHUNKED_BODY_HEAD + "4;x=y\r\nabcd\r\n0\r\nT: v\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nzz");
        Outcome whole = feedSplit(false, data, false);
        assertEquals(List.of(r(200, 4, false), r(200, 2, false)), whole.responses());
        int crs = 0;
        for (int i = 0; i < data.length; i++) {
            if (data[i] == '\r') {
                crs++;
                assertEquals(whole, feedSplit(false, data, false, i + 1), "after CR at " + i);
                assertEquals(whole, feedSplit(false, data, false, i), "before CR at " + i);
            }
        }
        assertTrue(crs > 10);
    }

    // ------------------------------------------------------------------------------------------
    // Content-Length
    // ------------------------------------------------------------------------------------------

    @Test
    void smallContentLengthBody() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world", r));
        assertEquals(List.of(r(200, 11, false)), r.responses);
        assertTrue(p.isIdle());
    }

    @Test
    void oneMebibyteContentLengthBodyWhole() {
        int size = 1 << 20;
        byte[] data = concat(ascii("HTTP/1.1 200 OK\r\nContent-Length: " + size + "\r\n\r\n"),
                filler(size));
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, data, r));
        assertEquals(List.of(r(200, size, false)), r.responses);
        assertTrue(p.isIdle());
    }

    @Test
    void oneMebibyteContentLengthBodyInUnevenPieces() {
        int size = 1 << 20;
        byte[] data = concat(
                ascii("HTTP/1.1 200 OK\r\nContent-Length: " + size + "\r\nConnection: close\r\n\r\n"),
                filler(size),
                ascii("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"));
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        int from = 0;
        int piece = 1;
        while (from < data.length) {
            int to = Math.min(data.length, from + piece);
            assertNull(feed(p, data, from, to, r));
            if (to < data.length - 100) {
                assertTrue(r.responses.isEmpty(), "reported before the body was complete");
                assertFalse(p.isIdle());
            }
            from = to;
            piece = piece * 3 + 7 > 100_000 ? 1 + piece % 977 : piece * 3 + 7;
        }
        assertEquals(List.of(r(200, size, true), r(202, 0, false)), r.responses);
        assertTrue(p.isIdle());
    }

    @Test
    void oneMebibyteChunkedBody() {
        int chunk = 64 * 1024;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ascii(CHUNKED_BODY_HEAD));
        for (int i = 0; i < 16; i++) {
            out.writeBytes(ascii(Integer.toHexString(chunk).toUpperCase() + "\r\n"));
            out.writeBytes(filler(chunk));
            out.writeBytes(ascii("\r\n"));
        }
        out.writeBytes(ascii("0\r\n\r\n"));
        byte[] data = out.toByteArray();
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, data, r));
        assertEquals(List.of(r(200, 1 << 20, false)), r.responses);

        // Same again in 1000-byte pieces.
        ResponseParser q = new ResponseParser(false);
        Recorder rq = new Recorder();
        for (int from = 0; from < data.length; from += 1000) {
            assertNull(feed(q, data, from, Math.min(data.length, from + 1000), rq));
        }
        assertEquals(r.responses, rq.responses);
    }

    @Test
    void contentLengthValueWithSurroundingWhitespaceAndRepeatedEqualValue() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: \t 3 \t\r\n"
                + "Content-Length:3\r\n\r\nabc", r));
        assertEquals(List.of(r(200, 3, false)), r.responses);
    }

    @Test
    void incompleteContentLengthBodyIsNotReported() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", r));
        assertTrue(r.responses.isEmpty());
        assertFalse(p.isIdle());
        assertFalse(p.onClose(r), "a truncated Content-Length body is not a complete response");
        assertTrue(r.responses.isEmpty());
    }

    // ------------------------------------------------------------------------------------------
    // Chunked
    // ------------------------------------------------------------------------------------------

    @Test
    void chunkedWithExtensionsAndTrailers() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, CHUNKED_BODY_HEAD
                + "3;ext=\"quoted\"\r\nabc\r\n"
                + "A\t;e\r\n0123456789\r\n"
                + "b;x;y=z\r\nhello world\r\n"
                + "0 ; end\r\n"
                + "Expires: never\r\nX-Checksum: 1234\r\n\r\n", r));
        assertEquals(List.of(r(200, 3 + 10 + 11, false)), r.responses);
        assertTrue(p.isIdle());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ff", "FF", "fF", "Ff", "00ff", "0FF"})
    void chunkSizeHexIsCaseInsensitive(String size) {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        byte[] data = concat(ascii(CHUNKED_BODY_HEAD + size + "\r\n"), filler(255),
                ascii("\r\n0\r\n\r\n"));
        assertNull(feed(p, data, r));
        assertEquals(List.of(r(200, 255, false)), r.responses);
    }

    @Test
    void chunkedWinsOverContentLength() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n"
                + "transfer-encoding: gzip, CHUNKED\r\n\r\n2\r\nab\r\n0\r\n\r\n", r));
        assertEquals(List.of(r(200, 2, false)), r.responses);
        assertTrue(p.isIdle());
    }

    @Test
    void chunkedWithoutTrailersAndEmptyBody() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, CHUNKED_BODY_HEAD + "0\r\n\r\n", r));
        assertEquals(List.of(r(200, 0, false)), r.responses);
    }

    @Test
    void chunkedIsNotCompleteBeforeTheEndOfTrailers() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, CHUNKED_BODY_HEAD + "2\r\nab\r\n0\r\nX-T: 1\r\n", r));
        assertTrue(r.responses.isEmpty());
        assertFalse(p.isIdle());
        assertNull(feed(p, "\r\n", r));
        assertEquals(List.of(r(200, 2, false)), r.responses);
        assertTrue(p.isIdle());
    }

    // ------------------------------------------------------------------------------------------
    // Pipelining
    // ------------------------------------------------------------------------------------------

    @Test
    void severalPipelinedResponsesInOneBuffer() {
        StringBuilder sb = new StringBuilder();
        List<Resp> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            switch (i % 3) {
                case 0 -> {
                    sb.append("HTTP/1.1 200 OK\r\nContent-Length: ").append(i).append("\r\n\r\n")
                            .append("x".repeat(i));
                    expected.add(r(200, i, false));
                }
                case 1 -> {
                    sb.append(CHUNKED_BODY_HEAD).append(Integer.toHexString(i)).append("\r\n")
                            .append("y".repeat(i)).append("\r\n0\r\n\r\n");
                    expected.add(r(200, i, false));
                }
                default -> {
                    sb.append("HTTP/1.1 304 Not Modified\r\nContent-Length: ").append(i)
                            .append("\r\n\r\n");
                    expected.add(r(304, 0, false));
                }
            }
        }
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, sb.toString(), r));
        assertEquals(expected, r.responses);
        assertTrue(p.isIdle());
    }

    @Test
    void closeFlagIsPerResponseInAPipeline() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\na"
                + "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb"
                + "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nc"
                + "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nd", r));
        assertEquals(List.of(r(200, 1, true), r(200, 1, false), r(200, 1, false),
                r(200, 1, true)), r.responses);
    }

    /**
     * The parser reuses the parse of a header section equal to the last one; a section that
     * differs in one byte (the length, the Connection header, the status) must be parsed again.
     */
    @Test
    void aRepeatedHeaderSectionIsReusedOnlyWhileItIsEqual() {
        String ok = "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 3\r\n\r\nabc";
        String longer = "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 5\r\n\r\nabcde";
        String closing = "HTTP/1.1 200 OK\r\nServer: s\r\nConnection: close\r\nContent-Length: 3\r\n\r\nabc";
        String notFound = "HTTP/1.1 404 OK\r\nServer: s\r\nContent-Length: 3\r\n\r\nabc";
        String chunked = "HTTP/1.1 200 OK\r\nServer: s\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n";
        String interim = "HTTP/1.1 100 Continue\r\n\r\n";
        String input = ok + ok + longer + longer + ok + closing + ok + notFound + notFound + chunked + chunked
                + interim + ok + interim + interim + ok;
        List<Resp> expected = List.of(r(200, 3, false), r(200, 3, false), r(200, 5, false), r(200, 5, false),
                r(200, 3, false), r(200, 3, true), r(200, 3, false), r(404, 3, false), r(404, 3, false),
                r(200, 2, false), r(200, 2, false), r(200, 3, false), r(200, 3, false));
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, input, r));
        assertEquals(expected, r.responses);
        assertTrue(p.isIdle());
        // Split at every place, the sections are remembered from different windows or not at all.
        for (int cut = 1; cut < input.length(); cut++) {
            ResponseParser q = new ResponseParser(false);
            Recorder rq = new Recorder();
            assertNull(feed(q, input.substring(0, cut), rq));
            assertNull(feed(q, input.substring(cut), rq));
            assertEquals(expected, rq.responses, "split at " + cut);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Responses without a body
    // ------------------------------------------------------------------------------------------

    @Test
    void headResponsesHaveNoBodyDespiteContentLength() {
        ResponseParser p = new ResponseParser(true);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 1048576\r\n\r\n"
                + "HTTP/1.1 404 Not Found\r\nContent-Length: 20\r\n\r\n", r));
        assertEquals(List.of(r(200, 0, false), r(404, 0, false)), r.responses);
        assertTrue(p.isIdle());
    }

    @Test
    void headResponseWithoutLengthDoesNotWaitForClose() {
        ResponseParser p = new ResponseParser(true);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "HTTP/1.1 200 OK\r\n\r\n", r));
        assertEquals(List.of(r(200, 0, false), r(200, 0, false)), r.responses);
        assertTrue(p.isIdle());
        assertFalse(p.onClose(r));
        assertEquals(2, r.responses.size());
    }

    @Test
    void headResponseToHttp10IsClose() {
        ResponseParser p = new ResponseParser(true);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\n", r));
        assertEquals(List.of(r(200, 0, true)), r.responses);
    }

    @Test
    void status204And304HaveNoBody() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 204 No Content\r\n\r\n"
                + "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"
                + "HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", r));
        assertEquals(List.of(r(204, 0, false), r(304, 0, false), r(204, 0, false),
                r(200, 2, false)), r.responses);
        assertTrue(p.isIdle());
    }

    @Test
    void interim100ContinueIsNotReported() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 100 Continue\r\n\r\n", r));
        assertTrue(r.responses.isEmpty());
        assertTrue(p.isIdle());
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc", r));
        assertEquals(List.of(r(200, 3, false)), r.responses);
    }

    @Test
    void severalInterimResponsesAndTheirHeadersDoNotLeak() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 100 Continue\r\nConnection: close\r\n\r\n"
                + "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n"
                + "Content-Length: 7\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", r));
        assertEquals(List.of(r(200, 2, false)), r.responses);
        assertTrue(p.isIdle());
    }

    @Test
    void interimResponseForHeadRequestIsNotReported() {
        ResponseParser p = new ResponseParser(true);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n", r));
        assertEquals(List.of(r(200, 0, false)), r.responses);
    }

    // ------------------------------------------------------------------------------------------
    // Connection handling
    // ------------------------------------------------------------------------------------------

    @Test
    void http10WithoutKeepAliveIsClose() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi", r));
        assertEquals(List.of(r(200, 2, true)), r.responses);
    }

    @Test
    void http10WithKeepAliveIsNotClose() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.0 200 OK\r\nconnection: Keep-Alive\r\n"
                + "Content-Length: 2\r\n\r\nhi", r));
        assertEquals(List.of(r(200, 2, false)), r.responses);
    }

    @Test
    void http11ConnectionCloseIsClose() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nhi",
                r));
        assertEquals(List.of(r(200, 2, true)), r.responses);
    }

    @Test
    void connectionTokensAreMatchedWholeNotAsSubstrings() {
        // Regression: "closed" once counted as "close" and "xchunked" as "chunked".
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nConnection: closed, upgrade\r\nContent-Length: 1\r\n\r\na"
                + "HTTP/1.1 200 OK\r\nConnection: keep-alive , Close\r\nContent-Length: 1\r\n\r\nb", r));
        assertEquals(List.of(r(200, 1, false), r(200, 1, true)), r.responses);
        ResponseParser q = new ResponseParser(false);
        Recorder r2 = new Recorder();
        assertNull(feed(q, "HTTP/1.1 200 OK\r\nTransfer-Encoding: xchunked\r\nContent-Length: 2\r\n\r\nhi", r2));
        assertEquals(List.of(r(200, 2, false)), r2.responses);
    }

    @Test
    void chunkedCountsOnlyAsTheLastTransferCoding() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n", r));
        assertEquals(List.of(r(200, 2, false)), r.responses);
    }

    @Test
    void endlessTrailersAreAProtocolError() {
        // Regression: trailer lines were not counted against the header-section limit.
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n", r));
        String error = null;
        for (int i = 0; i < 10_000 && error == null; i++) {
            error = feed(p, "X-Trailer: " + "t".repeat(100) + "\r\n", r);
        }
        assertNotNull(error);
        assertTrue(error.contains("trailers exceed"), error);
        assertEquals(List.of(), r.responses);
    }

    @Test
    void http11KeepAliveByDefault() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n",
                r));
        assertEquals(List.of(r(200, 0, false)), r.responses);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Connection: close", "connection: close", "CONNECTION: CLOSE",
        "cOnNeCtIoN:Close", "Connection: \tclose\t ", "Connection: Upgrade, Close"})
    void connectionHeaderNameAndValueCaseInsensitive(String header) {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\n" + header + "\r\nContent-Length: 1\r\n\r\nx", r));
        assertEquals(List.of(r(200, 1, true)), r.responses);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Length", "content-length", "CONTENT-LENGTH",
        "cOnTeNt-LeNgTh"})
    void contentLengthHeaderNameCaseInsensitive(String name) {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\n" + name + ": 4\r\n\r\nbody"
                + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", r));
        assertEquals(List.of(r(200, 4, false), r(200, 0, false)), r.responses);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Transfer-Encoding: chunked", "TRANSFER-ENCODING: CHUNKED",
        "transfer-encoding: Chunked"})
    void transferEncodingHeaderCaseInsensitive(String header) {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\n" + header + "\r\n\r\n3\r\nabc\r\n0\r\n\r\n", r));
        assertEquals(List.of(r(200, 3, false)), r.responses);
        assertTrue(p.isIdle());
    }

    @Test
    void similarHeaderNamesAreNotMistaken() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nX-Content-Length: abc\r\nContent-Lengths: 9\r\n"
                + "Proxy-Connection: close\r\nContent-Length: 1\r\n\r\nz", r));
        assertEquals(List.of(r(200, 1, false)), r.responses);
    }

    // ------------------------------------------------------------------------------------------
    // Body delimited by the connection close
    // ------------------------------------------------------------------------------------------

    @Test
    void bodyRunsUntilClose() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nfirst part ", r));
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc", r));
        assertTrue(r.responses.isEmpty(), "nothing is complete before the close");
        assertFalse(p.isIdle());
        assertTrue(p.onClose(r));
        assertEquals(List.of(r(200, 11 + 41, true)), r.responses);
        assertTrue(p.isIdle());
    }

    @Test
    void emptyBodyUntilClose() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.0 500 Oops\r\n\r\n", r));
        assertTrue(r.responses.isEmpty());
        assertTrue(p.onClose(r));
        assertEquals(List.of(r(500, 0, true)), r.responses);
    }

    @Test
    void onCloseWhenIdleOrMidHeadersReportsNothing() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertFalse(p.onClose(r));
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nX: y", r));
        assertEquals(1, r.responses.size());
        assertFalse(p.onClose(r));
        assertEquals(1, r.responses.size());
    }

    // ------------------------------------------------------------------------------------------
    // Status line details
    // ------------------------------------------------------------------------------------------

    @Test
    void reasonPhraseIsOptionalAndStatusRangeIsAccepted() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n"
                + "HTTP/1.1 404 \r\nContent-Length: 0\r\n\r\n"
                + "HTTP/1.1 999 Custom reason with spaces\r\nContent-Length: 0\r\n\r\n", r));
        assertEquals(List.of(r(200, 0, false), r(404, 0, false), r(999, 0, false)),
                r.responses);
    }

    @Test
    void emptyLinesBeforeStatusLineAreIgnored() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", r));
        assertEquals(List.of(r(200, 0, false)), r.responses);
    }

    @Test
    void bareLfLineEndingsAreAccepted() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\nContent-Length: 2\n\nok"
                + "HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n1\nx\n0\n\n", r));
        assertEquals(List.of(r(200, 2, false), r(200, 1, false)), r.responses);
    }

    @Test
    void isIdleTracksResponseBoundaries() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertTrue(p.isIdle());
        assertNull(feed(p, "H", r));
        assertFalse(p.isIdle());
        assertNull(feed(p, "TTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", r));
        assertFalse(p.isIdle());
        assertNull(feed(p, "o", r));
        assertFalse(p.isIdle());
        assertNull(feed(p, "k", r));
        assertTrue(p.isIdle());
        assertEquals(List.of(r(200, 2, false)), r.responses);
    }

    // ------------------------------------------------------------------------------------------
    // Errors
    // ------------------------------------------------------------------------------------------

    private static void assertError(String input) {
        assertError(ascii(input));
    }

    private static void assertError(byte[] input) {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        String err = feed(p, input, r);
        assertNotNull(err, "expected an error");
        assertFalse(err.isBlank());
        assertTrue(r.responses.isEmpty(), "no response may be reported: " + r.responses);
        // Same when fed one byte at a time.
        Outcome bytes = feedByteByByte(false, input, false);
        assertTrue(bytes.error(), "expected an error when fed byte by byte");
        assertTrue(bytes.responses().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "garbage\r\n",
        "FOO/1.1 200 OK\r\n",
        "http/1.1 200 OK\r\n",
        "HTTP/2 200 OK\r\n",
        "HTTP/2.0 200 OK\r\n",
        "HTTP/1.x 200 OK\r\n",
        "HTTP/1.1  200 OK\r\n",
        "HTTP/1.1 20 OK\r\n",
        "HTTP/1.1 2O0 OK\r\n",
        "HTTP/1.1 200OK\r\n",
        "HTTP/1.1 099 Too low\r\n",
        "HTTP/1.1 000\r\n",
        "HTTP/1.1\r\n",
        " HTTP/1.1 200 OK\r\n",
    })
    void garbageStatusLine(String statusLine) {
        assertError(statusLine + "Content-Length: 0\r\n\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"NoColonHere", ": empty name", "Content-Length 5", " "})
    void headerLineWithoutColonOrName(String header) {
        assertError("HTTP/1.1 200 OK\r\nServer: x\r\n" + header + "\r\nContent-Length: 0\r\n\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "12a", "-1", "+5", "", "  ", "1 2", "5, 5", "0x10", "1.0",
        "9999999999999999999", "99999999999999999999999"})
    void invalidContentLength(String value) {
        assertError("HTTP/1.1 200 OK\r\nContent-Length: " + value + "\r\n\r\n");
    }

    @Test
    void twoDifferentContentLengths() {
        assertError("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!");
        assertError("HTTP/1.1 200 OK\r\nContent-Length: 0\r\ncontent-length: 10\r\n\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"zz", "", " 5", ";ext", "5x", "-5", "g", "0x5", "1234567890ABCDEF0"})
    void malformedChunkSize(String size) {
        assertError(CHUNKED_BODY_HEAD + size + "\r\nhello\r\n0\r\n\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"helloX\r\n0\r\n\r\n", "hello0\r\n\r\n", "hellohello\r\n",
        "hello\r\r\n0\r\n\r\n", "hello \r\n0\r\n\r\n"})
    void missingCrlfAfterChunkData(String rest) {
        assertError(CHUNKED_BODY_HEAD + "5\r\n" + rest);
    }

    /** Header lines of 32 bytes each ("X-Fill-nnnnn: " + padding + CRLF). */
    private static String headerLines(int totalBytes) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (sb.length() + 32 <= totalBytes) {
            String start = String.format("X-Fill-%05d: ", i++);
            sb.append(start).append("v".repeat(30 - start.length())).append("\r\n");
        }
        return sb.toString();
    }

    @Test
    void headerSectionLargerThanLimitAsManySmallLines() {
        String lines = headerLines(ResponseParser.MAX_HEADER_BYTES + 1024);
        assertTrue(lines.length() > ResponseParser.MAX_HEADER_BYTES);
        assertError("HTTP/1.1 200 OK\r\n" + lines + "Content-Length: 0\r\n\r\n");
    }

    @Test
    void headerSectionLargerThanLimitIsRejectedBeforeItEnds() {
        // No blank line ever comes: the limit must still be enforced as bytes arrive.
        String lines = headerLines(ResponseParser.MAX_HEADER_BYTES + 1024);
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\n", r));
        byte[] data = ascii(lines);
        String err = null;
        int from = 0;
        while (err == null && from < data.length) {
            int to = Math.min(data.length, from + 999);
            err = feed(p, data, from, to, r);
            from = to;
        }
        assertNotNull(err);
        assertTrue(r.responses.isEmpty());
    }

    @Test
    void headerSectionOfExactlyTheLimitIsAccepted() {
        // The header section (header lines plus the final CRLF) of exactly MAX_HEADER_BYTES.
        String cl = "Content-Length: 1\r\n";
        int fillTo = ResponseParser.MAX_HEADER_BYTES - 2 - cl.length();
        String lines = headerLines(fillTo);
        int missing = fillTo - lines.length();
        assertTrue(missing >= 5, "test set-up");
        String last = "Y: " + "w".repeat(missing - 5) + "\r\n";
        String status = "HTTP/1.1 200 OK\r\n";
        byte[] data = ascii(status + lines + last + cl + "\r\nx");
        assertEquals(ResponseParser.MAX_HEADER_BYTES, data.length - status.length() - 1,
                "test set-up");
        Outcome whole = feedSplit(false, data, false);
        assertEquals(new Outcome(List.of(r(200, 1, false)), false, true), whole);
        assertEquals(whole, feedByteByByte(false, data, false));

        // One byte more is rejected.
        String longer = "Y: " + "w".repeat(missing - 4) + "\r\n";
        byte[] over = ascii(status + lines + longer + cl + "\r\nx");
        assertEquals(ResponseParser.MAX_HEADER_BYTES + 1, over.length - status.length() - 1,
                "test set-up");
        assertTrue(feedSplit(false, over, false).error());
        assertTrue(feedByteByByte(false, over, false).error());
    }

    @Test
    void oneHugeHeaderLineLongerThanMaxLine() {
        String huge = "X-Huge: " + "h".repeat(ResponseParser.MAX_LINE + 10);
        assertError("HTTP/1.1 200 OK\r\n" + huge + "\r\nContent-Length: 0\r\n\r\n");
    }

    @Test
    void oneHugeHeaderLineIsRejectedBeforeItsLineFeedArrives() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nX-Huge: ", r));
        String err = null;
        int sent = 0;
        while (err == null && sent < 4 * ResponseParser.MAX_LINE) {
            err = feed(p, "h".repeat(1000), r);
            sent += 1000;
        }
        assertNotNull(err);
        assertTrue(sent <= ResponseParser.MAX_LINE + 1000, "rejected too late: " + sent);
        assertTrue(r.responses.isEmpty());
    }

    @Test
    void headerLineJustUnderMaxLineIsAccepted() {
        String prefix = "X-Long: ";
        // MAX_LINE - 1 bytes of line plus the CR fits exactly in MAX_LINE.
        String line = prefix + "l".repeat(ResponseParser.MAX_LINE - 1 - prefix.length());
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\n" + line + "\r\nContent-Length: 1\r\n\r\nq", r));
        assertEquals(List.of(r(200, 1, false)), r.responses);
    }

    @Test
    void hugeStatusLineAndHugeChunkSizeLine() {
        assertError("HTTP/1.1 200 " + "r".repeat(ResponseParser.MAX_LINE) + "\r\n\r\n");
        assertError(CHUNKED_BODY_HEAD + "5;" + "e".repeat(ResponseParser.MAX_LINE) + "\r\nhello\r\n");
    }

    @Test
    void noResponseIsReportedAfterAnErrorInTheSameBuffer() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNotNull(feed(p, "HTTP/1.1 200 OK\r\nbad\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", r));
        assertTrue(r.responses.isEmpty());
    }

    // ------------------------------------------------------------------------------------------
    // Listener stopping
    // ------------------------------------------------------------------------------------------

    @Test
    void listenerReturningFalseStopsAndLeavesTheRestUnread() {
        String first = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc";
        String second = CHUNKED_BODY_HEAD + "2\r\nxy\r\n0\r\nT: 1\r\n\r\n";
        String third = "HTTP/1.1 204 No Content\r\n\r\n";
        String fourth = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
        byte[] all = ascii(first + second + third + fourth);
        ResponseParser p = new ResponseParser(false);
        ByteBuf buf = Unpooled.wrappedBuffer(all);
        try {
            Recorder stop1 = new Recorder(1);
            assertNull(p.feed(buf, stop1));
            assertEquals(List.of(r(200, 3, false)), stop1.responses);
            assertEquals(first.length(), buf.readerIndex(), "stopped after a Content-Length body");
            assertTrue(p.isIdle());

            Recorder stop2 = new Recorder(1);
            assertNull(p.feed(buf, stop2));
            assertEquals(List.of(r(200, 2, false)), stop2.responses);
            assertEquals(first.length() + second.length(), buf.readerIndex(),
                    "stopped after chunked trailers");

            Recorder stop3 = new Recorder(1);
            assertNull(p.feed(buf, stop3));
            assertEquals(List.of(r(204, 0, false)), stop3.responses);
            assertEquals(first.length() + second.length() + third.length(), buf.readerIndex(),
                    "stopped after a body-less response");

            Recorder rest = new Recorder();
            assertNull(p.feed(buf, rest));
            assertEquals(List.of(r(200, 0, false)), rest.responses);
            assertFalse(buf.isReadable());
        } finally {
            assertTrue(buf.release());
        }
    }

    @Test
    void listenerReturningFalseLeavesUnreadBytesEvenWhenTheyAreGarbage() {
        String first = "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx";
        ResponseParser p = new ResponseParser(false);
        ByteBuf buf = Unpooled.wrappedBuffer(ascii(first + "garbage that is not HTTP\r\n"));
        try {
            Recorder stop = new Recorder(1);
            assertNull(p.feed(buf, stop));
            assertEquals(List.of(r(200, 1, false)), stop.responses);
            assertEquals(first.length(), buf.readerIndex());
            assertTrue(p.isIdle());
        } finally {
            assertTrue(buf.release());
        }
    }

    @Test
    void listenerReturningFalseInsideOnePipelineKeepsCountsRight() {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 10; i++) {
            sb.append("HTTP/1.1 200 OK\r\nContent-Length: ").append(i).append("\r\n\r\n")
                    .append("b".repeat(i));
        }
        ResponseParser p = new ResponseParser(false);
        ByteBuf buf = Unpooled.wrappedBuffer(ascii(sb.toString()));
        try {
            List<Resp> all = new ArrayList<>();
            int feeds = 0;
            while (buf.isReadable()) {
                Recorder stop = new Recorder(3);
                assertNull(p.feed(buf, stop));
                all.addAll(stop.responses);
                feeds++;
            }
            assertEquals(4, feeds);
            List<Resp> expected = new ArrayList<>();
            for (int i = 1; i <= 10; i++) {
                expected.add(r(200, i, false));
            }
            assertEquals(expected, all);
        } finally {
            assertTrue(buf.release());
        }
    }

    @Test
    void listenerReturningFalseFromOnClose() {
        ResponseParser p = new ResponseParser(false);
        Recorder stop = new Recorder(1);
        assertNull(feed(p, "HTTP/1.1 200 OK\r\n\r\nabc", stop));
        assertTrue(p.onClose(stop));
        assertEquals(List.of(r(200, 3, true)), stop.responses);
        // A later connection (after reset) is parsed normally, not left stopped.
        p.reset();
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nz", r));
        assertEquals(List.of(r(200, 1, false)), r.responses);
    }

    // ------------------------------------------------------------------------------------------
    // reset()
    // ------------------------------------------------------------------------------------------

    static Stream<Arguments> errorInputs() {
        return Stream.of(
                Arguments.of("garbage status", ascii("NOT HTTP AT ALL\r\n")),
                Arguments.of("no colon", ascii("HTTP/1.1 200 OK\r\nbad header\r\n")),
                Arguments.of("bad content-length",
                        ascii("HTTP/1.1 200 OK\r\nContent-Length: x\r\n")),
                Arguments.of("bad chunk size", ascii(CHUNKED_BODY_HEAD + "qq\r\n")),
                Arguments.of("missing CRLF after chunk", ascii(CHUNKED_BODY_HEAD + "1\r\nab\r\n")),
                Arguments.of("huge line", ascii("HTTP/1.1 200 OK\r\nX: "
                        + "z".repeat(ResponseParser.MAX_LINE + 1))),
                Arguments.of("huge header section", ascii("HTTP/1.1 200 OK\r\n"
                        + headerLines(ResponseParser.MAX_HEADER_BYTES + 100))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errorInputs")
    void resetMakesParserUsableAfterError(String name, byte[] bad) {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        ByteBuf buf = Unpooled.wrappedBuffer(bad);
        try {
            assertNotNull(p.feed(buf, r), name);
        } finally {
            buf.release();
        }
        p.reset();
        assertTrue(p.isIdle());
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
                + CHUNKED_BODY_HEAD + "3\r\nabc\r\n0\r\n\r\n", r));
        assertEquals(List.of(r(200, 5, false), r(200, 3, false)), r.responses);
        assertTrue(p.isIdle());
    }

    @Test
    void resetDiscardsAPartialResponse() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.0 500 Err\r\nConnection: close\r\nContent-Length: 100\r\n\r\npart",
                r));
        assertFalse(p.isIdle());
        p.reset();
        assertTrue(p.isIdle());
        assertNull(feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", r));
        assertEquals(List.of(r(200, 2, false)), r.responses);

        // Partial line discarded too.
        assertNull(feed(p, "HTTP/1.1 404 Not Fo", r));
        assertFalse(p.isIdle());
        p.reset();
        assertTrue(p.isIdle());
        assertNull(feed(p, "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n", r));
        assertEquals(List.of(r(200, 2, false), r(201, 0, false)), r.responses);
    }

    @Test
    void resetDuringBodyToClose() {
        ResponseParser p = new ResponseParser(false);
        Recorder r = new Recorder();
        assertNull(feed(p, "HTTP/1.1 200 OK\r\n\r\nstuff", r));
        p.reset();
        assertFalse(p.onClose(r), "reset forgot the response running to the close");
        assertTrue(r.responses.isEmpty());
    }

    // ------------------------------------------------------------------------------------------
    // One window shared by the parsers of one event loop
    // ------------------------------------------------------------------------------------------

    /** Two header sections in turn, with lines long enough to be split between the pieces fed. */
    private static byte[] stream(String name, int answers) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < answers; i++) {
            int k = i / 2 % 2; // each section twice in a row, so that the parser reuses the one it remembers
            String body = name.repeat(k + 1);
            out.writeBytes(ascii("HTTP/1.1 " + (200 + k) + " OK\r\nX-" + name + ": " + "v".repeat(300 + 97 * k)
                    + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body));
        }
        return out.toByteArray();
    }

    @Test
    void parsersThatShareAWindowKeepTheirOwnSplitLinesAndRememberedHeaders() {
        byte[] a = stream("alpha", 40);
        byte[] b = stream("be", 40);
        Recorder aloneA = new Recorder();
        Recorder aloneB = new Recorder();
        assertNull(feed(new ResponseParser(false), a, aloneA));
        assertNull(feed(new ResponseParser(false), b, aloneB));

        byte[] shared = ResponseParser.newWindow();
        ResponseParser p = new ResponseParser(false, null, shared);
        ResponseParser q = new ResponseParser(false, null, shared);
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        // Uneven pieces, alternating between the two, so each one's lines are split while the other
        // one's bytes pass through the window.
        int fa = 0;
        int fb = 0;
        for (int piece = 1; fa < a.length || fb < b.length; piece = piece % 613 + 37) {
            int ta = Math.min(a.length, fa + piece);
            assertNull(feed(p, a, fa, ta, ra));
            fa = ta;
            int tb = Math.min(b.length, fb + piece + 11);
            assertNull(feed(q, b, fb, tb, rb));
            fb = tb;
        }
        assertEquals(40, ra.responses.size());
        assertEquals(aloneA.responses, ra.responses);
        assertEquals(aloneB.responses, rb.responses);
        assertTrue(p.isIdle());
        assertTrue(q.isIdle());
    }

    @Test
    void aWindowOfAnotherSizeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ResponseParser(false, null, new byte[16]));
    }

    /**
     * A connection's parser is what 10,000 connections multiply: with its own window and a full line
     * buffer it was 21 KB, 210 MB of heap in all. Measured as the bytes this thread allocates to make
     * parsers that share one window.
     */
    @Test
    void aParserThatSharesAWindowHoldsUnderOneKibibyte() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        byte[] shared = ResponseParser.newWindow();
        ResponseParser[] parsers = new ResponseParser[1000];
        long before = threads.getThreadAllocatedBytes(self);
        for (int i = 0; i < parsers.length; i++) {
            parsers[i] = new ResponseParser(false, null, shared);
        }
        long perParser = (threads.getThreadAllocatedBytes(self) - before) / parsers.length;
        assertTrue(perParser < 1024, "a parser took " + perParser + " bytes");
        assertNull(feed(parsers[999], "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", new Recorder()));
    }
}
