package io.loadlab.kernel;

import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What the kernel checks in its connection file before it binds anything. Whoever can reach the
 * kernel's ports and sign a message runs code as the kernel's user, so the key is what protects
 * it: an empty key (unsigned messages) is refused unless {@code --allow-unsigned} was given on
 * purpose, and an address beyond loopback is allowed (Jupyter may be set up that way) but warned
 * about.
 */
final class ConnectionChecks {

    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "::1", "localhost");

    private ConnectionChecks() {
    }

    /** The one-line reason to refuse to start, if any. */
    static Optional<String> refusal(KernelConnectionProperties props, Path file, boolean allowUnsigned) {
        String key = props.getKey();
        if ((key == null || key.isEmpty()) && !allowUnsigned) {
            return Optional.of("loadlab kernel: the connection file " + file + " has an empty key, so anyone who can"
                    + " reach its ports could run code; let Jupyter write a key (its default), or install the kernel"
                    + " with 'loadlab kernel install " + KernelMain.ALLOW_UNSIGNED + "' to accept unsigned messages on purpose");
        }
        return Optional.empty();
    }

    /** The one-line warning when the kernel would listen beyond loopback, if it would. */
    static Optional<String> warning(KernelConnectionProperties props, Path file) {
        String ip = props.getIp() == null ? "" : props.getIp().strip().toLowerCase(Locale.ROOT);
        if (LOOPBACK.contains(ip)) {
            return Optional.empty();
        }
        return Optional.of("loadlab kernel: warning: the connection file " + file + " binds " + props.getIp()
                + ", beyond loopback: whoever reaches these ports and has the key runs code as this user");
    }
}
