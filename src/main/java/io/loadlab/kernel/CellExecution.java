package io.loadlab.kernel;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import jdk.jshell.execution.LocalExecutionControl;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

/**
 * JShell's local execution engine (cells run in the kernel's JVM, each snippet on a thread of its
 * own that {@link #stop()} stops), plus what keeps the kernel alive when a cell fills the heap, and
 * cells' exit calls redirected ({@link ExitCallRewriter}). It extends JShell's
 * {@code LocalExecutionControl} for its {@code load}: on Javas without {@code Thread.stop} (25
 * here), that puts stop checks into cell code ({@link REPL.$Cancel$}, {@link StopChecks}), which
 * is how {@link #stop()} ends a busy loop there.
 *
 * <p>When the heap is exhausted, any thread may get the {@link OutOfMemoryError}, and the ZeroMQ
 * library's I/O thread does not survive one: the kernel would still run but never answer. So the
 * cell is stopped before that: a garbage collection that leaves more than {@link #HEAP_FULL} of the
 * heap in use while a snippet runs stops it, and it fails with an {@code OutOfMemoryError} saying
 * so. When the cell (or that stop) ends with an {@code OutOfMemoryError}, the snippet's own thread
 * lets go of a reserve the kernel holds, and once that thread has ended the kernel sets to null the
 * static fields of the classes the cell loaded or ran: its variables (those it declared again too),
 * and the statics of classes it declared. (Not on the snippet's thread: a stop for memory arriving
 * while it did so would cut it short, which left a cell's variable holding the heap in one CI run
 * of the suite.) A variable an earlier cell declared and this one filled cannot be told apart from
 * one it only used, so it is kept.
 *
 * <p>Used by one session, whose cells run one at a time.
 */
final class CellExecution extends LocalExecutionControl {

    /** The share of the heap in use after a collection at which the running cell is stopped. */
    static final double HEAP_FULL = 0.9;
    /** The reserve: 1/32 of the heap, at most 32 MiB, enough for JShell to compile and reply. */
    static final long RESERVE_BYTES = Math.min(32L << 20, Runtime.getRuntime().maxMemory() / 32);

    private final Object stopLock = new Object();
    /** The thread group of the snippet that runs now, null between snippets. */
    private volatile ThreadGroup running;
    private volatile Thread runningThread;
    /** Why the kernel stopped the running snippet for memory; null when it did not. */
    private volatile String memoryStop;
    /** Where the snippet was when it was stopped for memory. */
    private volatile StackTraceElement[] memoryStopTrace = new StackTraceElement[0];
    /**
     * The classes the current cell loaded or ran: JShell runs a declaration that repeats an earlier
     * one word for word (a cell run again) in the earlier one's class, without loading it again.
     */
    private final Set<String> classesOfThisCell = new LinkedHashSet<>();
    private final List<String> cleared = new ArrayList<>();
    private volatile byte[] reserve;
    private volatile boolean ranOutOfMemory;
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    private final NotificationListener afterCollection = this::afterCollection;
    /** What the last snippet that ran returned, and how many ran since {@link #countInvocations()}. */
    private volatile Object lastResult;
    private volatile int invocations;
    /** The experiments the running cell executes, to stop them cleanly on an interrupt. */
    private final io.loadlab.experiment.ExperimentScope experiments = new io.loadlab.experiment.ExperimentScope();

