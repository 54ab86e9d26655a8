package io.loadlab.data;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Repairs what a kill may leave half-written in an experiment folder before a resume appends to
 * it. A kill leaves at most a partial last line in each file (lines are appended whole and
 * forced), and the histograms or agents of a run whose row was never written; both are dropped.
 * Anything else damaged (a whole line that cannot be read) is not a kill's doing: the repair
 * refuses it with the file and line, for a person to look at.
 */
final class StoreRepair {

    /** How far back from a file's end a line feed is looked for, a block at a time (bytes). */
    private static final int TAIL_BLOCK = 8192;

    private static final byte[] TAG = "Tag=".getBytes(StandardCharsets.US_ASCII);

    private StoreRepair() {
    }

    /** Drops a partial last line; returns the run ids of the complete rows. */
    static Set<Integer> runs(Path runs) throws IOException {
        // Cut at the last line feed in bytes: a row torn inside a multi-byte character must not
        // stop the repair.
        byte[] bytes = Files.readAllBytes(runs);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        if (end < bytes.length) {
            truncate(runs, end);
        }
        String text = new String(bytes, 0, end, StandardCharsets.UTF_8);
        List<String> lines = text.lines().toList();
        if (lines.isEmpty() || !lines.get(0).startsWith(RunColumn.EXPERIMENT.id() + "," + RunColumn.RUN_ID.id() + ",")) {
            throw new DataException(runs + ": line 1 is not the runs.csv header");
        }
        int idColumn = CsvLines.split(lines.get(0)).indexOf(RunColumn.RUN_ID.id());
        Set<Integer> done = new LinkedHashSet<>();
        for (int i = 1; i < lines.size(); i++) {
            try {
                done.add(Integer.parseInt(CsvLines.split(lines.get(i)).get(idColumn)));
            } catch (RuntimeException e) {
                throw new DataException(runs + ": line " + (i + 1) + " is damaged (" + e.getMessage()
                        + "); fix or delete that line, then resume again");
            }
        }
        return done;
    }

    /**
     * Rewrites a runs.csv that an older version wrote with fewer columns under today's header, the
     * columns it lacks empty (not measured then), so that the rows a resume appends line up. Written
     * to a temporary file and renamed over the old one: a kill leaves one or the other, whole.
     */
    static void upgradeHeader(Path runs) throws IOException {
        List<String> lines = Files.readAllLines(runs, StandardCharsets.UTF_8);
        if (lines.isEmpty() || lines.get(0).equals(RunRow.csvHeader())) {
            return;
        }
        StringBuilder out = new StringBuilder(RunRow.csvHeader()).append('\n');
        for (java.util.Map<String, String> row : rowsByName(runs, lines, RunRow.COLUMNS)) {
            out.append(new RunRow(row).toCsv()).append('\n');
        }
        Path tmp = runs.resolveSibling(ExperimentStore.RUNS_FILE + ".tmp");
        Files.writeString(tmp, out, StandardCharsets.UTF_8);
        StoreFiles.replace(tmp, runs);
    }

