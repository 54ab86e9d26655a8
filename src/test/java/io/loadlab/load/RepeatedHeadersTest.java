package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The remembered header section: compared whole but for its Date field's value. */
class RepeatedHeadersTest {

    private static final String HEAD = "HTTP/1.1 200 OK\r\nServer: nginx\r\nDate: %s\r\nContent-Length: 3\r\n\r\n";
    private static final String FIRST = "Mon, 07 Dec 2026 12:00:00 GMT";

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static RepeatedHeaders remembered(String section) {
        RepeatedHeaders r = new RepeatedHeaders();
        byte[] b = ascii(section);
        r.remember(b, 0, b.length, new ResponseHead());
        return r;
    }

    private static boolean repeats(RepeatedHeaders r, String next) {
        byte[] b = ascii("xx" + next + "abc");
        return r.repeats(b, 2, b.length - 2);
    }

    @Test
    void aSectionWhoseDateAloneChangedMatches() {
        RepeatedHeaders r = remembered(HEAD.formatted(FIRST));
        assertTrue(repeats(r, HEAD.formatted(FIRST)));
        assertTrue(repeats(r, HEAD.formatted("Mon, 07 Dec 2026 12:00:01 GMT")));
        // The parse never reads the value: any bytes of the same length but a line feed keep the lines where they were.
        assertTrue(repeats(r, HEAD.formatted("x".repeat(FIRST.length() - 1) + "\r")));
    }

    @Test
    void aDateWithALineFeedOrOfAnotherLengthDoesNotMatch() {
        RepeatedHeaders r = remembered(HEAD.formatted(FIRST));
        assertFalse(repeats(r, HEAD.formatted("Mon, 07 Dec 2026 12:00:0\n GMT")));
        assertFalse(repeats(r, HEAD.formatted("Mon, 7 Dec 2026 12:00:01 GMT")));
        assertFalse(repeats(r, HEAD.formatted("Mon, 07 Dec 2026 12:00:011 GMT").substring(0, HEAD.formatted(FIRST).length())));
    }

    @Test
    void aChangeOutsideTheDateValueDoesNotMatch() {
        RepeatedHeaders r = remembered(HEAD.formatted(FIRST));
        String next = HEAD.formatted("Mon, 07 Dec 2026 12:00:01 GMT");
        assertFalse(repeats(r, next.replace("Length: 3", "Length: 4")));
        assertFalse(repeats(r, next.replace("200 OK", "201 OK")));
        assertFalse(repeats(r, next.replace("Date:", "Data:")));
        assertFalse(repeats(r, next.substring(0, next.length() - 1) + "x"));
    }

    @Test
    void withoutADateFieldTheWholeSectionIsCompared() {
        String noDate = "HTTP/1.1 200 OK\r\nX-Date: " + FIRST + "\r\nContent-Length: 3\r\n\r\n";
        RepeatedHeaders r = remembered(noDate);
        assertTrue(repeats(r, noDate));
        assertFalse(repeats(r, noDate.replace("12:00:00", "12:00:01")));
        // A status line that looks like a field is not one.
        String statusDate = "Date: x\r\nContent-Length: 3\r\n\r\n";
        RepeatedHeaders s = remembered(statusDate);
        assertFalse(repeats(s, "Date: y\r\nContent-Length: 3\r\n\r\n"));
        // Any case; no space before the colon (a field name has none).
        assertTrue(repeats(remembered(HEAD.formatted(FIRST).replace("Date:", "dAtE:")),
                HEAD.formatted("Tue, 08 Dec 2026 00:00:00 GMT").replace("Date:", "dAtE:")));
        String spaced = HEAD.formatted(FIRST).replace("Date:", "Date :");
        assertFalse(repeats(remembered(spaced), spaced.replace("12:00:00", "12:00:01")));
    }

    /** Through the parser: answers whose Date changes parse as before, and a Date hiding a line still fails. */
    @Test
    void theParserGivesTheSameAnswersWhenTheDateChanges() {
        String input = HEAD.formatted(FIRST) + "abc" + HEAD.formatted("Mon, 07 Dec 2026 12:00:01 GMT") + "abc"
                + HEAD.formatted("Mon, 07 Dec 2026 12:00:02 GMT").replace("Length: 3", "Length: 5") + "abcde"
                + HEAD.formatted("Mon, 07 Dec 2026 12:00:03 GMT") + "abc";
        ResponseParser p = new ResponseParser(false);
        ResponseParserTest.Recorder rec = new ResponseParserTest.Recorder();
        assertNull(ResponseParserTest.feed(p, input, rec));
        assertEquals(List.of(new ResponseParserTest.Resp(200, 3, false), new ResponseParserTest.Resp(200, 3, false),
                new ResponseParserTest.Resp(200, 5, false), new ResponseParserTest.Resp(200, 3, false)), rec.responses);

        String bad = HEAD.formatted(FIRST) + "abc" + HEAD.formatted("Mon, 07 Dec 2026 12:00:\nX GMT") + "abc";
        assertNotNull(ResponseParserTest.feed(new ResponseParser(false), bad, new ResponseParserTest.Recorder()),
                "the line 'X GMT' has no colon: the full parse must see it");
    }
}
