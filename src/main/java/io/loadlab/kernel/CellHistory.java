package io.loadlab.kernel;

import io.github.spencerpark.jupyter.kernel.history.HistoryEntry;
import io.github.spencerpark.jupyter.kernel.history.HistoryManager;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The code of this kernel's cells, for {@code history_request}. It matters beyond history: without
 * a history manager the base kernel drops {@code history_request} without a reply and without the
 * {@code busy}/{@code idle} statuses around it. JupyterLab 4 takes no state from the statuses of a
 * {@code kernel_info_request} (its page config lists that type as untracked), and its notebook's
 * kernel history sends a {@code history_request} as it connects: the statuses around that reply
 * are the first ones it takes, so without them the status bar said "Unknown" until a cell ran.
 * Thread-safe; keeps the last {@link #CAPACITY} cells of this kernel (session 1: a kernel keeps
 * no history across restarts).
 */
final class CellHistory implements HistoryManager {

    /** How many cells are kept, at most. */
    static final int CAPACITY = 1000;
    private static final int SESSION = 1;

    private final Deque<HistoryEntry> cells = new ArrayDeque<>();

    /** Records a cell's code under its execution count. */
    synchronized void add(int executionCount, String code) {
        if (cells.size() == CAPACITY) {
            cells.removeFirst();
        }
        cells.addLast(new HistoryEntry(SESSION, executionCount, code));
    }

    @Override
    public synchronized List<HistoryEntry> lookupTail(int length, Set<ResultFlag> flags) {
        List<HistoryEntry> all = new ArrayList<>(cells);
        return new ArrayList<>(all.subList(Math.max(0, all.size() - Math.max(0, length)), all.size()));
    }

    @Override
    public synchronized List<HistoryEntry> lookupRange(int session, int start, int stop, Set<ResultFlag> flags) {
        List<HistoryEntry> found = new ArrayList<>();
        for (HistoryEntry e : cells) {
            if ((session == SESSION || session == 0) && e.getCellNumber() >= start && e.getCellNumber() < stop) {
                found.add(e);
            }
        }
        return found;
    }

    /** IPython's glob pattern ({@code *} and {@code ?}) over the code; the last {@code length} matches. */
    @Override
    public synchronized List<HistoryEntry> search(String glob, int length, Set<ResultFlag> flags) {
        StringBuilder regex = new StringBuilder();
        for (char c : glob.toCharArray()) {
            regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        Pattern p = Pattern.compile(regex.toString(), Pattern.DOTALL);
        List<HistoryEntry> found = cells.stream().filter(e -> p.matcher(e.getInput()).matches()).toList();
        return new ArrayList<>(found.subList(Math.max(0, found.size() - Math.max(0, length)), found.size()));
    }
}
