package io.loadlab.subject;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An exclusive lock on one build of the shared cache, held by one thread of one process at a
 * time: an OS file lock ({@code fcntl}, released by the kernel when a process dies, even by
 * SIGKILL) for other processes, and a {@link ReentrantLock} for the other threads of this JVM,
 * which the OS lock does not keep out. A project's revision checkouts are made under it too.
 */
public final class BuildLock implements AutoCloseable {

    private static final ConcurrentHashMap<Path, ReentrantLock> IN_JVM = new ConcurrentHashMap<>();

    private final ReentrantLock thread;
    private final FileChannel channel;
    private final FileLock lock;

    private BuildLock(ReentrantLock thread, FileChannel channel, FileLock lock) {
        this.thread = thread;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Waits for the lock on {@code file} (created, with its folder, when missing).
     *
     * @throws InterruptedException when interrupted while another thread of this JVM holds it
     */
    public static BuildLock acquire(Path file) throws IOException, InterruptedException {
        Path key = file.toAbsolutePath().normalize();
        ReentrantLock t = IN_JVM.computeIfAbsent(key, k -> new ReentrantLock());
        t.lockInterruptibly();
        FileChannel ch = null;
        try {
            Files.createDirectories(key.getParent());
            ch = FileChannel.open(key, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            return new BuildLock(t, ch, ch.lock());
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                ch.close();
            }
            t.unlock();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
            channel.close();
        } finally {
            thread.unlock();
        }
    }

    /**
     * Removes what a killed build left in {@code dir} (the lock is held, so nobody uses it), or
     * nothing when it does not exist. Symbolic links are removed, never followed.
     */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException failed) throws IOException {
                if (failed != null) {
                    throw failed;
                }
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
