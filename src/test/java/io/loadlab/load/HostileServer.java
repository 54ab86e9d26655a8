package io.loadlab.load;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A misbehaving HTTP server for the engine's reliability tests, on 127.0.0.1 and an ephemeral
 * port, blocking, one thread per connection. Each {@link Behaviour} is one way a server can go
 * wrong. Every behaviour is bounded: nothing it sends grows without a client reading it, and a
 * connection thread ends when its client goes away or the server closes.
 *
 * <p>{@link #close()} closes the listener and every accepted socket, joins every thread it
 * started, and throws if one is still alive after 5 s, so a test cannot leave one behind.
 */
final class HostileServer implements AutoCloseable {

    /** What the server does wrong. */
    enum Behaviour {
        /** Accepts, then never reads nor writes: requests sit in the socket buffers. */
        ACCEPT_NEVER_READ,
        /** Reads and discards every byte, never answers. */
        READ_NEVER_ANSWER,
        /** Valid 200 answers, written one byte per write, about 1 ms apart (~60 ms an answer). */
        BYTE_AT_A_TIME,
        /** Answers every request with a status line that is not HTTP ({@code HTTP/1.1 2OO OK}). */
        GARBAGE_STATUS,
        /** A status line, then 1 MiB of 1 KiB header lines (16 times the parser's 64 KiB limit). */
        HUGE_HEADERS,
        /** A chunked body of 8 KiB chunks that never ends, until the client goes away. */
        ENDLESS_CHUNKED,
        /** The first request on a connection is answered; the second gets
         *  {@code Content-Length: 1000}, 13 bytes of body, and a normal close (FIN). */
        SHORT_BODY_THEN_CLOSE,
        /** Like {@link #SHORT_BODY_THEN_CLOSE}, but the second answer is cut by a reset
         *  (SO_LINGER 0, then close: the kernel sends RST instead of FIN). */
        RESET_MID_RESPONSE,
        /** Every answer is a valid 200 with {@code Connection: close}, and the server closes. */
        CONNECTION_CLOSE,
        /**
         * Every second accepted connection is reset at once (SO_LINGER 0, close) before anything
         * is read. A true refusal (RST to the SYN) is not possible for a listening socket on
         * loopback: the kernel completes the handshake before {@code accept}, so the client sees a
         * connection that is reset rather than a refused connect. The other connections get ten
         * valid answers, the tenth with {@code Connection: close}, so reconnects, and with them
         * refusals, go on through the whole run.
         */
        REFUSE_HALF
    }

    /** What the server did; final once {@link #close()} returned. */
    record Counts(long accepted, long served, long hostile) {}

    static final String BODY = "Hello, World!";
    private static final byte[] OK = ascii("HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n" + BODY);
    private static final byte[] OK_CLOSE =
            ascii("HTTP/1.1 200 OK\r\nContent-Length: 13\r\nConnection: close\r\n\r\n" + BODY);
    private static final byte[] SHORT = ascii("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + BODY);
    private static final byte[] GARBAGE = ascii("HTTP/1.1 2OO OK\r\nContent-Length: 0\r\n\r\n");
    private static final int HEADER_LINES = 1024;
    private static final byte[] HEADER_LINE = ascii("X-Filler: " + "a".repeat(1012) + "\r\n");
    private static final byte[] CHUNK = chunk(8192);
    private static final int REFUSE_HALF_ANSWERS = 10;

    private final Behaviour behaviour;
    private final ServerSocket server;
    private final Thread acceptor;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    /** Valid answers begun. */
    private final AtomicLong served = new AtomicLong();
    /** Hostile acts begun: bad answers, cut answers, resets; not counted for silent behaviours. */
    private final AtomicLong hostile = new AtomicLong();
    private volatile boolean closed;

    private HostileServer(Behaviour behaviour) throws IOException {
        this.behaviour = behaviour;
        this.server = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "hostile-accept-" + behaviour);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    static HostileServer start(Behaviour behaviour) throws IOException {
        return new HostileServer(behaviour);
    }

    int port() {
        return server.getLocalPort();
    }

    String url() {
        return "http://127.0.0.1:" + port() + "/";
    }

    Counts counts() {
        return new Counts(accepted.get(), served.get(), hostile.get());
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // the listener closed
            }
            long n = accepted.incrementAndGet();
            sockets.add(s);
            if (closed) {
                // close() may have gone over the set before this socket was in it.
                closeQuietly(s);
                return;
            }
            if (behaviour == Behaviour.REFUSE_HALF && n % 2 == 0) {
                hostile.incrementAndGet();
                reset(s);
                continue;
            }
            if (behaviour == Behaviour.ACCEPT_NEVER_READ) {
                continue; // held open, untouched, until close()
            }
            Thread t = new Thread(() -> serve(s), "hostile-conn-" + behaviour);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    private void serve(Socket s) {
        try {
            s.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            if (behaviour == Behaviour.READ_NEVER_ANSWER) {
                in.transferTo(OutputStream.nullOutputStream());
                return;
            }
            for (int request = 1; readRequestHead(in); request++) {
                if (!answer(s, out, request)) {
                    return;
                }
            }
        } catch (IOException e) {
            // The client went away or the server is closing: the connection ends either way.
        } finally {
            closeQuietly(s);
            sockets.remove(s);
            threads.remove(Thread.currentThread());
        }
    }

    /** Answers one request; {@code false} when the connection is to end. */
    private boolean answer(Socket s, OutputStream out, int request) throws IOException {
        switch (behaviour) {
            case BYTE_AT_A_TIME -> {
                served.incrementAndGet();
                for (byte b : OK) {
                    out.write(b);
                    out.flush();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            }
            case GARBAGE_STATUS -> {
                hostile.incrementAndGet();
                out.write(GARBAGE);
            }
            case HUGE_HEADERS -> {
                hostile.incrementAndGet();
                out.write(ascii("HTTP/1.1 200 OK\r\n"));
                for (int i = 0; i < HEADER_LINES; i++) {
                    out.write(HEADER_LINE);
                }
                out.write(ascii("Content-Length: 0\r\n\r\n"));
            }
            case ENDLESS_CHUNKED -> {
                hostile.incrementAndGet();
                out.write(ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"));
                while (!closed) {
                    out.write(CHUNK); // throws once the client has closed
                }
                return false;
            }
            case SHORT_BODY_THEN_CLOSE, RESET_MID_RESPONSE -> {
                if (request == 1) {
                    served.incrementAndGet();
                    out.write(OK);
                    return true;
                }
                hostile.incrementAndGet();
                out.write(SHORT);
                out.flush();
                if (behaviour == Behaviour.RESET_MID_RESPONSE) {
                    reset(s);
                }
                return false;
            }
            case CONNECTION_CLOSE -> {
                served.incrementAndGet();
                out.write(OK_CLOSE);
                out.flush();
                return false;
            }
            case REFUSE_HALF -> {
                served.incrementAndGet();
                boolean last = request == REFUSE_HALF_ANSWERS;
                out.write(last ? OK_CLOSE : OK);
                out.flush();
                return !last;
            }
            case ACCEPT_NEVER_READ, READ_NEVER_ANSWER ->
                    throw new IllegalStateException(behaviour + " never answers");
        }
        out.flush();
        return true;
    }

    /** Reads up to the blank line after a request head; {@code false} at the end of the stream. */
    private static boolean readRequestHead(InputStream in) throws IOException {
        int state = 0; // how much of CR LF CR LF has been seen
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                state = state == 2 ? 3 : 1;
            } else if (c == '\n' && (state == 1 || state == 3)) {
                if (state == 3) {
                    return true;
                }
                state = 2;
            } else {
                state = 0;
            }
        }
        return false;
    }

    /** Closes with SO_LINGER 0: the kernel answers with RST instead of FIN. */
    private static void reset(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (IOException e) {
            // Already closed by the other side: close() below is all that is left to do.
        }
        closeQuietly(s);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // Nothing useful to do: the socket is gone either way.
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        sockets.clear();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        try {
            join(acceptor, deadline);
            for (Thread t : threads) {
                join(t, deadline);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while joining the server's threads", e);
        }
    }

    private static void join(Thread t, long deadline) throws InterruptedException {
        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        if (t.isAlive()) {
            throw new IllegalStateException(t.getName() + " is still running 5 s after close()");
        }
    }

    private static byte[] chunk(int size) {
        byte[] head = ascii(Integer.toHexString(size) + "\r\n");
        byte[] c = Arrays.copyOf(head, head.length + size + 2);
        Arrays.fill(c, head.length, head.length + size, (byte) 'x');
        c[c.length - 2] = '\r';
        c[c.length - 1] = '\n';
        return c;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
