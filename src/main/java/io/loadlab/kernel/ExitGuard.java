package io.loadlab.kernel;

import java.security.Permission;
import java.util.concurrent.ForkJoinPool;

/**
 * Keeps cells from ending the kernel: cells run in the kernel's JVM, so {@code System.exit} in a
 * cell, or in a library it calls (a command line's {@code main}), would end the kernel and lose
 * every variable. With this security manager installed, {@code System.exit} and
 * {@code Runtime.halt} throw a {@link SecurityException} instead, unless the kernel itself exits
 * through {@link #exit(int)} or {@link #halt(int)}. It checks nothing else: every other
 * permission is granted. Signals (Jupyter's SIGTERM, SIGKILL) end the kernel as before.
 *
 * <p>The security manager is deprecated for removal: Java 17 (Loadlab's Java) allows installing
 * one, Java 18 to 23 only when started with {@code -Djava.security.manager=allow}, and later Javas
 * not at all; there {@link #install()} says so and the kernel runs without the guard.
 */
@SuppressWarnings("removal")
final class ExitGuard extends SecurityManager {

    private static volatile boolean kernelExiting;

    private ExitGuard() {
    }

    /**
     * Installs the guard for this JVM (the kernel process only: a test JVM must stay able to exit).
     *
     * @return false when this Java does not allow a security manager
     */
    static boolean install() {
        // The common pool picks innocuous, permission-less worker threads when a security manager
        // is installed before it is made; made now, it keeps ordinary ones.
        ForkJoinPool.commonPool();
        try {
            System.setSecurityManager(new ExitGuard());
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    /** Ends the kernel's JVM with {@code status} (the guard lets the kernel itself exit). */
    static void exit(int status) {
        kernelExiting = true;
        System.exit(status);
    }

    /** Halts the kernel's JVM, skipping shutdown hooks. */
    static void halt(int status) {
        kernelExiting = true;
        Runtime.getRuntime().halt(status);
    }

    @Override
    public void checkExit(int status) {
        if (!kernelExiting) {
            throw new SecurityException("System.exit(" + status + ") was refused: it would end the kernel and lose "
                    + "every variable; restart the kernel from the notebook instead");
        }
    }

    @Override
    public void checkPermission(Permission perm) {
        // Everything but exiting is allowed.
    }

    @Override
    public void checkPermission(Permission perm, Object context) {
        // Everything but exiting is allowed.
    }
}
