package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Printed text goes out in few, whole-character batches, up to the limit, with notes on what was left out. */
class CellOutputTest {

    /** Stands for the base kernel's stream: each flush is one stream message. */
    private static final class Messages extends OutputStream {
        final List<byte[]> sent = new ArrayList<>();
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

        @Override
        public void write(int b) {
            pending.write(b);
        }

        @Override
        public void flush() {
            if (pending.size() > 0) {
                sent.add(pending.toByteArray());
                pending.reset();
            }
        }

        String text() {
            StringBuilder b = new StringBuilder();
            sent.forEach(m -> b.append(new String(m, StandardCharsets.UTF_8)));
            return b.toString();
        }
    }

    private final Messages out = new Messages();
    private final Messages err = new Messages();
    private final ByteArrayOutputStream afterOut = new ByteArrayOutputStream();
    private final CellOutput cell = new CellOutput(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), new PrintStream(afterOut, true, StandardCharsets.UTF_8),
            System.err);

    @Test
    void manyLinesGoOutInFewMessages() {
        StringBuilder printed = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            String line = "line " + i;
            cell.stdout.println(line);
            printed.append(line).append('\n');
        }
        cell.close();
        assertEquals(printed.toString(), out.text());
        assertTrue(out.sent.size() <= printed.length() / CellOutput.BATCH_BYTES + 1, out.sent.size() + " messages");
        assertEquals(List.of(), err.sent);
    }

    @Test
    void sendSendsWhatHasGathered() {
        cell.stdout.print("no line end yet");
        cell.stderr.println("warning");
        assertEquals(List.of(), out.sent);
        cell.send();
        assertEquals("no line end yet", out.text());
        assertEquals("warning\n", err.text());
        cell.send();
        assertEquals(1, out.sent.size(), "nothing new, no message");
    }

    @Test
    void aCharacterCutInTwoWaitsForItsOtherHalf() throws Exception {
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8);
        cell.stdout.write(euro, 0, 1);
        cell.send();
        assertEquals(List.of(), out.sent);
        cell.stdout.write(euro, 1, 2);
        cell.send();
        assertArrayEquals(euro, out.sent.get(0));
        // Batches of multi-byte text: every message decodes on its own.
        cell.stdout.print("äö€😀".repeat(40_000));
        cell.close();
        for (byte[] m : out.sent) {
            decodes(m);
        }
        assertEquals("€" + "äö€😀".repeat(40_000), out.text());
    }

    @Test
    void aCellShowsOneMibAndSaysHowMuchWasLeftOut() {
        String line = "x".repeat(99) + "\n";
        for (int i = 0; i < 30_000; i++) {
            cell.stdout.print(line);
        }
        cell.stderr.print("also left out");
        cell.close();
        long printed = 30_000L * line.length() + "also left out".length();
        assertEquals(line.repeat(30_000).substring(0, CellOutput.LIMIT_BYTES), out.text());
        assertEquals("\n[output truncated: a cell shows at most 1 MiB of printed text; the rest of this cell's output is "
                + "left out]\n" + String.format(Locale.ROOT, "\n[output truncated: %,d bytes of this cell's output were left out]\n",
                printed - CellOutput.LIMIT_BYTES), err.text());
        assertArrayEquals(new long[] {CellOutput.LIMIT_BYTES, printed - CellOutput.LIMIT_BYTES}, cell.counts());
    }

    @Test
    void theLimitDoesNotCutACharacterNorLeaveAGap() throws Exception {
        cell.stdout.print("a".repeat(CellOutput.LIMIT_BYTES - 1) + "€");
        cell.stdout.print("b");
        cell.close();
        String shown = out.text();
        assertEquals("a".repeat(CellOutput.LIMIT_BYTES - 1), shown);
        for (byte[] m : out.sent) {
            decodes(m);
        }
    }

    @Test
    void textPrintedAfterTheCellEndedGoesToTheKernelsStream() {
        PrintStream kept = cell.stdout;
        cell.close();
        kept.print("late");
        kept.flush();
        assertEquals("late", afterOut.toString(StandardCharsets.UTF_8));
        assertEquals(List.of(), out.sent);
    }

    private static void decodes(byte[] message) throws CharacterCodingException {
        StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(message));
    }
}
