package io.loadlab.experiment;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The experiments that some code runs, so that whoever runs that code can stop them the careful
 * way (the run in flight dropped, subjects stopped, files consistent) before it stops the code's
 * thread. A notebook kernel runs each cell inside a scope of its own and, on an interrupt, stops
 * the scope: it holds the handles of exactly its cell's experiments, and nothing in the JVM keeps
 * a list of every experiment.
 *
 * <p>An experiment joins the scope of the thread that executes it; threads started inside the
 * scope inherit it. Thread-safe.
 */
public final class ExperimentScope {

    private static final InheritableThreadLocal<ExperimentScope> CURRENT = new InheritableThreadLocal<>();

    private final Set<Experiment> running = ConcurrentHashMap.newKeySet();

    /**
     * Runs {@code work} on the calling thread inside this scope: the experiments it executes (on
     * this thread or on threads it starts) are this scope's until they end.
     */
    public <T> T call(Callable<T> work) throws Exception {
        ExperimentScope outer = CURRENT.get();
        CURRENT.set(this);
        try {
            return work.call();
        } finally {
            CURRENT.set(outer);
        }
    }

    /**
     * Stops every experiment of this scope that is executing, each as {@link Experiment#stop}
     * does, waiting up to {@code wait} for each.
     *
     * @return whether there was one to stop
     */
    public boolean stop(Duration wait) {
        boolean any = false;
        for (Experiment e : running) {
            e.stop(wait);
            any = true;
        }
        return any;
    }

    /** Whether an experiment of this scope is executing now. */
    public boolean busy() {
        return !running.isEmpty();
    }

    /** Enters {@code e} in the calling thread's scope, if it has one; the returned action takes it out. */
    static Runnable join(Experiment e) {
        ExperimentScope scope = CURRENT.get();
        if (scope == null) {
            return () -> { };
        }
        scope.running.add(e);
        return () -> scope.running.remove(e);
    }

    @Override
    public String toString() {
        return "ExperimentScope[" + running.size() + " running]";
    }
}
