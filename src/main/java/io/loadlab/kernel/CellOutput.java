package io.loadlab.kernel;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What a running cell prints on {@code System.out} and {@code System.err}, on its way to the
 * notebook. The base kernel sends one {@code stream} message per line (per 8 KiB of a long line);
 * ZeroMQ drops messages on the iopub channel once 1000 wait for a slow reader, and a cell that
 * prints megabytes lost most of its output and, worse, the {@code idle} status after it, so the
 * notebook showed the cell as running forever. Here the text is buffered and sent in batches:
 * when {@link #BATCH_BYTES} have gathered, when {@link #send()} is called (every
 * {@link LoadlabKernel#OUTPUT_PERIOD_MS} while the cell runs, and before a display so that text
 * printed before it shows above it), and when the cell ends. A cell shows at most
 * {@link #LIMIT_BYTES} of printed text (both streams together); what it prints beyond is left out,
 * and a note on stderr says so when the limit is reached and, at the end, how much was left out.
 * Batches end on a UTF-8 character boundary. Thread-safe: threads the cell starts print here too.
 */
final class CellOutput implements AutoCloseable {

    /** The most printed text a cell shows: 1 MiB of UTF-8, stdout and stderr together. */
    static final int LIMIT_BYTES = 1 << 20;
    /** A batch is sent once this much has gathered. */
    static final int BATCH_BYTES = 64 << 10;

    private final Object lock = new Object();
    private final Part out;
    private final Part err;
    private final PrintStream notes;
    private long shown;
    private long leftOut;
    private boolean closed;

    /** The streams to set as {@code System.out} and {@code System.err} while the cell runs. */
    final PrintStream stdout;
    final PrintStream stderr;

    /**
     * @param toOut   where batches of stdout go (the base kernel's stream, one message per write)
     * @param toErr   where batches of stderr and the notes go
     * @param afterOut where stdout goes once the cell has ended (a thread it started may go on printing)
     * @param afterErr the same for stderr
     */
    CellOutput(PrintStream toOut, PrintStream toErr, PrintStream afterOut, PrintStream afterErr) {
        this.out = new Part(toOut, afterOut);
        this.err = new Part(toErr, afterErr);
        this.notes = toErr;
        this.stdout = new PrintStream(out, false, StandardCharsets.UTF_8);
        this.stderr = new PrintStream(err, false, StandardCharsets.UTF_8);
    }

    /** Sends what has gathered (stdout first), keeping back a character cut in two. */
    void send() {
        synchronized (lock) {
            out.send(false);
            err.send(false);
        }
    }

    /** Sends the rest, with a note of what was left out; later text goes to the after-streams. */
    @Override
    public void close() {
        stdout.flush();
        stderr.flush();
        synchronized (lock) {
            if (closed) {
                return;
            }
            out.send(true);
            err.send(true);
            if (leftOut > 0) {
                note(String.format(Locale.ROOT, "[output truncated: %,d bytes of this cell's output were left out]",
                        leftOut));
            }
            closed = true;
        }
    }

    /** Bytes of printed text shown so far and bytes left out (for tests). */
    long[] counts() {
        synchronized (lock) {
            return new long[] {shown, leftOut};
        }
    }

    private void note(String line) {
        notes.print("\n" + line + "\n");
        notes.flush();
    }

    /** One stream of the cell: a buffer of bytes not sent yet. */
    private final class Part extends OutputStream {
        private final Buffer pending = new Buffer();
        private final PrintStream to;
        private final PrintStream after;

        Part(PrintStream to, PrintStream after) {
            this.to = to;
            this.after = after;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (lock) {
                if (closed) {
                    after.write(b, off, len);
                    return;
                }
                // Once something was left out, everything after it is too (no gaps in what is shown).
                int take = leftOut > 0 ? 0 : (int) Math.min(len, LIMIT_BYTES - shown);
                // Do not cut a character in two at the limit.
                while (take > 0 && take < len && (b[off + take] & 0xC0) == 0x80) {
                    take--;
                }
                pending.write(b, off, take);
                shown += take;
                if (take < len) {
                    boolean first = leftOut == 0;
                    leftOut += len - take;
                    if (first) {
                        out.send(true);
                        err.send(true);
                        note(String.format(Locale.ROOT, "[output truncated: a cell shows at most %d MiB of printed "
                                + "text; the rest of this cell's output is left out]", LIMIT_BYTES >> 20));
                    }
                } else if (pending.size() >= BATCH_BYTES) {
                    send(false);
                }
            }
        }

        @Override
        public void flush() {
            // Batches go at their own pace (see send); flushing each line would be one message each.
        }

        /** Sends what is pending; all of it when {@code all}, else up to the last whole character. Under lock. */
        void send(boolean all) {
            int n = all ? pending.size() : pending.wholeCharacters();
            if (n > 0) {
                to.write(pending.bytes(), 0, n);
                to.flush();
                pending.dropFirst(n);
            }
        }
    }

    /** A byte buffer that exposes its bytes and can drop a prefix. */
    private static final class Buffer extends ByteArrayOutputStream {
        byte[] bytes() {
            return buf;
        }

        void dropFirst(int n) {
            System.arraycopy(buf, n, buf, 0, count - n);
            count -= n;
        }

        /** The length of the longest prefix that does not end inside a UTF-8 character. */
        int wholeCharacters() {
            int i = count - 1;
            int continuation = 0;
            while (i >= 0 && continuation < 3 && (buf[i] & 0xC0) == 0x80) {
                i--;
                continuation++;
            }
            if (i < 0) {
                return count;
            }
            int lead = buf[i] & 0xFF;
            int length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
            return count - i >= length ? count : i;
        }
    }
}
