package io.loadlab.agent;

import io.loadlab.subject.ThrowawayCa;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;

/**
 * A remote subject's server certificate and key on the agent's host, as the runner sent them with its
 * launch: {@code server.pem} and {@code server.key} in a folder of their own under the agent's scratch
 * (the folder 0700, the key 0600, so only the agent's user reads it), deleted when the subject stops.
 */
final class ScratchCertificate {

    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");

    private ScratchCertificate() {
    }

    /**
     * Writes {@code pem} into {@code dir} (created; it must not exist yet).
     *
     * @return the files, as the start command's {@code {cert}} and {@code {key}}
     * @throws IOException when the folder exists already or cannot be written
     */
    static ThrowawayCa.ServerFiles write(Path dir, Message.Pem pem) throws IOException {
        Files.createDirectories(dir.getParent());
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
        Files.setPosixFilePermissions(dir, OWNER_DIR); // the umask may have taken bits off, never added any
        Path cert = Files.writeString(dir.resolve("server.pem"), pem.cert(), StandardCharsets.US_ASCII);
        // The key file is made 0600 before a byte of the key is in it.
        Path key = Files.createFile(dir.resolve("server.key"), PosixFilePermissions.asFileAttribute(OWNER_FILE));
        Files.setPosixFilePermissions(key, OWNER_FILE);
        Files.writeString(key, pem.key(), StandardCharsets.US_ASCII);
        return new ThrowawayCa.ServerFiles(cert, key);
    }

    /**
     * Deletes the folder and its files; nothing to do when it does not exist.
     *
     * @return why it could not, when a file is left
     */
    static Optional<String> delete(Path dir) {
        try {
            Files.deleteIfExists(dir.resolve("server.key"));
            Files.deleteIfExists(dir.resolve("server.pem"));
            Files.deleteIfExists(dir);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("cannot delete the subject's certificate folder " + dir + ": " + e.getMessage());
        }
    }
}