    /**
     * Keeps the header and the histograms of recorded runs; drops a partial last line and the
     * histograms of runs without a row. Streams the log (it grows by megabytes a run): a first pass
     * finds whether a line must go, a second, only then, writes the kept lines to a temporary file
     * renamed over the log.
     *
     * @throws DataException naming the file and line when a whole {@code Tag=} line has no comma
     *                       (not a kill's partial line, which has no line feed), or a line is too long
     */
    static void hlog(Path hlog, Set<Integer> done) throws IOException {
        if (!Files.exists(hlog)) {
            return;
        }
        long end = lastLineEnd(hlog);
        if (end < Files.size(hlog)) {
            truncate(hlog, end);
        }
        if (keepHlog(hlog, done, OutputStream.nullOutputStream())) {
            return;
        }
        Path tmp = hlog.resolveSibling(ExperimentStore.HLOG_FILE + ".tmp");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp))) {
            keepHlog(hlog, done, out);
        }
        StoreFiles.replace(tmp, hlog);
    }

    /** Writes the lines to keep to {@code out}; whether every line was kept. */
    private static boolean keepHlog(Path hlog, Set<Integer> done, OutputStream out) throws IOException {
        boolean all = true;
        try (InputStream in = Files.newInputStream(hlog)) {
            LineChunks lines = LineChunks.of(hlog, in);
            for (LineChunks.Chunk c = lines.next(); c != null; c = lines.next()) {
                for (int i = 0; i < c.count(); i++) {
                    if (recorded(hlog, c, i, done)) {
                        out.write(c.bytes(), c.start(i), c.end(i) - c.start(i));
                        out.write('\n');
                    } else {
                        all = false;
                    }
                }
            }
        }
        return all;
    }

    /** Whether a line is the header or a histogram of a run in {@code done}. */
    private static boolean recorded(Path hlog, LineChunks.Chunk c, int line, Set<Integer> done) {
        byte[] b = c.bytes();
        int start = c.start(line);
        int end = c.end(line);
        if (end - start < TAG.length || !java.util.Arrays.equals(b, start, start + TAG.length, TAG, 0, TAG.length)) {
            return true;
        }
        int comma = io.loadlab.bytes.Bytes.indexOf(b, start + TAG.length, end, (byte) ',');
        if (comma < 0) {
            throw new DataException(hlog + ": line " + c.lineNumber(line) + " is damaged (a Tag= without its comma);"
                    + " delete that line, then resume again");
        }
        String tag = new String(b, start + TAG.length, comma - start - TAG.length, StandardCharsets.US_ASCII);
        String id = tag.endsWith("-service") ? tag.substring(0, tag.length() - 8) : tag;
        return id.matches("[0-9]{1,9}") && done.contains(Integer.parseInt(id));
    }

    /** The size of a file up to and with its last line feed (bytes); 0 when it has none. */
    private static long lastLineEnd(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer block = ByteBuffer.allocate(TAIL_BLOCK);
            for (long to = ch.size(); to > 0; ) {
                long from = Math.max(0, to - TAIL_BLOCK);
                block.clear().limit((int) (to - from));
                while (block.hasRemaining() && ch.read(block, from + block.position()) > 0) {
                    // until the block is full
                }
                for (int i = block.position() - 1; i >= 0; i--) {
                    if (block.get(i) == '\n') {
                        return from + i + 1;
                    }
                }
                to = from;
            }
            return 0;
        }
    }

    /**
     * Keeps the agents of recorded runs; drops a partial line and those of runs without a row. A file
     * an older version wrote with fewer columns is rewritten under today's header, the columns it lacks
     * empty, as {@link #upgradeHeader} does for runs.csv.
     */
    static void agents(Path agents, Set<Integer> done) throws IOException {
        if (!Files.exists(agents)) {
            return;
        }
        String text = Files.readString(agents, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n') + 1;
        List<String> lines = text.substring(0, end).lines().toList();
        List<String> keep = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            List<String> v = CsvLines.split(lines.get(i));
            if (i == 0 || (v.size() > 1 && v.get(1).matches("[0-9]+") && done.contains(Integer.parseInt(v.get(1))))) {
                keep.add(lines.get(i));
            }
        }
        if (keep.isEmpty()) {
            // Not even the header was whole (a kill during the first run's append): the next append writes it.
            Files.delete(agents);
            return;
        }
        boolean older = !keep.get(0).equals(AgentRows.header());
        if (older) {
            keep = upgradedAgents(agents, keep);
        }
        if (older || keep.size() != lines.size() || end < text.length()) {
            Path tmp = agents.resolveSibling(AgentRows.FILE + ".tmp");
            Files.writeString(tmp, String.join("\n", keep) + "\n", StandardCharsets.UTF_8);
            // Forced before the rename (StoreFiles.replace): renamed unforced, a crash could leave
            // the name pointing at an empty file.
            StoreFiles.replace(tmp, agents);
        }
    }

    /** An older agents.csv's header and lines, under today's header. */
    private static List<String> upgradedAgents(Path agents, List<String> lines) {
        String first = AgentRows.Column.EXPERIMENT.id() + "," + AgentRows.Column.RUN_ID.id() + ",";
        if (!lines.get(0).startsWith(first)) {
            throw new DataException(agents + ": line 1 is not the agents.csv header (it starts " + first + "...)");
        }
        List<String> out = new ArrayList<>(List.of(AgentRows.header()));
        for (java.util.Map<String, String> row : rowsByName(agents, lines, AgentRows.COLUMNS)) {
            String experiment = row.remove(AgentRows.Column.EXPERIMENT.id());
            String runId = row.remove(AgentRows.Column.RUN_ID.id());
            out.add(AgentRows.line(experiment == null ? "" : experiment, runId == null ? "" : runId, row));
        }
        return out;
    }

    /**
     * The rows after an older header line, by column name, for rewriting under today's header.
     *
     * @throws DataException when the header names a column that is not in {@code known}
     */
    private static List<java.util.Map<String, String>> rowsByName(Path file, List<String> lines, List<String> known) {
        List<String> header = CsvLines.split(lines.get(0));
        List<String> unknown = header.stream().filter(c -> !known.contains(c)).toList();
        if (!unknown.isEmpty()) {
            throw new DataException(file + ": columns " + unknown + " are not known to this version of Loadlab: resume"
                    + " it with the version that wrote it");
        }
        List<java.util.Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> values = CsvLines.split(line);
            java.util.Map<String, String> row = new java.util.HashMap<>();
            for (int i = 0; i < header.size() && i < values.size(); i++) {
                row.put(header.get(i), values.get(i));
            }
            rows.add(row);
        }
        return rows;
    }

    static void truncate(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
            ch.force(false);
        }
    }
}
