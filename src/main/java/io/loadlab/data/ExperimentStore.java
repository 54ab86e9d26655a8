package io.loadlab.data;

import io.loadlab.load.Hlog;
import io.loadlab.load.IntervalSample;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The files of one experiment, {@code data/<name>/}: {@code experiment.json} (replaced
 * atomically), {@code runs.csv} (a row appended, flushed and forced to disk after each run) and
 * {@code latency.hlog} (each run's per-second histograms, tagged with its run id, written before
 * its row). After a kill at any moment at most the run in flight is missing: {@link #open}
 * drops a partial last line and histograms of runs that have no row.
 */
public final class ExperimentStore {

    public static final String SPEC_FILE = "experiment.json";
    public static final String RUNS_FILE = "runs.csv";
    public static final String HLOG_FILE = "latency.hlog";
    private static final int PROBE_BYTES = 4096;

    private final Path dir;
    private final long startEpochMs;

    private ExperimentStore(Path dir, long startEpochMs) {
        this.dir = dir;
        this.startEpochMs = startEpochMs;
    }

    public Path dir() {
        return dir;
    }

    /**
     * Creates the folder and its files for a new experiment. {@code experiment.json} is written
     * last: a folder without it holds no experiment, and a creation cut short by a kill (the
     * data files with no row yet) is simply done again.
     *
     * @throws DataException when the folder already holds an experiment or cannot be written
     */
    public static ExperimentStore create(Path dir, ExperimentJson experimentJson, long startEpochMs) {
        if (Files.exists(dir.resolve(SPEC_FILE)) || hasRows(dir.resolve(RUNS_FILE))) {
            throw new DataException(dir + " already holds an experiment: use --resume " + dir
                    + " to complete it, or choose another --out");
        }
        try {
            Files.createDirectories(dir);
            // Some bytes, not an empty file: a full disk still has inodes for empty files.
            Path probe = Files.createTempFile(dir, ".write-probe", "");
            try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.WRITE)) {
                writeFully(ch, new byte[PROBE_BYTES]);
                ch.force(false);
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException e) {
            throw new DataException("cannot write to " + dir + " (" + why(e) + "): choose a writable --out folder"
                    + " with free space", e);
        }
        try {
            try (FileChannel ch = FileChannel.open(dir.resolve(RUNS_FILE), StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                writeFully(ch, (RunRow.csvHeader() + "\n").getBytes(StandardCharsets.UTF_8));
                ch.force(false);
            }
            ByteArrayOutputStream header = new ByteArrayOutputStream();
            PrintStream ps = new PrintStream(header, false, StandardCharsets.US_ASCII);
            Hlog.writeHeader(ps, startEpochMs, "Loadlab experiment " + dir.getFileName() + ": per-second latency"
                    + " histograms in microseconds, tagged with the run id of runs.csv (TAG-service: service time)");
            ps.flush();
            try (FileChannel ch = FileChannel.open(dir.resolve(HLOG_FILE), StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                writeFully(ch, header.toByteArray());
                ch.force(false);
            }
        } catch (IOException e) {
            throw new DataException("cannot create the files of " + dir + ": " + why(e), e);
        }
        ExperimentStore store = new ExperimentStore(dir, startEpochMs);
        store.writeJson(experimentJson);
        return store;
    }

    /** Whether runs.csv exists with a row after its header. */
    private static boolean hasRows(Path runs) {
        if (!Files.exists(runs)) {
            return false;
        }
        try (java.io.BufferedReader r = Files.newBufferedReader(runs, StandardCharsets.UTF_8)) {
            r.readLine();
            return r.readLine() != null;
        } catch (IOException e) {
            return true; // unreadable: do not write over it
        }
    }

    /** An I/O error in words: Java's own message of some is only the path. */
    private static String why(IOException e) {
        if (e instanceof FileAlreadyExistsException f) {
            return f.getFile() + " exists and is not a folder";
        }
        if (e instanceof AccessDeniedException a) {
            return "permission denied on " + a.getFile();
        }
        if (e instanceof NoSuchFileException n) {
            return n.getFile() + " does not exist";
        }
        return e.getMessage();
    }

    private static void writeFully(FileChannel ch, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /**
     * Opens an experiment to resume it: repairs what a kill may have left half-written.
     *
     * @return the store and the run ids already recorded
     */
    public static Opened open(Path dir) {
        Path json = dir.resolve(SPEC_FILE);
        if (!Files.isRegularFile(json) || !Files.isRegularFile(dir.resolve(RUNS_FILE))) {
            throw new DataException(dir + " is not an experiment folder (it needs " + SPEC_FILE + " and "
                    + RUNS_FILE + "): check the --resume path");
        }
        ExperimentJson spec = ExperimentJson.parse(json);
        try {
            long start = spec.header().startedEpochMs().orElse(System.currentTimeMillis());
            Set<Integer> done = repairRuns(dir.resolve(RUNS_FILE));
            upgradeHeader(dir.resolve(RUNS_FILE));
            repairHlog(dir.resolve(HLOG_FILE), done, start);
            repairAgents(dir.resolve(AgentRows.FILE), done);
            return new Opened(new ExperimentStore(dir, start), spec, done);
        } catch (IOException e) {
            throw new DataException("cannot read " + dir + ": " + e.getMessage(), e);
        }
    }

    /** A reopened experiment: its store, its {@code experiment.json} and the runs already recorded. */
    public record Opened(ExperimentStore store, ExperimentJson experimentJson, Set<Integer> doneRunIds) {}

    /** Replaces {@code experiment.json} atomically (write a temporary file, then rename). */
    public void writeJson(ExperimentJson experimentJson) {
        Path tmp = dir.resolve(SPEC_FILE + ".tmp");
        try {
            Files.write(tmp, Json.mapper().writeValueAsBytes(experimentJson.tree()));
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            try {
                Files.move(tmp, dir.resolve(SPEC_FILE), StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dir.resolve(SPEC_FILE), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new DataException("cannot write " + dir.resolve(SPEC_FILE) + ": " + why(e), e);
        }
    }

    /**
     * Records one run: its interval histograms first, then its row; each file flushed and forced.
     *
     * @param intervals the run's per-second samples (empty for a failed run)
     * @param agents    each agent's {@code agents.csv} values when the load ran on agents, else empty;
     *                  written before the row, like the histograms
     */
    public void append(RunRow row, List<IntervalSample> intervals, List<java.util.Map<String, String>> agents) {
        String tag = row.get(RunColumn.RUN_ID);
        try {
            if (!agents.isEmpty()) {
                appendAgents(row, agents);
            }
            if (!intervals.isEmpty()) {
                // Rendered first, then written with a channel: PrintStream would swallow the OS's
                // error (a full disk), and the message should say which error it was.
                ByteArrayOutputStream text = new ByteArrayOutputStream();
                PrintStream ps = new PrintStream(text, false, StandardCharsets.US_ASCII);
                HistogramLogWriter w = new HistogramLogWriter(ps);
                w.setBaseTime(startEpochMs);
                Hlog.writeRun(w, intervals, tag, startEpochMs);
                ps.flush();
                try (FileChannel ch = FileChannel.open(dir.resolve(HLOG_FILE), StandardOpenOption.APPEND)) {
                    writeFully(ch, text.toByteArray());
                    ch.force(false);
                }
            }
            try (FileChannel ch = FileChannel.open(dir.resolve(RUNS_FILE), StandardOpenOption.APPEND)) {
                writeFully(ch, (row.toCsv() + "\n").getBytes(StandardCharsets.UTF_8));
                ch.force(false);
            }
        } catch (IOException e) {
            throw new DataException("cannot append run " + tag + " to " + dir + ": " + why(e) + "; the runs recorded"
                    + " before it are intact: free some space (or fix the folder), then complete the experiment with"
                    + " loadlab run --resume " + dir, e);
        }
    }

    /**
     * The rows recorded so far, as written (a resumed latency sweep reads its rounds' capacities
     * back from them). Call it after {@link #open}, which repairs and upgrades the file.
     *
     * @throws DataException when runs.csv cannot be read or a row is damaged
     */
    public List<RunRow> rows() {
        Path runs = dir.resolve(RUNS_FILE);
        try {
            List<String> lines = Files.readAllLines(runs, StandardCharsets.UTF_8);
            List<String> header = lines.isEmpty() ? List.of() : CsvLines.split(lines.get(0));
            List<RunRow> out = new ArrayList<>();
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                List<String> values = CsvLines.split(line);
                java.util.Map<String, String> row = new java.util.HashMap<>();
                for (int i = 0; i < header.size() && i < values.size(); i++) {
                    row.put(header.get(i), values.get(i));
                }
                out.add(new RunRow(row));
            }
            return out;
        } catch (IOException | IllegalArgumentException e) {
            throw new DataException("cannot read the rows of " + runs + ": " + e.getMessage(), e);
        }
    }

    /** Appends the run's agents to {@code agents.csv}, made with its header by the first run on agents. */
    private void appendAgents(RunRow row, List<java.util.Map<String, String>> agents) throws IOException {
        StringBuilder text = new StringBuilder();
        Path file = dir.resolve(AgentRows.FILE);
        if (!Files.exists(file)) {
            text.append(AgentRows.header()).append('\n');
        }
        for (java.util.Map<String, String> a : agents) {
            text.append(AgentRows.line(row.get(RunColumn.EXPERIMENT), row.get(RunColumn.RUN_ID), a)).append('\n');
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            writeFully(ch, text.toString().getBytes(StandardCharsets.UTF_8));
            ch.force(false);
        }
    }

    /** Keeps the agents of recorded runs; drops a partial line and those of runs without a row. */
    private static void repairAgents(Path agents, Set<Integer> done) throws IOException {
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
        if (keep.size() != lines.size() || end < text.length()) {
            Path tmp = agents.resolveSibling(AgentRows.FILE + ".tmp");
            Files.writeString(tmp, String.join("\n", keep) + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, agents, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** Drops a partial last line; returns the run ids of the complete rows. */
    private static Set<Integer> repairRuns(Path runs) throws IOException {
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
    private static void upgradeHeader(Path runs) throws IOException {
        List<String> lines = Files.readAllLines(runs, StandardCharsets.UTF_8);
        if (lines.isEmpty() || lines.get(0).equals(RunRow.csvHeader())) {
            return;
        }
        List<String> header = CsvLines.split(lines.get(0));
        List<String> unknown = header.stream().filter(c -> !RunRow.COLUMNS.contains(c)).toList();
        if (!unknown.isEmpty()) {
            throw new DataException(runs + ": columns " + unknown + " are not known to this version of Loadlab: resume"
                    + " it with the version that wrote it");
        }
        StringBuilder out = new StringBuilder(RunRow.csvHeader()).append('\n');
        for (String line : lines.subList(1, lines.size())) {
            List<String> values = CsvLines.split(line);
            java.util.Map<String, String> row = new java.util.HashMap<>();
            for (int i = 0; i < header.size() && i < values.size(); i++) {
                row.put(header.get(i), values.get(i));
            }
            out.append(new RunRow(row).toCsv()).append('\n');
        }
        Path tmp = runs.resolveSibling(RUNS_FILE + ".tmp");
        Files.writeString(tmp, out, StandardCharsets.UTF_8);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        Files.move(tmp, runs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Keeps the header and the histograms of recorded runs; drops partial and orphaned lines. */
    private static void repairHlog(Path hlog, Set<Integer> done, long start) throws IOException {
        if (!Files.exists(hlog)) {
            return;
        }
        String text = Files.readString(hlog, StandardCharsets.US_ASCII);
        int end = text.lastIndexOf('\n') + 1;
        List<String> keep = new ArrayList<>();
        boolean changed = end < text.length();
        for (String line : text.substring(0, end).split("\n")) {
            if (line.startsWith("Tag=")) {
                String tag = line.substring(4, line.indexOf(','));
                String id = tag.endsWith("-service") ? tag.substring(0, tag.length() - 8) : tag;
                if (!id.matches("[0-9]+") || !done.contains(Integer.parseInt(id))) {
                    changed = true;
                    continue;
                }
            }
            keep.add(line);
        }
        if (changed) {
            Path tmp = hlog.resolveSibling(HLOG_FILE + ".tmp");
            Files.writeString(tmp, String.join("\n", keep) + "\n", StandardCharsets.US_ASCII);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(tmp, hlog, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private static void truncate(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
            ch.force(false);
        }
    }
}
