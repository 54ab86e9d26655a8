package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.util.Arrays;

/**
 * Coverage-guided fuzzing of the HPACK decoder of answers (Jazzer), like
 * {@code ResponseParserFuzzTest}: whatever header blocks a server sends, one connection's decoder
 * either returns headers whose {@code :status} is absent, a number in 100..999 or the refusal
 * {@code ?}, or throws its documented {@link Http2Exception}, never anything else; its dynamic table
 * never outgrows the limit this client set. After a connection error it is not fed again, as the
 * engine closes the connection then. An input is: one byte of settings (bit 0: lower the table limit
 * to 256 bytes first; bit 1: a header list limit of 64 bytes instead of 8 KiB), then blocks, each a
 * length byte and that many bytes (fewer when the input ends first). The suite fuzzes it for a few
 * seconds in the surefire execution that sets {@code JAZZER_FUZZ=1}; without it the test replays
 * src/test/resources/io/loadlab/load/H2StatusDecoderFuzzTestInputs (RFC 7541's examples among them).
 */
class H2StatusDecoderFuzzTest {

    @FuzzTest(maxDuration = "5s")
    void decoderReturnsSaneStatusesOrThrowsOnlyHttp2Exception(byte[] input) {
        if (input.length == 0) {
            return;
        }
        long maxTable = (input[0] & 1) != 0 ? 256 : 4096;
        H2StatusDecoder decoder = new H2StatusDecoder((input[0] & 2) != 0 ? 64 : 8192);
        int at = 1;
        try {
            decoder.maxHeaderTableSize(maxTable);
            int stream = 1;
            while (at < input.length) {
                int end = Math.min(input.length, at + 1 + (input[at] & 0xff));
                byte[] block = Arrays.copyOfRange(input, at + 1, end);
                at = end;
                if (!decode(decoder, stream, block, maxTable)) {
                    return;
                }
                stream += 2;
            }
        } catch (Http2Exception e) {
            assertTrue(e.getMessage() != null, "an Http2Exception says what was wrong");
        }
    }

    /** Decodes one block; false after a connection error, which ends the connection. */
    private static boolean decode(H2StatusDecoder decoder, int stream, byte[] block, long maxTable) throws Http2Exception {
        ByteBuf buf = Unpooled.wrappedBuffer(block);
        try {
            Http2Headers headers = decoder.decodeHeaders(stream, buf);
            CharSequence status = headers.status();
            if (status != null && !"?".contentEquals(status)) {
                int s = Integer.parseInt(status.toString());
                assertTrue(s >= 100 && s <= 999, "status " + s);
            }
            assertTrue(decoder.tableSize() <= maxTable, "table " + decoder.tableSize() + " over " + maxTable);
            return true;
        } catch (Http2Exception.StreamException e) {
            return true;
        } catch (Http2Exception e) {
            return false;
        } finally {
            buf.release();
        }
    }
}
