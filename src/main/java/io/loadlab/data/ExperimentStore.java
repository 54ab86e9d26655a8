package io.loadlab.data;

import io.loadlab.load.Hlog;
import io.loadlab.load.IntervalSample;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The files of one experiment, {@code data/<name>/}: {@code experiment.json} (replaced
 * atomically), {@code runs.csv} (a row appended, flushed and forced to disk after each run) and
 * {@code latency.hlog} (each run's per-second histograms, tagged with its run id, written before
 * its row). After a kill at any moment at most the run in flight is missing: {@link #open}
 * drops a partial last line and histograms of runs that have no row ({@link StoreRepair}). Every
 * file created or renamed is followed by a force of the folder, so that the names survive a power
 * cut as well as the bytes.
 *
 * <p>A store holds the folder's {@link FolderLock} from {@link #create} or {@link #open} until
 * {@link #close}: a second run or {@code --resume} of the same folder is refused meanwhile, and
 * the kernel releases the lock when the holder dies, so a crashed run's folder stays resumable.
 */
public final class ExperimentStore implements AutoCloseable {

    public static final String SPEC_FILE = "experiment.json";
    public static final String RUNS_FILE = "runs.csv";
    public static final String HLOG_FILE = "latency.hlog";
    private static final int PROBE_BYTES = 4096;

    private final Path dir;
    private final long startEpochMs;
    private final FolderLock lock;

    private ExperimentStore(Path dir, long startEpochMs, FolderLock lock) {
        this.dir = dir;
        this.startEpochMs = startEpochMs;
        this.lock = lock;
    }

    public Path dir() {
        return dir;
    }

    /**
     * Creates the folder and its files for a new experiment. {@code experiment.json} is written
     * last: a folder without it holds no experiment, and a creation cut short by a kill (the
     * data files with no row yet) is simply done again.
     *
     * @throws DataException when the folder already holds an experiment, another process is
     *                       writing it, or it cannot be written
     */
    public static ExperimentStore create(Path dir, ExperimentJson experimentJson, long startEpochMs) {
        if (Files.exists(dir.resolve(SPEC_FILE)) || hasRows(dir.resolve(RUNS_FILE))) {
            throw alreadyHolds(dir);
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
        FolderLock lock = lock(dir);
        try {
            // Again under the lock: another run may have created it since the look above.
            if (Files.exists(dir.resolve(SPEC_FILE)) || hasRows(dir.resolve(RUNS_FILE))) {
                throw alreadyHolds(dir);
            }
            ExperimentStore store = new ExperimentStore(dir, startEpochMs, lock);
            createFiles(dir, startEpochMs);
            store.writeJson(experimentJson);
            return store;
        } catch (RuntimeException e) {
            release(lock, e);
            throw e;
        }
    }

    private static DataException alreadyHolds(Path dir) {
        return new DataException(dir + " already holds an experiment: use --resume " + dir
                + " to complete it, or choose another --out");
    }

    /** runs.csv with its header and latency.hlog with its own, each forced, then the folder. */
    private static void createFiles(Path dir, long startEpochMs) {
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
            StoreFiles.syncDir(dir);
        } catch (IOException e) {
            throw new DataException("cannot create the files of " + dir + ": " + why(e), e);
        }
    }

    private static FolderLock lock(Path dir) {
        try {
            return FolderLock.acquire(dir);
        } catch (IOException e) {
            throw new DataException("cannot lock " + dir + " (" + why(e) + "): check that the folder is writable", e);
        }
    }

    /** Releases a lock on the way out of a failure, keeping the failure as the one thrown. */
    private static void release(FolderLock lock, RuntimeException failure) {
        try {
            lock.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Releases the folder's lock: another run or {@code --resume} may then write the folder. The
     * store must not be written after it.
     *
     * @throws DataException when the lock cannot be released
     */
    @Override
    public void close() {
        try {
            lock.close();
        } catch (IOException e) {
            throw new DataException("cannot release the lock of " + dir + ": " + why(e), e);
        }
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
        StoreFiles.writeFully(ch, bytes);
    }

    /**
     * Opens an experiment to resume it: takes the folder's lock, then repairs what a kill may have
     * left half-written. The caller {@link #close}s the store when it is done with it.
     *
     * @return the store and the run ids already recorded
     * @throws DataException when the folder is no experiment, another process is writing it, or a
     *                       file is damaged beyond a kill's doing (naming the file and line)
     */
    public static Opened open(Path dir) {
        Path json = dir.resolve(SPEC_FILE);
        if (!Files.isRegularFile(json) || !Files.isRegularFile(dir.resolve(RUNS_FILE))) {
            throw new DataException(dir + " is not an experiment folder (it needs " + SPEC_FILE + " and "
                    + RUNS_FILE + "): check the --resume path");
        }
        FolderLock lock = lock(dir);
        try {
            ExperimentJson spec = ExperimentJson.parse(json);
            long start = spec.header().startedEpochMs().orElse(System.currentTimeMillis());
            Set<Integer> done = StoreRepair.runs(dir.resolve(RUNS_FILE));
            StoreRepair.upgradeHeader(dir.resolve(RUNS_FILE));
            StoreRepair.hlog(dir.resolve(HLOG_FILE), done);
            StoreRepair.agents(dir.resolve(AgentRows.FILE), done);
            return new Opened(new ExperimentStore(dir, start, lock), spec, done);
        } catch (IOException e) {
            DataException failure = new DataException("cannot read " + dir + ": " + e.getMessage(), e);
            release(lock, failure);
            throw failure;
        } catch (RuntimeException e) {
            release(lock, e);
            throw e;
        }
    }

    /** A reopened experiment: its store, its {@code experiment.json} and the runs already recorded. */
    public record Opened(ExperimentStore store, ExperimentJson experimentJson, Set<Integer> doneRunIds) {}

    /** Replaces {@code experiment.json} atomically (write a temporary file, then rename). */
    public void writeJson(ExperimentJson experimentJson) {
        Path tmp = dir.resolve(SPEC_FILE + ".tmp");
        try {
            Files.write(tmp, Json.mapper().writeValueAsBytes(experimentJson.tree()));
            StoreFiles.replace(tmp, dir.resolve(SPEC_FILE));
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
        boolean created = !Files.exists(file);
        if (created) {
            text.append(AgentRows.header()).append('\n');
        }
        for (java.util.Map<String, String> a : agents) {
            text.append(AgentRows.line(row.get(RunColumn.EXPERIMENT), row.get(RunColumn.RUN_ID), a)).append('\n');
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            writeFully(ch, text.toString().getBytes(StandardCharsets.UTF_8));
            ch.force(false);
        }
        if (created) {
            StoreFiles.syncDir(dir);
        }
    }
}
