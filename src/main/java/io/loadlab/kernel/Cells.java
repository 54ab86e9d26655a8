package io.loadlab.kernel;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bridge between code running in cells and the kernel that runs it. Cells run in the
 * kernel's own JVM, so the helper methods defined at start-up ({@code display}, {@code render})
 * and the code that hands a cell's value back reach their kernel here, by its id. Thread-safe.
 */
public final class Cells {

    /** Stands for a kept {@code null}, which a concurrent map cannot hold. */
    private static final Object NULL = new Object();
    private static final AtomicInteger IDS = new AtomicInteger();
    private static final Map<Integer, LoadlabKernel> KERNELS = new ConcurrentHashMap<>();
    private static final Map<Integer, Object> KEPT = new ConcurrentHashMap<>();
    private static volatile LoadlabKernel running;

    private Cells() {
    }

    /**
     * The kernel with this id; used by the helper methods defined in every kernel's JShell.
     *
     * @throws IllegalStateException when that kernel has been closed
     */
    public static LoadlabKernel kernel(int id) {
        LoadlabKernel k = KERNELS.get(id);
        if (k == null) {
            throw new IllegalStateException("kernel " + id + " is closed");
        }
        return k;
    }

    /** Hands a cell's value to kernel {@code id}; called by the snippet the kernel evaluates for that. */
    public static void keep(int id, Object value) {
        KEPT.put(id, value == null ? NULL : value);
    }

    /** The kernel whose cell is running now, if any (for helpers without a kernel id, like progress bars). */
    static Optional<LoadlabKernel> running() {
        return Optional.ofNullable(running);
    }

    static int register(LoadlabKernel kernel) {
        int id = IDS.incrementAndGet();
        KERNELS.put(id, kernel);
        return id;
    }

    static void unregister(int id) {
        KERNELS.remove(id);
        KEPT.remove(id);
    }

    static Object take(int id) {
        Object v = KEPT.remove(id);
        return v == NULL ? null : v;
    }

    static void started(LoadlabKernel kernel) {
        running = kernel;
    }

    static void finished(LoadlabKernel kernel) {
        if (running == kernel) {
            running = null;
        }
    }
}
