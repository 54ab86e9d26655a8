package io.loadlab.subject;

import static io.loadlab.subject.H2FrameClient.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.loadlab.subject.H2FrameClient.StreamLog;
import io.loadlab.workload.Workload;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.Http2Error;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The java-netty subject's HTTP/2 paths the contract check does not reach, over the wire frame by
 * frame (h2c with prior knowledge, and h2 over TLS by ALPN): a body above its limit (MAX_BYTES, 64 MiB)
 * answered 413 then RST_STREAM CANCEL on that stream alone, {@code expect: 100-continue}, and HEAD. The
 * subject is started from its manifest, once per protocol, and stopped by pid at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hang guard only: every wait below is bounded
class JavaNettyH2PathsTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir"));
    private static final int MAX_BYTES = 64 << 20; // NettyServer.MAX_BYTES

    @TempDir // static: one folder for the whole class, as the subjects live that long
    static Path tmp;
    private final Map<ServedProtocol, SubjectCheck.Started> running = new EnumMap<>(ServedProtocol.class);

    @ParameterizedTest
    @EnumSource(names = {"H2C", "H2_TLS"})
    void aBodyOverTheLimitIs413AndResetOnItsStreamAloneAndTheConnectionGoesOn(ServedProtocol p) throws Exception {
        try (H2FrameClient w = connect(p)) {
            // Declared too large, with expect: 100-continue: 413 at once, no 100, nothing is read of the body.
            StreamLog declared = w.open(w.request("PUT", "/kv/declared-" + p.label())
                    .setLong("content-length", MAX_BYTES + 1L).set("expect", "100-continue"), false);
            assertEquals(Http2Error.CANCEL.code(), await(declared.reset, "RST_STREAM after the declared 413"));
            assertEquals(List.of("413"), declared.statuses());
            assertEquals(List.of(true), declared.endStreams, "413 is HEADERS with END_STREAM, no DATA");
            // No content-length, the body runs past the limit: 413 once it does, then CANCEL stops the rest.
            StreamLog streamed = w.open(w.request("PUT", "/kv/streamed-" + p.label()), false);
            ByteBuf mib = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(new byte[1 << 20]));
            for (int i = 0; i <= MAX_BYTES >> 20; i++) {
                w.data(streamed, mib.duplicate(), i == MAX_BYTES >> 20);
            }
            assertEquals(Http2Error.CANCEL.code(), await(streamed.reset, "RST_STREAM after the streamed 413"));
            assertEquals(List.of("413"), streamed.statuses());
            assertEquals(List.of(true), streamed.endStreams);
            assertEquals(0, streamed.data.size());
            // The same connection serves the next streams, and the dropped bodies did not use up its
            // flow-control window: a body of 4 initial windows (256 KiB) still arrives.
            assertEquals("Hello, World!", w.get("/plaintext").text());
            byte[] value = new byte[256 << 10];
            StreamLog put = w.open(w.request("PUT", "/kv/after-" + p.label()).setInt("content-length", value.length), false);
            w.data(put, Unpooled.wrappedBuffer(value), true);
            assertEquals(List.of("201"), await(put.done, "the answer to the 256 KiB PUT").statuses());
            assertEquals(List.of("404"), w.get("/kv/declared-" + p.label()).statuses(), "nothing stored");
            assertEquals(List.of("404"), w.get("/kv/streamed-" + p.label()).statuses(), "nothing stored");
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"H2C", "H2_TLS"})
    void expect100ContinueIsAnsweredWith100BeforeTheBodyThenTheFinalStatus(ServedProtocol p) throws Exception {
        try (H2FrameClient w = connect(p)) {
            byte[] body = "hello".getBytes(StandardCharsets.US_ASCII);
            StreamLog s = w.open(w.request("PUT", "/kv/continue-" + p.label()).setInt("content-length", body.length)
                    .set("expect", "100-continue"), false);
            await(s.informational, "100 Continue"); // the body is sent only once 100 came
            assertEquals(List.of("100"), s.statuses());
            assertEquals(List.of(false), s.endStreams, "100 does not end the stream");
            w.data(s, Unpooled.wrappedBuffer(body), true);
            await(s.done, "the final status after the body");
            assertEquals(List.of("100", "201"), s.statuses());
            assertArrayEquals(body, w.get("/kv/continue-" + p.label()).data.toByteArray());
            // Without a body to wait for (END_STREAM on HEADERS) there is nothing to continue: no 100.
            StreamLog bodiless = w.open(w.request("GET", "/plaintext").set("expect", "100-continue"), true);
            assertEquals(List.of("200"), await(bodiless.done, "the answer to GET with expect").statuses());
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"H2C", "H2_TLS"})
    void headAnswersTheGetsHeadersAndContentLengthWithoutData(ServedProtocol p) throws Exception {
        try (H2FrameClient w = connect(p)) {
            for (String path : List.of("/plaintext", "/json", "/bytes/65536")) {
                StreamLog get = w.get(path);
                assertEquals(List.of("200"), get.statuses(), path);
                StreamLog head = w.open(w.request("HEAD", path), true);
                await(head.done, "the answer to HEAD " + path);
                assertEquals(List.of("200"), head.statuses(), path);
                assertEquals(Long.valueOf(get.data.size()), head.headers.get(0).getLong("content-length"), path);
                assertEquals(get.headers.get(0).get("content-type"), head.headers.get(0).get("content-type"), path);
                assertEquals(List.of(true), head.endStreams, path + ": END_STREAM on HEADERS");
                assertEquals(0, head.dataFrames, path + ": no DATA frame");
            }
        }
    }

    @AfterAll
    void stopTheSubjectsByPid() {
        for (SubjectCheck.Started s : running.values()) {
            s.close();
            assertFalse(s.process().handle().isAlive(), "java-netty is stopped by pid");
        }
    }

    private H2FrameClient connect(ServedProtocol p) throws Exception {
        if (p.tls()) {
            Assumptions.assumeTrue(ThrowawayCa.available(), "h2-tls needs openssl for the throw-away CA");
        }
        SubjectCheck.Started s = running.get(p);
        if (s == null) {
            Subject netty = Subjects.load(HOME.resolve("subjects"), Workload.builtinNames()).byName("java-netty")
                    .orElseThrow();
            Path work = Files.createTempDirectory(tmp, p.label());
            s = SubjectCheck.start(new SubjectLauncher(HOME), netty, Map.of(ServedProtocol.VARIANT, p.label()), work);
            running.put(p, s);
        }
        return new H2FrameClient(s.port(), s.caCert());
    }
}
