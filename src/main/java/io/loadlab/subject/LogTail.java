package io.loadlab.subject;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The end of a log or a tool's output, for error messages: what a user needs to see first. */
public final class LogTail {

    /** Only the file's last bytes are read: a log may be gigabytes. */
    private static final int MAX_BYTES = 16 * 1024;

    private LogTail() {
    }

    /**
     * The last {@code lines} lines of a file (from its last 16 KiB), joined by line feeds; empty when
     * the file does not exist, a note naming the error when it cannot be read.
     */
    public static String of(Path file, int lines) {
        if (!Files.exists(file)) {
            return "";
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long len = f.length();
            int n = (int) Math.min(len, MAX_BYTES);
            byte[] buf = new byte[n];
            f.seek(len - n);
            f.readFully(buf);
            return String.join("\n", lastLines(new String(buf, StandardCharsets.UTF_8), lines));
        } catch (IOException e) {
            return "(log " + file + " unreadable: " + e.getMessage() + ")";
        }
    }

    /** The last {@code lines} lines of a text, without the blank ones at its end. */
    public static List<String> lastLines(String text, int lines) {
        List<String> all = Arrays.asList(text.stripTrailing().split("\n", -1));
        return all.subList(Math.max(0, all.size() - lines), all.size());
    }
}
