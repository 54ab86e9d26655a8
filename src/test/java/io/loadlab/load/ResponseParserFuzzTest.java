package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Coverage-guided fuzzing of the response parser (Jazzer). Whatever the bytes and however they
 * are split, the parser never throws, reports only sane responses, and consumes every byte it is
 * given unless it stopped on an error. The suite fuzzes for 20 s (pom.xml runs this class in a
 * surefire execution of its own with {@code JAZZER_FUZZ=1}, since libFuzzer ends the JVM when it
 * is done; without that variable the test only replays its inputs under
 * src/test/resources/io/loadlab/load/ResponseParserFuzzTestInputs). For a long run, raise
 * {@code maxDuration} and run {@code mvn test -Dtest=ResponseParserFuzzTest}; a crash is saved as
 * an input there and then stays a regression test. The corpus grows in {@code .cifuzz-corpus/}.
 */
class ResponseParserFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void parserNeverThrowsAndReportsOnlySaneResponses(FuzzedDataProvider data) {
        boolean head = data.consumeBoolean();
        int pieces = data.consumeInt(1, 8);
        ResponseParser parser = new ResponseParser(head);
        long[] responses = {0};
        ResponseParser.Listener listener = (status, body, close, matched) -> {
            assertTrue(status >= 100 && status <= 999, "status " + status);
            assertTrue(body >= 0, "body " + body);
            assertTrue(!head || body == 0, "a HEAD answer has no body");
            responses[0]++;
            return true;
        };
        String error = null;
        for (int i = 0; i < pieces && error == null; i++) {
            byte[] chunk = i == pieces - 1 ? data.consumeRemainingAsBytes() : data.consumeBytes(data.consumeInt(0, 4096));
            ByteBuf buf = Unpooled.wrappedBuffer(chunk);
            try {
                error = parser.feed(buf, listener);
                assertTrue(error != null || !buf.isReadable(), "without an error every byte is consumed");
            } finally {
                buf.release();
            }
        }
        if (error == null) {
            parser.onClose(listener);
        }
    }
}