    CellExecution() {
        StopChecks.verify();
        takeReserve();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(afterCollection, null, null);
            }
        }
    }

    /** A provider that hands JShell this engine. */
    ExecutionControlProvider provider() {
        return new ExecutionControlProvider() {
            @Override
            public String name() {
                return "loadlab-local";
            }

            @Override
            public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
                return CellExecution.this;
            }
        };
    }

    /** Called before each cell: forgets the last cell's classes and takes the reserve back if it was let go. */
    synchronized void cellStarted() {
        classesOfThisCell.clear();
        cleared.clear();
        ranOutOfMemory = false;
        if (reserve == null) {
            takeReserve();
        }
    }

    /** Whether the current cell ran out of memory (in its own code or in the kernel's work for it). */
    boolean ranOutOfMemory() {
        return ranOutOfMemory;
    }

    /** What was set to null after the current cell ran out of memory: variable names, or "Class.field". */
    synchronized List<String> cleared() {
        return List.copyOf(cleared);
    }


    /** Loads a cell's classes with their exit calls redirected to {@link ExitGuard} ({@link ExitCallRewriter}). */
    @Override
    public void load(ClassBytecodes[] classes) throws ClassInstallException, NotImplementedException,
            EngineTerminationException {
        super.load(guarded(classes));
        synchronized (this) {
            for (ClassBytecodes c : classes) {
                classesOfThisCell.add(c.name());
            }
        }
    }

    @Override
    public void redefine(ClassBytecodes[] classes) throws ClassInstallException, NotImplementedException,
            EngineTerminationException {
        super.redefine(guarded(classes));
    }

    private static ClassBytecodes[] guarded(ClassBytecodes[] classes) {
        ClassBytecodes[] out = new ClassBytecodes[classes.length];
        for (int i = 0; i < classes.length; i++) {
            out[i] = new ClassBytecodes(classes[i].name(), ExitCallRewriter.rewrite(classes[i].bytecodes()));
        }
        return out;
    }

    /**
     * Runs a snippet on a thread of its own, in a thread group that {@link #stop()} stops, as
     * JShell's {@code LocalExecutionControl} does; unlike it, this catches what the reflection call
     * itself throws (JShell's engine loses an error thrown while that call wraps the cell's error,
     * and reports such a cell as a success). The snippet's thread drops the reserve the moment it
     * catches an {@link OutOfMemoryError}; what the cell's end means ({@link SnippetEnding}) and the
     * rest of giving memory back are done here, on the kernel's thread, once the snippet's has
     * ended: a stop for memory can land in the snippet thread's own {@code catch} and cut short
     * anything it does there.
     */
    @Override
    protected String invoke(Method doit) throws Exception {
        Object[] result = new Object[1];
        boolean[] returned = new boolean[1];
        Throwable[] caught = new Throwable[1];
        synchronized (this) {
            classesOfThisCell.add(doit.getDeclaringClass().getName());
        }
        ThreadGroup group = new ThreadGroup("loadlab-cell");
        Thread snippet = new Thread(group, () -> {
            try {
                result[0] = experiments.call(() -> doit.invoke(null));
                returned[0] = true;
            } catch (Throwable e) {
                if (SnippetEnding.cellError(e) instanceof OutOfMemoryError) {
                    // One store: room at once for the other threads (ZeroMQ's I/O thread dies of an OOM).
                    reserve = null;
                }
                caught[0] = e;
            }
        }, "loadlab-cell");
        synchronized (stopLock) {
            memoryStop = null;
            REPL.$Cancel$.allStop = false;
            running = group;
            runningThread = snippet;
        }
        try {
            snippet.start();
            snippet.join();
        } finally {
            synchronized (stopLock) {
                running = null;
                runningThread = null;
            }
        }
        SnippetEnding ending = SnippetEnding.of(returned[0], result[0], caught[0]);
        if (ending instanceof SnippetEnding.Returned r) {
            lastResult = r.value();
            invocations++;
            return valueString(r.value());
        }
        if (ending instanceof SnippetEnding.Threw t) {
            throw t.error();
        }
        if (ending instanceof SnippetEnding.RanOutOfMemory m) {
            giveMemoryBack();
            throw m.error();
        }
        throw stopped();
    }

    /** Starts counting the snippets that run (before one {@code JShell.eval}). */
    void countInvocations() {
        invocations = 0;
        lastResult = null;
    }

    /**
     * The live value the snippet returned, when exactly one snippet ran since
     * {@link #countInvocations()}: for an expression, JShell's wrapper method returns the
     * expression's value, so it needs no second snippet to fetch it.
     */
    java.util.Optional<Session.Value> onlyResult() {
        return invocations == 1 ? java.util.Optional.of(new Session.Value(lastResult)) : java.util.Optional.empty();
    }

    /**
     * Stops the experiments the running cell executes the careful way (files consistent, subjects
     * stopped), waiting up to {@code wait} for each; before the cell's thread is stopped.
     */
    void stopExperiments(java.time.Duration wait) {
        experiments.stop(wait);
    }

    /**
     * What a stopped snippet throws: {@link StoppedException} for an interrupt; for the kernel's
     * stop for memory, an {@link OutOfMemoryError} saying why, once memory is given back.
     */
    private Exception stopped() {
        String why = memoryStop;
        if (why == null) {
            return new StoppedException();
        }
        giveMemoryBack();
        OutOfMemoryError e = new OutOfMemoryError(why);
        // Where the cell was, not where the kernel stopped it from.
        e.setStackTrace(memoryStopTrace);
        return new InvocationTargetException(e);
    }

    /** Stops the running snippet and every thread it started (JShell.stop() comes here). */
    @Override
    public void stop() {
        synchronized (stopLock) {
            if (running != null) {
                stopGroup(running);
            }
        }
    }

    /**
     * Stops every thread of a cell's group: sets the flag of the stop checks that JShell puts into
     * cell code where {@code Thread.stop} is gone (25 here: a busy loop ends at its next check),
     * then {@code ThreadGroup.stop} where this Java has it (17), else interrupts the threads, which
     * ends {@code sleep}, {@code wait} and {@code java.util.concurrent} waits.
     */
    @SuppressWarnings("removal")
    private static void stopGroup(ThreadGroup group) {
        // The stop checks JShell's engine puts into cell code on Javas without Thread.stop.
        REPL.$Cancel$.allStop = true;
        try {
            group.stop();
            return;
        } catch (UnsupportedOperationException | NoSuchMethodError e) {
            // Java 20 and later: interrupt instead.
        }
        Thread[] threads = new Thread[group.activeCount() + 8];
        int n = group.enumerate(threads);
        for (int i = 0; i < n; i++) {
            threads[i].interrupt();
        }
    }

    @Override
    public void close() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                try {
                    emitter.removeNotificationListener(afterCollection);
                } catch (ListenerNotFoundException e) {
                    // Not every collector bean took the listener.
                }
            }
        }
        super.close();
    }

    /** After a collection (on the JVM's notification thread): stops the snippet when the heap stayed full. */
    private void afterCollection(Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType()) || running == null) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long used = 0;
        for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        long max = Runtime.getRuntime().maxMemory();
        if (used <= HEAP_FULL * max) {
            return;
        }
        synchronized (stopLock) {
            if (running != null && memoryStop == null) {
                memoryStop = String.format(Locale.ROOT, "the heap was %d%% full after a garbage collection "
                        + "(%d of %d MiB); the kernel stopped the cell before the heap ran out", Math.round(100.0 * used / max),
                        used >> 20, max >> 20);
                Thread t = runningThread;
                memoryStopTrace = t == null ? new StackTraceElement[0] : t.getStackTrace();
                stopGroup(running);
            }
        }
    }

    /**
     * After an {@link OutOfMemoryError}: lets the reserve go, for the kernel's own work, and sets
     * the static fields of the classes this cell loaded or ran to null.
     */
    void giveMemoryBack() {
        ranOutOfMemory = true;
        reserve = null;
        synchronized (this) {
            for (String name : classesOfThisCell) {
                clearStatics(name);
            }
        }
    }

    /** Sets the static reference fields of one of the cell's classes to null, noting each. */
    private void clearStatics(String className) {
        Class<?> c;
        try {
            c = findClass(className);
        } catch (ClassNotFoundException | LinkageError e) {
            // Loaded a moment ago, so this does not happen; nothing of it to clear if it does.
            return;
        }
        for (Field f : c.getDeclaredFields()) {
            int m = f.getModifiers();
            if (!Modifier.isStatic(m) || Modifier.isFinal(m) || f.isSynthetic() || f.getType().isPrimitive()) {
                continue;
            }
            try {
                f.setAccessible(true);
                if (f.get(null) != null) {
                    f.set(null, null);
                    cleared.add(isWrapper(c) ? f.getName() : c.getSimpleName() + "." + f.getName());
                }
            } catch (IllegalAccessException | RuntimeException e) {
                // Not ours to change (a module or a field JShell guards): it keeps its value.
            }
        }
    }

    /** JShell's wrapper classes ({@code REPL.$JShell$12}) hold the cell's variables as static fields. */
    private static boolean isWrapper(Class<?> c) {
        return c.getSimpleName().startsWith("$JShell$");
    }

    private void takeReserve() {
        try {
            reserve = new byte[(int) RESERVE_BYTES];
        } catch (OutOfMemoryError e) {
            // The heap is still full (values kept by cells): the next cell tries again.
            reserve = null;
        }
    }
}
