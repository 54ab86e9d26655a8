package io.loadlab.data;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * The durable writes of an experiment folder. Forcing a file makes its bytes durable, not its
 * name: a file created or renamed into a folder survives a power cut only once the folder itself
 * is forced, so every create and rename here is followed by {@link #syncDir}.
 */
final class StoreFiles {

    /** Windows cannot open a folder as a channel; there NTFS journals the names itself. */
    private static final boolean SYNC_DIRS = !System.getProperty("os.name", "").toLowerCase(Locale.ROOT)
            .startsWith("windows");

    private StoreFiles() {
    }

    static void writeFully(FileChannel ch, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** Writes at an absolute position (bytes), leaving the channel's own position alone. */
    static void writeFully(FileChannel ch, byte[] bytes, long position) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            position += ch.write(b, position);
        }
    }

    /** Forces a folder's entries (the names created, renamed or removed in it) to disk. */
    static void syncDir(Path dir) throws IOException {
        if (SYNC_DIRS) {
            try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
                ch.force(true);
            }
        }
    }

    /**
     * Replaces {@code target} with {@code tmp}, a sibling: forces tmp's bytes, renames it
     * atomically where the file system can, then forces the folder, so that after a crash the
     * folder holds the old file or the new one, whole.
     */
    static void replace(Path tmp, Path target) throws IOException {
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        syncDir(target.toAbsolutePath().getParent());
    }
}
