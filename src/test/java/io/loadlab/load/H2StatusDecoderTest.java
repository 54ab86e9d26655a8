package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.util.AsciiString;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The engine's HPACK decoder against RFC 7541's own example and against Netty's encoder and decoder:
 * the same {@code :status} and {@code content-length} for every block, a dynamic table that stays in
 * step through evictions and size changes, and the errors of malformed blocks.
 */
class H2StatusDecoderTest {

    private static final long LIST_SIZE = 8192;

    private static ByteBuf hex(String s) {
        return Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(s.replace(" ", "")));
    }

    @Test
    void rfc7541ResponseExamplesWithHuffmanDecodeToTheirStatusesAndTableSizes() throws Exception {
        // RFC 7541 C.6: three responses through one decoder whose table holds 256 bytes.
        H2StatusDecoder d = new H2StatusDecoder(LIST_SIZE);
        d.maxHeaderTableSize(256);
        d.decodeHeaders(1, hex("3fe101")); // a size update to 256 first, which the lowered limit asks for
        assertEquals("302", d.decodeHeaders(1, hex("488264025885aec3771a4b6196d07abe941054d444a8200595040b8166"
                + "e082a62d1bff6e919d29ad171863c78f0b97c8e9ae82ae43d3")).status().toString());
        assertEquals(222, d.tableSize(), "C.6.1: table size 222");
        assertEquals("307", d.decodeHeaders(3, hex("4883640effc1c0bf")).status().toString());
        assertEquals(222, d.tableSize(), "C.6.2: 307 evicts the 302 entry, size stays 222");
        Http2Headers third = d.decodeHeaders(5, hex("88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab"
                + "77ad94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007"));
        assertEquals("200", third.status().toString());
        assertEquals(215, d.tableSize(), "C.6.3: table size 215");
    }

    @Test
    void everyBlockOfNettysEncoderGivesNettysStatusAndContentLength() throws Exception {
        for (int huffmanThreshold : new int[] {0, 512}) {
            for (int tableSize : new int[] {4096, 256}) {
                agreeWithNetty(new Random(7 + huffmanThreshold + tableSize), huffmanThreshold, tableSize);
            }
        }
    }

    private static void agreeWithNetty(Random random, int huffmanThreshold, int tableSize) throws Exception {
        // Some fields never indexed (sensitive), the rest indexed; statuses outside the static table
        // get dynamic entries that later blocks refer to, so a table out of step shows as a wrong status.
        Http2HeadersEncoder.SensitivityDetector sensitive = (name, value) -> name.toString().startsWith("x-secret");
        DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(sensitive, false, 16, huffmanThreshold);
        DefaultHttp2HeadersDecoder netty = new DefaultHttp2HeadersDecoder(false, LIST_SIZE);
        H2StatusDecoder ours = new H2StatusDecoder(LIST_SIZE);
        int[] statuses = {200, 201, 204, 302, 404, 429, 500, 503, 200, 200};
        for (int block = 0; block < 1500; block++) {
            if (block == 0 || block == 700) {
                // This client sets its table's size (lowers it at block 700): the encoder starts its next
                // block with a size update.
                int size = block == 0 ? tableSize : tableSize / 2;
                encoder.maxHeaderTableSize(size);
                netty.configuration().maxHeaderTableSize(size);
                ours.maxHeaderTableSize(size);
            }
            Http2Headers h = new DefaultHttp2Headers(false).status(Integer.toString(statuses[random.nextInt(statuses.length)]));
            h.add("server", "nginx/1.22.1");
            h.add("date", "Tue, 01 Dec 2026 19:" + (10 + random.nextInt(50)) + ":0" + random.nextInt(10) + " GMT");
            if (random.nextBoolean()) {
                h.add("content-length", Integer.toString(random.nextInt(100_000)));
            }
            for (int i = random.nextInt(4); i > 0; i--) {
                String name = (random.nextInt(3) == 0 ? "x-secret-" : "x-") + random.nextInt(40);
                h.add(name, randomValue(random, 1 + random.nextInt(random.nextInt(10) == 0 ? 300 : 30)));
            }
            ByteBuf wire = Unpooled.buffer();
            encoder.encodeHeaders(1, h, wire);
            Http2Headers expected = netty.decodeHeaders(1, wire.duplicate());
            Http2Headers got = ours.decodeHeaders(1, wire);
            assertEquals(expected.status().toString(), got.status().toString(), "block " + block);
            CharSequence length = expected.get("content-length");
            assertEquals(length == null ? null : length.toString(),
                    got.get("content-length") == null ? null : got.get("content-length").toString(), "block " + block);
            assertEquals(length == null ? 1 : 2, got.size(), "only :status and content-length are kept");
        }
    }

    /** Printable and high bytes, so that Huffman codes of every length occur. */
    private static AsciiString randomValue(Random random, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (random.nextInt(8) == 0 ? 128 + random.nextInt(128) : 32 + random.nextInt(95));
        }
        return new AsciiString(b);
    }

    @Test
    void theHuffmanCodeRebuiltFromLengthsIsTheOneNettyDecodes() throws Exception {
        // Every byte value, Huffman-coded with this class's codes into a literal field, decoded by Netty.
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        byte[] coded = huffman(all);
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x00); // literal without indexing, new name
        block.write(3);
        block.writeBytes("x-v".getBytes(StandardCharsets.US_ASCII));
        writeInt(block, 0x80, 7, coded.length);
        block.writeBytes(coded);
        Http2Headers decoded = new DefaultHttp2HeadersDecoder(false, 1 << 20).decodeHeaders(1,
                Unpooled.wrappedBuffer(block.toByteArray()));
        assertArrayEquals(all, ((AsciiString) decoded.get("x-v")).toByteArray());
        byte[] out = new byte[256];
        assertEquals(256, HpackHuffman.decode(Unpooled.wrappedBuffer(coded), 0, coded.length, out));
        assertArrayEquals(all, out);
    }

    @Test
    void huffmanPaddingOtherThanEosOnesAndAnEosSymbolAreCompressionErrors() {
        byte[] digits = huffman("200".getBytes(StandardCharsets.US_ASCII)); // 15 bits and one bit of padding
        byte[] zeroPadding = digits.clone();
        zeroPadding[zeroPadding.length - 1] &= (byte) 0xfe;
        byte[] longPadding = java.util.Arrays.copyOf(digits, digits.length + 1);
        longPadding[digits.length] = (byte) 0xff;
        byte[] eos = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}; // EOS is 30 ones
        for (byte[] bad : new byte[][] {zeroPadding, longPadding, eos}) {
            Http2Exception e = assertThrows(Http2Exception.class,
                    () -> HpackHuffman.decode(Unpooled.wrappedBuffer(bad), 0, bad.length, null));
            assertEquals(Http2Error.COMPRESSION_ERROR, e.error());
        }
    }

    @Test
    void aRepeatedValueReusesItsLengthAndADifferentOneOfTheSameCodedLengthDoesNot() throws Exception {
        // "0000000" (7 x 5 bits) and "%%%%%%" (6 x 6 bits) both take 5 bytes Huffman-coded.
        byte[] seven = huffman("0000000".getBytes(StandardCharsets.US_ASCII));
        byte[] six = huffman("%%%%%%".getBytes(StandardCharsets.US_ASCII));
        assertEquals(seven.length, six.length);
        H2StatusDecoder d = new H2StatusDecoder(LIST_SIZE);
        long size = 0;
        for (byte[] value : new byte[][] {seven, seven, six, seven}) {
            ByteArrayOutputStream block = new ByteArrayOutputStream();
            block.write(0x88); // :status 200
            block.write(0x40 | 54); // literal with incremental indexing, the static table's "server"
            writeInt(block, 0x80, 7, value.length);
            block.writeBytes(value);
            assertEquals("200", d.decodeHeaders(1, Unpooled.wrappedBuffer(block.toByteArray())).status().toString());
            size += "server".length() + (value == seven ? 7 : 6) + 32;
            assertEquals(size, d.tableSize(), "each entry sized by its own decoded length");
        }
    }

    @Test
    void aListOverTheLimitIsAStreamErrorAndTheNextBlockStillDecodes() throws Exception {
        DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, true);
        H2StatusDecoder ours = new H2StatusDecoder(1024);
        ByteBuf big = Unpooled.buffer();
        encoder.encodeHeaders(1, new DefaultHttp2Headers().status("201").add("x-big", "y".repeat(1000)), big);
        Http2Exception e = assertThrows(Http2Exception.class, () -> ours.decodeHeaders(1, big));
        assertEquals(Http2Error.PROTOCOL_ERROR, e.error());
        assertInstanceOf(Http2Exception.StreamException.class, e, "a stream's error, not the connection's");
        ByteBuf next = Unpooled.buffer();
        encoder.encodeHeaders(3, new DefaultHttp2Headers().status("201"), next); // :status 201 by its dynamic index
        assertEquals("201", ours.decodeHeaders(3, next).status().toString());
    }

    @Test
    void indicesBeyondTheTablesAndCutIntegersAreCompressionErrors() throws Exception {
        for (String bad : new String[] {"80", "be", "7f00", "ff", "ffffffffff0f", "3fe21f"}) {
            H2StatusDecoder d = new H2StatusDecoder(LIST_SIZE);
            Http2Exception e = assertThrows(Http2Exception.class, () -> d.decodeHeaders(1, hex(bad)), bad);
            assertEquals(Http2Error.COMPRESSION_ERROR, e.error(), bad);
        }
        // A block without :status decodes; the codec, not the decoder, refuses it.
        assertNull(new H2StatusDecoder(LIST_SIZE).decodeHeaders(1, hex("5c0133")).status());
        assertEquals("3", new H2StatusDecoder(LIST_SIZE).decodeHeaders(1, hex("5c0133")).get("content-length").toString());
    }

    /**
     * Found by {@code H2StatusDecoderFuzzTest}: a literal field whose block ends before its name or
     * value string (not even the string's length byte) threw IndexOutOfBoundsException, which the
     * codec does not turn into a GOAWAY.
     */
    @Test
    void aLiteralCutBeforeItsNameOrValueIsACompressionError() {
        // new name with indexing / without indexing / never indexed, then a static name (:status, 8)
        // and a name from the table whose value is missing.
        for (String bad : new String[] {"40", "00", "10", "48", "08", "1f00", "4003616263"}) {
            H2StatusDecoder d = new H2StatusDecoder(LIST_SIZE);
            Http2Exception e = assertThrows(Http2Exception.class, () -> d.decodeHeaders(1, hex(bad)), bad);
            assertEquals(Http2Error.COMPRESSION_ERROR, e.error(), bad);
            assertEquals("HPACK: a string cut off", e.getMessage(), bad);
        }
    }

    private static byte[] huffman(byte[] in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long bits = 0;
        int n = 0;
        for (byte b : in) {
            int s = b & 0xff;
            bits = bits << HpackHuffman.length(s) | HpackHuffman.code(s);
            n += HpackHuffman.length(s);
            while (n >= 8) {
                out.write((int) (bits >>> (n - 8)));
                n -= 8;
            }
        }
        if (n > 0) {
            out.write((int) (bits << (8 - n) | (1 << (8 - n)) - 1)); // padded with EOS's leading ones
        }
        return out.toByteArray();
    }

    private static void writeInt(ByteArrayOutputStream out, int flags, int prefixBits, int value) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            out.write(flags | value);
            return;
        }
        out.write(flags | max);
        value -= max;
        while (value >= 128) {
            out.write(value % 128 + 128);
            value /= 128;
        }
        out.write(value);
    }
}
