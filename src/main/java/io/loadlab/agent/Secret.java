package io.loadlab.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret that agents and coordinators share, read from a file the user made. It is never sent.
 * The cluster name each side presents is derived from it (HMAC-SHA256); Hazelcast sends that name in
 * clear, so it only keeps strangers out of the cluster: control rests on the handshake's proofs and
 * session keys ({@link Handshake}), which are MACs under the secret itself. Immutable;
 * {@link #toString()} shows no secret.
 */
public final class Secret {

    /** Shortest secret accepted, characters: a guessable word is no gate. */
    public static final int MIN_LENGTH = 16;

    private final byte[] key;

    private Secret(byte[] key) {
        this.key = key.clone();
    }

    /**
     * Reads the secret: the file's text without surrounding white space. As ssh does for keys, a file
     * that its group or others may read or write is refused: anyone who can read it controls the agents.
     *
     * @throws AgentException when the file is missing, unreadable, open to group or others, or shorter
     *                        than {@value #MIN_LENGTH}
     */
    public static Secret read(Path file) {
        String text;
        try {
            checkPrivate(file);
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            throw new AgentException("secret file " + file + " does not exist: make one with"
                    + " '(umask 077; head -c 32 /dev/urandom | base64 > " + file + ")' and give it to every agent");
        } catch (IOException e) {
            throw new AgentException("cannot read secret file " + file + ": " + e.getMessage());
        }
        if (text.length() < MIN_LENGTH) {
            throw new AgentException("secret file " + file + " holds " + text.length() + " characters, at least "
                    + MIN_LENGTH + " are needed: make one with '(umask 077; head -c 32 /dev/urandom | base64 > " + file
                    + ")'");
        }
        return of(text);
    }

    /** Refuses a file that group or others may read or write; a file system without POSIX modes passes. */
    private static void checkPrivate(Path file) throws IOException {
        if (Files.getFileAttributeView(file, PosixFileAttributeView.class) == null) {
            return;
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
        Set<PosixFilePermission> open = EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
        open.retainAll(mode);
        if (!open.isEmpty()) {
            throw new AgentException("secret file " + file + " can be read or written by others than its owner (mode "
                    + PosixFilePermissions.toString(mode) + "): run 'chmod 600 " + file + "'");
        }
    }

    /** A secret from its text (tests, notebooks). */
    public static Secret of(String text) {
        return new Secret(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The Hazelcast cluster name of everyone holding this secret: {@code loadlab-} and 24 hex digits
     * of HMAC-SHA256 over a fixed label. Hazelcast compares it at every member join and client
     * authentication, but sends it in clear: whoever sniffs it can connect, not command ({@link Handshake}).
     */
    public String clusterName() {
        return "loadlab-" + HexFormat.of().formatHex(mac("loadlab cluster name v1")).substring(0, 24);
    }

    private byte[] mac(String label) {
        return mac(label, List.of());
    }

    /**
     * HMAC-SHA256 under the secret over {@code label} and {@code parts}, each preceded by its length (4
     * bytes, big-endian) so that no two different lists of parts give the same input. The handshake's
     * proofs and session keys ({@link Handshake}) are such MACs, each with a label of its own, so a
     * value made for one use is never valid for another; the secret's bytes never leave this class.
     *
     * @return 32 bytes
     */
    byte[] mac(String label, List<byte[]> parts) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            m.update(label.getBytes(StandardCharsets.UTF_8));
            for (byte[] p : parts) {
                m.update(ByteBuffer.allocate(4).putInt(p.length).array());
                m.update(p);
            }
            return m.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
        }
    }

    @Override
    public String toString() {
        return "Secret[" + key.length + " bytes]";
    }
}
