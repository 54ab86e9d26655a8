package io.loadlab.kernel;

import java.lang.reflect.InvocationTargetException;

/**
 * How a snippet's thread ended, decided from what it recorded, on the kernel's thread once it has
 * ended. The decision is not left to the snippet's thread because a stop ({@code ThreadDeath},
 * from an interrupt or from the kernel's stop for memory) can land anywhere in it, in its
 * {@code catch} blocks included: there it ends the thread before it records or handles what it
 * caught. So a thread that recorded neither a value nor a failure was stopped.
 */
sealed interface SnippetEnding {

    /** The snippet returned this value (null for a statement or a void call). */
    record Returned(Object value) implements SnippetEnding {
    }

    /** The snippet threw; {@code error} wraps what the cell threw, as JShell's engine expects. */
    record Threw(InvocationTargetException error) implements SnippetEnding {
    }

    /** The heap ran out while the snippet ran; {@code error} wraps the {@link OutOfMemoryError}. */
    record RanOutOfMemory(InvocationTargetException error) implements SnippetEnding {
    }

    /** The snippet was stopped: by an interrupt, or by the kernel because the heap stayed full. */
    record Stopped() implements SnippetEnding {
    }

    /**
     * How the snippet ended, from what its thread recorded; on the kernel's thread, after {@code join}.
     *
     * @param returned whether the snippet's call returned
     * @param value    what it returned, when it did
     * @param caught   what the snippet's thread caught, null when it caught nothing or was stopped
     *                 before it could record it
     */
    static SnippetEnding of(boolean returned, Object value, Throwable caught) {
        if (returned) {
            return new Returned(value);
        }
        Throwable cause = cellError(caught);
        if (cause == null || cause instanceof ThreadDeath) {
            return new Stopped();
        }
        if (caught instanceof InvocationTargetException e) {
            return cause instanceof OutOfMemoryError ? new RanOutOfMemory(e) : new Threw(e);
        }
        // Thrown by the reflection call itself, as when it could not wrap the cell's error (JShell's
        // engine would lose such an error and report the cell a success). Its trace is the
        // engine's, not the cell's: an OutOfMemoryError keeps its message only.
        if (cause instanceof OutOfMemoryError) {
            OutOfMemoryError e = new OutOfMemoryError(cause.getMessage());
            e.setStackTrace(new StackTraceElement[0]);
            return new RanOutOfMemory(new InvocationTargetException(e));
        }
        return new Threw(new InvocationTargetException(cause));
    }

    /** What the cell threw: the cause of the reflection call's wrapper, else what was caught itself. */
    static Throwable cellError(Throwable caught) {
        return caught instanceof InvocationTargetException e ? e.getCause() : caught;
    }
}
