package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The request blocks decode, block after block, with Netty's HPACK decoder (the server's side of one
 * connection): the dynamic table is filled by the first block and named by the later ones, a server
 * table too small is signalled and left alone, and a block longer than a frame goes on in CONTINUATION.
 */
class HpackRequestBlockTest {

    private static final List<HpackRequestBlock.Field> FIELDS = List.of(
            new HpackRequestBlock.Field(":method", "GET"),
            new HpackRequestBlock.Field(":scheme", "https"),
            new HpackRequestBlock.Field(":authority", "www.example.com:8443"),
            new HpackRequestBlock.Field(":path", "/plaintext"),
            new HpackRequestBlock.Field("user-agent", "loadlab"),
            new HpackRequestBlock.Field("x-trace", "abc"),
            new HpackRequestBlock.Field("accept", ""));

    /** One server connection's decoder: its dynamic table lives across blocks. */
    private final DefaultHttp2HeadersDecoder server = new DefaultHttp2HeadersDecoder(true, 1 << 20);

    @Test
    void theFirstBlockFillsTheTableAndLaterBlocksNameEachFieldInOneByte() throws Exception {
        HpackRequestBlock block = new HpackRequestBlock(FIELDS, false);
        HpackRequestBlock.Table table = new HpackRequestBlock.Table();
        table.reset(block);
        ByteBuf first = write(block, table, null);
        int firstLength = first.readableBytes();
        assertEquals(FIELDS, decode(first));
        for (int i = 0; i < 3; i++) {
            ByteBuf later = write(block, table, null);
            assertEquals(FIELDS.size(), later.readableBytes(), "one index a field");
            assertEquals(FIELDS, decode(later));
        }
        assertTrue(firstLength > 3 * FIELDS.size(), "the first block carries the literals: " + firstLength);
        assertTrue(table.usesTable());
    }

    @Test
    void aSubstitutedPathIsALiteralOfEveryBlockBetweenThePseudoAndTheOtherFields() throws Exception {
        List<HpackRequestBlock.Field> fixed = new ArrayList<>(FIELDS);
        fixed.remove(3);
        HpackRequestBlock block = new HpackRequestBlock(fixed, true);
        HpackRequestBlock.Table table = new HpackRequestBlock.Table();
        table.reset(block);
        for (String path : List.of("/kv/1", "/kv/22", "/kv/" + "9".repeat(300))) {
            List<HpackRequestBlock.Field> expected = new ArrayList<>(fixed);
            expected.add(3, new HpackRequestBlock.Field(":path", path));
            assertEquals(expected, decode(write(block, table, path)));
        }
    }

    @Test
    void aServerTableTooSmallIsSignalledAtTheNextBlockAndLeftAloneAfter() throws Exception {
        HpackRequestBlock block = new HpackRequestBlock(FIELDS, false);
        HpackRequestBlock.Table table = new HpackRequestBlock.Table();
        table.reset(block);
        assertEquals(FIELDS, decode(write(block, table, null)));
        // The server lowers its table to nothing (its SETTINGS, acknowledged): its decoder now wants
        // a size update first, as RFC 7541 section 4.2 says.
        server.configuration().maxHeaderTableSize(0);
        table.serverLimit(0, block);
        assertFalse(table.usesTable());
        ByteBuf next = write(block, table, null);
        assertEquals(0x20, next.getByte(0) & 0xff, "a dynamic table size update to 0");
        assertEquals(FIELDS, decode(next));
        assertEquals(FIELDS, decode(write(block, table, null)));
    }

    @Test
    void withoutTheSizeUpdateTheServerRefusesTheBlock() throws Exception {
        // The rule the previous test keeps: this is what a server does to a block that skips it.
        HpackRequestBlock block = new HpackRequestBlock(FIELDS, false);
        HpackRequestBlock.Table table = new HpackRequestBlock.Table();
        table.reset(block);
        decode(write(block, table, null));
        server.configuration().maxHeaderTableSize(0);
        ByteBuf stale = write(block, table, null);
        assertThrows(Http2Exception.class, () -> decode(stale));
    }

    @Test
    void fieldsTooLargeForTheDefaultTableAreNeverIndexed() throws Exception {
        List<HpackRequestBlock.Field> big = new ArrayList<>(FIELDS);
        big.add(new HpackRequestBlock.Field("cookie", "c".repeat(5_000)));
        HpackRequestBlock block = new HpackRequestBlock(big, false);
        HpackRequestBlock.Table table = new HpackRequestBlock.Table();
        table.reset(block);
        assertFalse(table.usesTable());
        ByteBuf one = write(block, table, null);
        int length = one.readableBytes();
        assertEquals(big, decode(one));
        ByteBuf two = write(block, table, null);
        assertEquals(length, two.readableBytes(), "the same literals every time");
        assertEquals(big, decode(two));
    }

    @Test
    void aBlockLongerThanAFrameGoesOnInContinuationFrames() throws Exception {
        Target target = RequestTemplate.get("https://127.0.0.1:8443/plaintext").target();
        RequestTemplate t = new RequestTemplate("GET", target, List.of("x-big: " + "~".repeat(40_000)), 0);
        H2Request request = new H2Request(t, new RequestEncoder(t, 0, 1, 1));
        HpackRequestBlock.Table table = new HpackRequestBlock.Table();
        table.reset(request.block());
        ByteBuf frames = request.headersFrame(ByteBufAllocator.DEFAULT, 7, table);
        ByteBuf block = Unpooled.buffer();
        List<String> seen = new ArrayList<>();
        try {
            while (frames.isReadable()) {
                int length = frames.readUnsignedMedium();
                int type = frames.readByte();
                int flags = frames.readByte();
                assertEquals(7, frames.readInt());
                assertTrue(length <= H2Request.MAX_FRAME);
                seen.add(type + "/" + flags);
                block.writeBytes(frames, length);
            }
        } finally {
            frames.release();
        }
        // HEADERS with END_STREAM, then CONTINUATIONs, the last with END_HEADERS (~ is no shorter in Huffman).
        assertEquals(List.of("1/1", "9/0", "9/4"), seen);
        Http2Headers headers = server.decodeHeaders(7, block);
        assertEquals("~".repeat(40_000), headers.get("x-big").toString());
        assertEquals("/plaintext", headers.path().toString());
        assertEquals("127.0.0.1:8443", headers.authority().toString());
    }

    private static ByteBuf write(HpackRequestBlock block, HpackRequestBlock.Table table, String path) {
        ByteBuf out = Unpooled.buffer();
        ByteBuf p = path == null ? Unpooled.EMPTY_BUFFER : Unpooled.copiedBuffer(path, StandardCharsets.US_ASCII);
        block.write(out, table, p, 0, p.readableBytes());
        return out;
    }

    private List<HpackRequestBlock.Field> decode(ByteBuf block) throws Http2Exception {
        Http2Headers headers = server.decodeHeaders(1, block);
        List<HpackRequestBlock.Field> fields = new ArrayList<>();
        for (Map.Entry<CharSequence, CharSequence> e : headers) {
            fields.add(new HpackRequestBlock.Field(e.getKey().toString(), e.getValue().toString()));
        }
        return fields;
    }
}
