package io.loadlab.data;

import java.util.concurrent.atomic.AtomicBoolean;
import tech.tablesaw.api.Table;

/**
 * Tablesaw scans the class path for its readers and writers when {@link Table} is first used
 * (~0.3 s in a fresh JVM with Loadlab's class path, more with a longer one). The first load
 * starts that on a thread of its own while it reads {@code runs.csv}, which needs only columns;
 * a thread that needs {@code Table} meanwhile waits for the class to be ready, as the JVM
 * guarantees.
 */
final class TablesawStart {

    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private TablesawStart() {
    }

    /** Starts initialising {@link Table} in the background, once per JVM. */
    static void begin() {
        if (STARTED.compareAndSet(false, true)) {
            Thread t = new Thread(() -> Table.create("start"), "loadlab-tablesaw-start");
            t.setDaemon(true);
            t.start();
        }
    }
}
