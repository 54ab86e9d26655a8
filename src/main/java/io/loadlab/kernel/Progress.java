package io.loadlab.kernel;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A progress bar in a notebook: one output that is updated in place (a {@code display_data}
 * with a display id, then {@code update_display_data} messages). Create it in a cell with
 * {@code var bar = Progress.bar("rounds");}, then call {@link #update} as work gets done. At most
 * one update is sent per {@value #MIN_INTERVAL_MS} ms (Jupyter limits the message rate); one that
 * comes sooner is held and sent when the interval is over or the cell ends, whichever comes
 * first, so the bar always ends showing the last state. Thread-safe.
 */
public final class Progress {

    /** Updates closer together than this are dropped (the bar would only flicker). */
    static final long MIN_INTERVAL_MS = 100;
    private static final int WIDTH = 30;

    private final LoadlabKernel kernel;
    private final String label;
    private final String displayId = UUID.randomUUID().toString();
    /** Sends held updates when their interval is over; one daemon thread for all bars. */
    private static final ScheduledExecutorService FLUSHER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "loadlab-progress");
        t.setDaemon(true);
        return t;
    });

    private long lastSentNanos;
    private boolean held;
    private long done;
    private long total;
    private String text = "";

    private Progress(LoadlabKernel kernel, String label) {
        this.kernel = kernel;
        this.label = label;
    }

    /**
     * Shows a new, empty progress bar below the running cell.
     *
     * @param label what the bar counts, shown before it
     * @throws IllegalStateException when no Loadlab kernel cell is running on this JVM
     */
    public static Progress bar(String label) {
        LoadlabKernel kernel = Cells.running().orElseThrow(() -> new IllegalStateException(
                "Progress.bar works in a cell of the Loadlab Jupyter kernel; no cell is running"));
        return bar(kernel, label);
    }

    /** A bar shown by a given kernel (for callers that hold their kernel). */
    static Progress bar(LoadlabKernel kernel, String label) {
        Progress p = new Progress(kernel, label == null ? "" : label);
        synchronized (p) {
            p.lastSentNanos = System.nanoTime();
            kernel.display(p.data());
        }
        return p;
    }

    /**
     * Moves the bar.
     *
     * @param done  units done, 0 or more
     * @param total units in all; 0 or less when unknown (no bar, only the count)
     * @param text  what is happening now, shown after the bar ("" for nothing)
     */
    public synchronized void update(long done, long total, String text) {
        this.done = Math.max(0, done);
        this.total = total;
        this.text = text == null ? "" : text;
        long sinceLast = System.nanoTime() - lastSentNanos;
        boolean last = total > 0 && done >= total;
        if (!last && sinceLast < MIN_INTERVAL_MS * 1_000_000) {
            if (!held) {
                held = true;
                kernel.holding(this);
                FLUSHER.schedule(this::flush, MIN_INTERVAL_MS * 1_000_000 - sinceLast, TimeUnit.NANOSECONDS);
            }
            return;
        }
        send();
    }

    /** Sends the held update, if any. */
    synchronized void flush() {
        if (held) {
            send();
        }
    }

    private void send() {
        held = false;
        lastSentNanos = System.nanoTime();
        kernel.updateDisplay(data());
    }

    /** Units done so far, as last given to {@link #update}. */
    public synchronized long done() {
        return done;
    }

    /** The total, as last given to {@link #update}. */
    public synchronized long total() {
        return total;
    }

    /** The display id that ties the updates to the bar's output. */
    public String displayId() {
        return displayId;
    }

    /** The bar as it stands: text/plain and text/html, with the display id. */
    synchronized DisplayData data() {
        String count = total > 0
                ? String.format(Locale.ROOT, "%d/%d (%d%%)", done, total, Math.min(100, done * 100 / total))
                : Long.toString(done);
        String plain = (label.isEmpty() ? "" : label + " ") + (total > 0 ? "[" + bar() + "] " : "") + count
                + (text.isEmpty() ? "" : "  " + text);
        String html = "<div class=\"loadlab-progress\">" + (label.isEmpty() ? "" : "<b>" + Html.escape(label) + "</b> ")
                + (total > 0 ? "<progress value=\"" + Math.min(done, total) + "\" max=\"" + total + "\"></progress> " : "")
                + Html.escape(count) + (text.isEmpty() ? "" : " &nbsp;" + Html.escape(text)) + "</div>";
        DisplayData d = new DisplayData(plain);
        d.putHTML(html);
        d.setDisplayId(displayId);
        return d;
    }

    private String bar() {
        int filled = (int) Math.min(WIDTH, done * WIDTH / total);
        return "#".repeat(filled) + "-".repeat(WIDTH - filled);
    }
}
