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
    void showTableIsLoadlabJshsOwn() throws java.io.IOException {
        String jsh = java.nio.file.Files.readString(KernelFixture.HOME.resolve("src/main/jshell/loadlab.jsh"));
        org.junit.jupiter.api.Assertions.assertTrue(jsh.contains(Startup.SHOW_TABLE + "\n"),
                "loadlab.jsh's show(table) differs from the kernel's copy:\n" + Startup.SHOW_TABLE);
    }

    @Test
    void homeIsThisCheckout() {
        assertEquals(Optional.of(KernelFixture.HOME), Startup.home());
    }
}
