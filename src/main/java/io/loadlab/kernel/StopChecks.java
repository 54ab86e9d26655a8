package io.loadlab.kernel;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Set;
import jdk.jshell.execution.LocalExecutionControl;

/**
 * Checks that this Java's JShell stops cells the way {@link REPL.$Cancel$} expects. On recent
 * Javas (25 here), {@link LocalExecutionControl#load} puts calls to {@code REPL.$Cancel$.stopCheck()}
 * into every cell class; {@link CellExecution} keeps that and provides the class. Were a later
 * JShell to call another class, every cell would fail with a {@code NoClassDefFoundError}; so the
 * kernel refuses to start instead, saying why. Read from JShell's own class file, as no API tells.
 */
final class StopChecks {

    static final String CANCEL_CLASS = "REPL.$Cancel$";
    static final String STOP_CHECK = "stopCheck";

    private static volatile boolean verified;

    private StopChecks() {
    }

    /**
     * Passes when this JShell puts no stop checks into cell code (Java 17), or calls
     * {@code REPL.$Cancel$.stopCheck()}.
     *
     * @throws IllegalStateException when it calls something else, or its class file cannot be read
     */
    static void verify() {
        if (verified) {
            return;
        }
        Set<String> strings = strings();
        if (strings.contains(STOP_CHECK) && !strings.contains(CANCEL_CLASS)) {
            throw new IllegalStateException("this Java's JShell (" + Runtime.version() + ") stops cells through a class "
                    + "other than " + CANCEL_CLASS + ", which the Loadlab kernel does not provide; run the kernel on "
                    + "Java 17 or 25");
        }
        verified = true;
    }

    /** The UTF-8 constants of {@code LocalExecutionControl}'s class file. */
    private static Set<String> strings() {
        byte[] bytes;
        try (InputStream in = LocalExecutionControl.class.getResourceAsStream("LocalExecutionControl.class")) {
            if (in == null) {
                throw new IllegalStateException("cannot read JShell's LocalExecutionControl.class");
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read JShell's LocalExecutionControl.class: " + e.getMessage(), e);
        }
        ExitCallRewriter.Pool pool = ExitCallRewriter.Pool.read(bytes);
        Set<String> strings = new HashSet<>();
        for (int i = 1; i < pool.count; i++) {
            if (pool.tags[i] == 1) {
                strings.add(pool.utf8(i));
            }
        }
        return strings;
    }
}
