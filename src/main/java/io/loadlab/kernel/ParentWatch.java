package io.loadlab.kernel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Watches what keeps a kernel worth running: the process that started it (Jupyter, nbconvert, a
 * test) and the connection file that process wrote. When the parent exits (the kernel is then
 * re-parented) or the file has been gone for two checks in a row, it calls back once with the
 * reason, so that no kernel JVM outlives its notebook server. Stdin is no signal: Jupyter closes
 * the kernel's stdin right after starting it.
 */
final class ParentWatch {

    private ParentWatch() {
    }

    /**
     * Starts a daemon thread that checks every {@code period}.
     *
     * @param connectionFile the kernel's connection file
     * @param onLoss         called once, on the watch thread, with why the kernel should exit
     * @return the thread
     */
    static Thread start(Path connectionFile, Duration period, Consumer<String> onLoss) {
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        Thread t = new Thread(() -> {
            int missing = 0;
            while (true) {
                try {
                    Thread.sleep(period.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
                Optional<String> reason;
                try {
                    reason = parentGone(parent);
                    if (reason.isEmpty()) {
                        missing = Files.exists(connectionFile) ? 0 : missing + 1;
                        if (missing >= 2) {
                            reason = Optional.of("the connection file " + connectionFile + " was removed");
                        }
                    }
                } catch (OutOfMemoryError e) {
                    // A cell filled the heap; the kernel frees it. Dying here would orphan the kernel.
                    continue;
                }
                if (reason.isPresent()) {
                    onLoss.accept(reason.get());
                    return;
                }
            }
        }, "loadlab-kernel-parent-watch");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static Optional<String> parentGone(Optional<ProcessHandle> parent) {
        if (parent.isEmpty()) {
            return Optional.empty();
        }
        long pid = parent.get().pid();
        Optional<ProcessHandle> now = ProcessHandle.current().parent();
        if (now.isEmpty() || now.get().pid() != pid) {
            return Optional.of("the parent process " + pid + " exited");
        }
        // isAlive compares start times, so a recycled pid does not pass for the parent.
        return parent.get().isAlive() ? Optional.empty() : Optional.of("the parent process " + pid + " exited");
    }
}
