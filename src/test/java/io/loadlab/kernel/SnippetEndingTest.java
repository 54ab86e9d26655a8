package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import org.junit.jupiter.api.Test;

class SnippetEndingTest {

    @Test
    void aSnippetThatReturnedReturnedEvenWithNothingCaught() {
        assertEquals(new SnippetEnding.Returned(42), SnippetEnding.of(true, 42, null));
        assertEquals(new SnippetEnding.Returned(null), SnippetEnding.of(true, null, null));
    }

    @Test
    void aThreadThatRecordedNeitherAValueNorAFailureWasStopped() {
        // A stop that lands in the snippet thread's catch block ends it before it records anything.
        assertInstanceOf(SnippetEnding.Stopped.class, SnippetEnding.of(false, null, null));
    }

    @Test
    @SuppressWarnings("removal")
    void aStopIsAStopWhetherOrNotTheReflectionCallWrappedIt() {
        assertInstanceOf(SnippetEnding.Stopped.class, SnippetEnding.of(false, null, new ThreadDeath()));
        assertInstanceOf(SnippetEnding.Stopped.class,
                SnippetEnding.of(false, null, new InvocationTargetException(new ThreadDeath())));
    }

    @Test
    void theCellsOwnExceptionIsPassedOnAsThrown() {
        InvocationTargetException thrown = new InvocationTargetException(new IOException("checked"));
        SnippetEnding ending = SnippetEnding.of(false, null, thrown);
        assertSame(thrown, assertInstanceOf(SnippetEnding.Threw.class, ending).error());
    }

    @Test
    void anOutOfMemoryErrorOfTheCellKeepsItsTrace() {
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
        InvocationTargetException thrown = new InvocationTargetException(oom);
        SnippetEnding ending = SnippetEnding.of(false, null, thrown);
        assertSame(thrown, assertInstanceOf(SnippetEnding.RanOutOfMemory.class, ending).error());
    }

    @Test
    void anErrorOfTheReflectionCallItselfIsWrappedAndAnOutOfMemoryErrorLosesTheEnginesTrace() {
        IllegalStateException engine = new IllegalStateException("wrapping failed");
        SnippetEnding threw = SnippetEnding.of(false, null, engine);
        assertSame(engine, assertInstanceOf(SnippetEnding.Threw.class, threw).error().getCause());

        SnippetEnding oom = SnippetEnding.of(false, null, new OutOfMemoryError("Java heap space"));
        Throwable cause = assertInstanceOf(SnippetEnding.RanOutOfMemory.class, oom).error().getCause();
        assertInstanceOf(OutOfMemoryError.class, cause);
        assertEquals("Java heap space", cause.getMessage());
        assertEquals(0, cause.getStackTrace().length, "the trace is the engine's, not the cell's");
    }
}
