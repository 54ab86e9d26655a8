package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The kernel's start-up: Loadlab's imports are those of loadlab.jsh, also without the file. */
class StartupTest {

    @Test
    void theFallbackImportsEqualThoseOfLoadlabJsh() {
        assertEquals(Startup.importsOf(KernelFixture.HOME.resolve("src/main/jshell/loadlab.jsh")), Startup.LOADLAB_IMPORTS);
    }

    @Test
    void homeIsThisCheckout() {
        assertEquals(Optional.of(KernelFixture.HOME), Startup.home());
    }
}
