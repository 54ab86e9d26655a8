package io.loadlab.data;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock that keeps a second run (or {@code --resume}) out of an experiment folder while one
 * writes it: {@value #FILE} in the folder, held with {@link FileChannel#tryLock()} and holding the
 * holder's pid. The kernel releases the lock when its holder dies, however it dies, so a crash
 * never leaves the folder locked; the file itself stays behind and means nothing without the lock.
 * Not reentrant: a second {@link #acquire} in the same process is refused like one from another.
 */
final class FolderLock implements AutoCloseable {

    /** The lock file's name in the experiment folder. */
    static final String FILE = ".loadlab-lock";

    /** The most read of a lock file to name its holder (bytes): a pid and a line feed. */
    private static final int PID_BYTES = 32;

    private final FileChannel channel;
    private final FileLock lock;

    private FolderLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the folder's lock and records this process's pid in it.
     *
     * @param dir an existing experiment folder
     * @throws DataException when another process (or this one) holds it, naming the folder and the holder's pid
     * @throws IOException   when the lock file cannot be made or written
     */
    static FolderLock acquire(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by this process: refused like any other holder
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        if (lock == null) {
            String holder = holder(ch);
            ch.close();
            throw new DataException(dir + " is in use by another loadlab run or --resume" + holder
                    + ": wait for it to finish (or stop it), then resume " + dir);
        }
        try {
            ch.truncate(0);
            StoreFiles.writeFully(ch, (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII), 0);
            ch.force(true);
            StoreFiles.syncDir(dir);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return new FolderLock(ch, lock);
    }

    /** " (pid N)" from the lock file, or nothing when the holder has not written it yet. */
    private static String holder(FileChannel ch) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(PID_BYTES);
        while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
            // read until full or the end of the file
        }
        String text = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).strip();
        return text.matches("[0-9]{1,19}") ? " (pid " + text + ")" : "";
    }

    /**
     * Releases the lock; the file stays (removing it would race with the next holder's open).
     * Closing again does nothing.
     */
    @Override
    public void close() throws IOException {
        try {
            if (lock.isValid()) {
                lock.release();
            }
        } finally {
            channel.close();
        }
    }
}
