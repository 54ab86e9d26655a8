package io.loadlab.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A harness stand-in for {@link ExternalEnginesTest}: runs wrk against {@code 127.0.0.1:PORT} for a
 * minute in its own JVM, so that the test can kill this JVM with SIGKILL mid-run.
 */
public final class ToolRunnerMain {

    private ToolRunnerMain() {
    }

    public static void main(String[] args) throws Exception {
        Path tmp = Files.createTempDirectory("tool-runner");
        ExternalLoad load = new ExternalLoad(Engine.WRK, "GET", "127.0.0.1", Integer.parseInt(args[0]), "/", 0, 2, 1,
                Duration.ofSeconds(60), Optional.empty(), 1);
        ExternalEngines.run(load, tmp, tmp.resolve("out.txt"), () -> { }, () -> { });
    }
}
