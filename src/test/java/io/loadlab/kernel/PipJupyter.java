package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadlab.host.LoadlabCache;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Jupyter that pip installs, as a user without Debian's would have it: the virtual environment
 * that {@code scripts/setup test} makes in Loadlab's cache from {@code scripts/jupyter-requirements.txt}
 * (jupyterlab 4.6, notebook 7, nbconvert, nbclient; every version pinned).
 */
public final class PipJupyter {

    private PipJupyter() {
    }

    /** The environment's {@code bin} folder (jupyter, python); skips the test where it was not made. */
    public static Path bin() {
        Path bin = LoadlabCache.root().resolve("tools/jupyter-venv/bin");
        boolean here = Files.isExecutable(bin.resolve("jupyter")) && Files.isExecutable(bin.resolve("python"));
        String missing = "no pip Jupyter at " + bin + ": run scripts/setup test";
        if ("1".equals(System.getenv("LOADLAB_REQUIRE_ALL_SUBJECTS"))) {
            // scripts/test set the machine up: a missing environment is a failure there, not a skip.
            assertTrue(here, missing);
        }
        assumeTrue(here, missing);
        return bin;
    }
}
