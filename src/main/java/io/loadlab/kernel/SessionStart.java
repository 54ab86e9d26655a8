package io.loadlab.kernel;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A kernel's {@link Session}, started once by {@link #run()} on a thread the kernel chooses and
 * waited for by whatever needs it. {@code KernelMain} starts it after the kernel has connected, so
 * that Jupyter hears from the kernel while JShell's compiler still loads (about a second, most of
 * a kernel's start); a cell sent meanwhile waits for it. Thread-safe.
 */
final class SessionStart {

    private final int kernelId;
    private final List<String> classpath;
    private final Optional<Path> home;
    private final CompletableFuture<Session> session = new CompletableFuture<>();

    SessionStart(int kernelId, List<String> classpath, Optional<Path> home) {
        this.kernelId = kernelId;
        this.classpath = List.copyOf(classpath);
        this.home = home;
    }

    /**
     * Starts JShell with the start-up snippets, then compiles a throw-away cell so that the first
     * real one finds the compiler warm. Runs once; later calls do nothing.
     *
     * @throws IllegalStateException when JShell could not start (cells then fail with that reason)
     */
    void run() {
        if (session.isDone()) {
            return;
        }
        try {
            Session s = new Session(kernelId, classpath, Startup.snippets(kernelId, home));
            s.warmUp();
            session.complete(s);
        } catch (RuntimeException | Error e) {
            session.completeExceptionally(e);
            throw e instanceof IllegalStateException ise ? ise : new IllegalStateException("JShell did not start: " + e, e);
        }
    }

    /** The session, once started; waits for it. */
    Session await() throws CellError {
        try {
            return session.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            throw new CellError(cause.getClass().getName(), "the kernel could not start JShell: " + cause.getMessage(),
                    List.of("the kernel could not start JShell: " + cause));
        }
    }

    /** The session, waiting for its start; empty when it failed to start. */
    Optional<Session> awaitQuietly() {
        try {
            return Optional.of(session.join());
        } catch (CompletionException e) {
            return Optional.empty();
        }
    }

    /** The session if it has started, without waiting. */
    Optional<Session> ifStarted() {
        return session.isDone() && !session.isCompletedExceptionally() ? Optional.of(session.join()) : Optional.empty();
    }

    /** Closes the session now, or as soon as it has started. */
    void close() {
        session.thenAccept(Session::close);
    }
}
